// `rig apply-patch` as a core service: the agent's own parser and file-change engine, no model.
export { applyPatch } from '../patch/apply.js';
