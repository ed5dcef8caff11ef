// Node's fetch (used by web_fetch and web search backends; model requests go through
// node:http, see http-post.ts) parses HTTP with a wasm build of llhttp, compiled when undici loads. By default
// V8 also recompiles wasm with its optimizing compiler on background threads; the next child
// process exit then blocks the main thread until that finishes, and the optimized code costs
// ~28 MB of RSS and ~60 ms of CPU per process. rig's wasm (llhttp, tree-sitter-bash in
// src/policy/bash.ts) handles inputs of a few kilobytes, for which the baseline compiler's code
// is fast enough, so rig keeps wasm on it.
//
// Changing any V8 flag at runtime also makes Node's code cache unusable for builtins loaded
// afterwards (they compile from source, ~3x slower). So undici is loaded first (touching the
// Headers global loads it, which starts llhttp's compile asynchronously) and the flag is set in the
// same tick, before V8 decides that compile's tiers.
import v8 from 'node:v8';

let applied = false;

/** Loads fetch's undici and keeps wasm compiled from now on to V8's baseline tier. Call before the first fetch. */
export function useBaselineWasmCompiler(): void {
  if (applied) return;
  applied = true;
  void globalThis.Headers;
  v8.setFlagsFromString('--liftoff-only');
}
