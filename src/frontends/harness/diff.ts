// `rig harness diff`: the comparison is a core service; this front end only hands it the
// process's output.
export { runHarnessDiff, type DiffFlags } from '../../core/harness-diff.js';
