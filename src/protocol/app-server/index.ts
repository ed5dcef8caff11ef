// The app-server protocol as rig speaks it (Codex's app-server v2 subset, plus `rig/` methods).
export * from './common.js';
export * from './items.js';
export * from './thread.js';
export * from './requests.js';
export * from './notifications.js';
