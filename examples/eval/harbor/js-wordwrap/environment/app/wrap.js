// Word wrapping for terminal output.
export function wrap(text, width) {
  throw new Error('wrap is not implemented yet');
}
