export * from './items.js';
export * from './usage.js';
export * from './events.js';
export * from './approvals.js';
export * from './ops.js';
export * from './conversation.js';
export * from './tools.js';
export * from './model-events.js';
