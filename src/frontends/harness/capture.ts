// `rig harness capture`: the work is a core service (it runs the original, binds its tools and
// writes the profile); this front end only hands it the process's output.
export { runHarnessCapture, type CaptureFlags } from '../../core/harness-capture.js';
