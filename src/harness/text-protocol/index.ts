// Text protocols (SWE-agent, Terminus 2, mini-swe-agent's sentinel) on top of the tool-call loop.
export * from './actions.js';
export * from './driver.js';
export * from './replay.js';
