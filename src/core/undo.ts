// Undo and rewind of turns' file changes, for every front end: `rig undo` works on a stored
// thread (its checkpoints live next to its rollout, so they survive resume), the TUI's /undo and
// /rewind on a loaded thread's checkpoints. Planning never writes; applying restores exactly the
// files the turns changed and leaves every conflicting file (changed since the turn) as it is
// unless the caller names it in `force`.
import { applyRestore, CheckpointStore, checkpointDirForRollout, planUndo, type RestorePlan, type RestoreResult, type TurnCheckpoint, type UndoSelection } from '../checkpoints/index.js';
import { locateRollout, type ResumeTarget } from './session-resume.js';
import { turnNumber } from './checkpointing.js';
import type { ThreadHandle } from './thread-handle.js';
import { recordUndoNote } from './undo-notes.js';

export type { RestorePlan, RestoreResult, TurnCheckpoint, UndoSelection } from '../checkpoints/index.js';

/** Where undo reads and writes a thread's checkpoints. */
export interface CheckpointSource {
  threadId: string;
  store: CheckpointStore;
}

/** A stored thread's checkpoints (by id or prefix, or the latest thread in `cwd`). */
export function storedCheckpoints(home: string, target: ResumeTarget, cwd: string): CheckpointSource {
  const located = locateRollout(home, target, cwd);
  const dir = checkpointDirForRollout(located.path);
  return { threadId: located.threadId, store: CheckpointStore.open(dir) };
}

/**
 * A loaded thread's checkpoints (the TUI's /undo and /rewind). Undo between turns: a running
 * turn is still recording its own.
 */
export function loadedCheckpoints(handle: ThreadHandle): CheckpointSource | undefined {
  const checkpoints = handle.checkpoints;
  return checkpoints ? { threadId: handle.id, store: checkpoints.store } : undefined;
}

/** For /rewind: the first checkpointed turn at or after `turnId` (undo it and every later one with { fromSeq }). */
export function rewindSelection(source: CheckpointSource, turnId: string): UndoSelection | undefined {
  const n = turnNumber(turnId);
  const seq = source.store.list().find((t) => !t.undone && turnNumber(t.turnId) >= n)?.seq;
  return seq === undefined ? undefined : { fromSeq: seq };
}

/** The turns that can be undone, newest first. */
export function undoableTurns(source: CheckpointSource): TurnCheckpoint[] {
  return source.store
    .list()
    .filter((t) => !t.undone)
    .reverse();
}

/** What undoing `selection` would do (each file's action and diff, and the conflicts). Throws when there is nothing to undo. */
export function planTurnUndo(source: CheckpointSource, selection: UndoSelection = {}): RestorePlan {
  if (undoableTurns(source).length === 0) {
    throw new Error(`thread ${source.threadId} has no turn that changed files left to undo`);
  }
  return planUndo(source.store, selection);
}

/** Puts the files back. Conflicting files stay unless listed in `force` (or `force` is true). */
export function applyTurnUndo(source: CheckpointSource, plan: RestorePlan, force: boolean | readonly string[] = false): RestoreResult {
  const forced = force === true ? plan.conflicts.map((c) => c.path) : force === false ? [] : force;
  const result = applyRestore(source.store, plan, { force: forced });
  // The model is told with its next message (core/undo-notes.ts).
  recordUndoNote(source.store.dir, plan, result);
  return result;
}
