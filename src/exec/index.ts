// Public surface of the exec room: child processes, PTYs, sessions, output capture and formatting.
export * from './live-process.js';
export * from './process-groups.js';
export * from './head-tail-buffer.js';
export * from './spawn.js';
export * from './pty.js';
export * from './shell.js';
export * from './env-policy.js';
export * from './truncate.js';
export * from './format.js';
export * from './unified-exec.js';
