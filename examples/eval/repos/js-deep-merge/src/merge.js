// Merges settings objects: later ones win.
export function mergeSettings(...layers) {
  return Object.assign({}, ...layers);
}
