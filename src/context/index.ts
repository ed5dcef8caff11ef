// The context room: what the model is told about its surroundings (AGENTS.md, environment), how
// full its window is, and how a long history is compacted.
export * from './contextual.js';
export * from './project-docs.js';
export * from './environment-context.js';
export * from './initial-context.js';
export * from './tokens.js';
export * from './model-catalog.js';
export * from './compaction.js';
