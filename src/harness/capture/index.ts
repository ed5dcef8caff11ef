// `rig harness capture` / `rig harness diff`: record an installed original's first request on the
// user's machine and turn it into a harness profile (nothing of it enters the repository).
export * from './recipes.js';
export * from './run.js';
export * from './profile-writer.js';
export * from './summary.js';
export * from './compare.js';
export { CAPTURE_REPLY } from './replies.js';
