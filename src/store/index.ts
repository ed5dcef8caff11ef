// The store room: RIG_HOME layout, rollout files (the truth) and the SQLite index (a cache).
// Importing this barrel loads no SQLite engine; openIndex() does, when first called.
export * from './ids.js';
export * from './home.js';
export * from './rollout-types.js';
export * from './redact.js';
export * from './git-info.js';
export * from './rollout-writer.js';
export * from './thread-lock.js';
export * from './rollout-reader.js';
export * from './rollout-records.js';
export * from './rollout-recorder.js';
export * from './reconstruct.js';
export * from './call-pairing.js';
export * from './scan.js';
export * from './dir-scan.js';
export * from './resume-fork.js';
export * from './index-schema.js';
export * from './thread-index.js';
export * from './thread-json.js';
