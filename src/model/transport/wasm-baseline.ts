// Node's fetch parses HTTP with a wasm build of llhttp, compiled on the first request. By default
// V8 also recompiles wasm with its optimizing compiler on background threads; the next child
// process exit then blocks the main thread until that finishes, and the optimized code costs
// ~20 MB of RSS. rig's wasm (llhttp, tree-sitter-bash in src/policy/bash.ts) handles inputs of a
// few kilobytes, for which the baseline compiler's code is fast enough, so rig stays on it.
import v8 from 'node:v8';

let applied = false;

/** Keeps wasm compiled later in this process on V8's baseline tier. Call before the first fetch. */
export function useBaselineWasmCompiler(): void {
  if (applied) return;
  applied = true;
  v8.setFlagsFromString('--liftoff-only');
}
