// The harness room's public surface.
export * from './profile.js';
export * from './profile-schema.js';
export * from './loader.js';
export * from './routing.js';
export * from './request-shape.js';
export * from './startup-context.js';
export * from './text-actions/swe-agent.js';
export * from './text-actions/terminus-2.js';
export * from './text-actions/mini-swe-agent.js';
export * from './request-settings.js';
