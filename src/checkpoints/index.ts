// Public surface of the checkpoints room (see docs/extensibility.md for how the engine wraps tool
// calls with it).
export { CheckpointStore, TurnRecorder, checkpointDirForRollout, DEFAULT_MAX_STORE_BYTES } from './store.js';
export { WorkspaceTracker, DEFAULT_MAX_BASELINE_BYTES, DEFAULT_MAX_FILE_BYTES } from './tracker.js';
export { ownedContent, sameContent } from './content.js';
export type { CommandChanges, CommandWindow, TrackerOptions } from './tracker.js';
export type { WatchStopReason } from './tracker-watch.js';
export { applyRestore, planUndo } from './restore.js';
export { DEFAULT_MAX_TOTAL_CHECKPOINT_BYTES, pruneCheckpointStores, removeStaleTrackers, TRACKER_DIR } from './prune.js';
export type { PruneReport } from './prune.js';
export type { UndoSelection } from './restore.js';
export { DEFAULT_IGNORED_DIRS, ignoreRules } from './ignore.js';
export type { IgnoreRules } from './ignore.js';
export type * from './model.js';
