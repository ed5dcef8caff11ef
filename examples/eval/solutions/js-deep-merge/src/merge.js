// Merges settings objects: later ones win; nested plain objects merge key by key.
const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

export function mergeSettings(...layers) {
  const result = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      result[key] = isPlainObject(value) && isPlainObject(result[key]) ? mergeSettings(result[key], value) : isPlainObject(value) ? mergeSettings(value) : value;
    }
  }
  return result;
}
