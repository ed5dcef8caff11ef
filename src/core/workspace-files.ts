// The files of a workspace as the harness tools see them (.gitignore and rig's skipped
// directories respected), for front ends that offer paths, e.g. the TUI's @-completion.
export { listPaths } from '../tools/harness/walk.js';
