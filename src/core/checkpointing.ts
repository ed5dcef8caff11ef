// A thread's checkpoints: the store next to its rollout (what every turn changed, for undo and
// rewind) and the workspace tracker that finds what shell commands wrote. The tracker opens lazily,
// before the first shell command of the thread runs: a thread that only talks, reads or edits
// through the file-change engine never pays for its baseline. Each turn records edit tools'
// change sets as they commit and a window around every command; the turn's end writes one
// checkpoint (nothing when no file changed).
import fs from 'node:fs';
import path from 'node:path';
import {
  applyRestore,
  CheckpointStore,
  planUndo,
  pruneCheckpointStores,
  removeStaleTrackers,
  TRACKER_DIR,
  WorkspaceTracker,
  type FileChange,
  type RestorePlan,
  type RestoreResult,
  type TurnCheckpoint,
  type TurnRecorder,
  type UndoSelection,
} from '../checkpoints/index.js';
import type { CommandCheckpoint, TurnCheckpointing } from '../tools/spec.js';
import { threadLockHeld } from '../store/index.js';

export interface ThreadCheckpointsOptions {
  /** The store's folder (next to the rollout; a temp folder for an ephemeral thread). */
  dir: string;
  /** Remove the store when the thread closes (an ephemeral thread: nothing to resume). */
  removeOnClose: boolean;
  /** Folders whose files the tracker watches (cwd and writable roots). */
  roots: string[];
  maxStoreBytes?: number;
  maxBaselineBytes?: number;
  /** All threads' checkpoints under RIG_HOME (sessions folder and limit), pruned after a checkpoint. */
  prune?: { sessionsDir: string; maxBytes: number };
  /** A notice for the user (the thread emits it as a warning item). */
  notice(text: string): void;
}

/** Checkpoint bookkeeping per turn, and its cost (the bench reads it). */
export interface TurnCheckpointStats {
  turnId: string;
  /** Time spent recording (windows, change sets, the final write), without the tracker's opening. */
  costMs: number;
  /** The tracker's opening, when this turn paid for it. */
  trackerOpenMs?: number;
  checkpoint?: TurnCheckpoint;
}

export class ThreadCheckpoints {
  readonly store: CheckpointStore;
  private trackerOpening: Promise<WorkspaceTracker | undefined> | undefined;
  private openCost: number | undefined;
  private prunedOnce = false;
  private closed = false;
  private fallbackNoticed = false;
  /** The newest turn's statistics. */
  lastTurn: TurnCheckpointStats | undefined;

  constructor(private readonly options: ThreadCheckpointsOptions) {
    this.store = CheckpointStore.open(options.dir, options.maxStoreBytes !== undefined ? { maxBytes: options.maxStoreBytes } : {});
  }

  /** Every checkpointed turn of the thread, oldest first (undone and pruned ones marked). */
  list(): TurnCheckpoint[] {
    return this.store.list();
  }

  beginTurn(turnId: string): TurnCheckpoints {
    return new TurnCheckpoints(this, this.store.beginTurn(turnId), turnId);
  }

  /** What undoing would do: each file's action and diff, and the conflicts (files changed since). */
  planUndo(selection: UndoSelection = {}): RestorePlan {
    return planUndo(this.store, selection);
  }

  /** The store sequence number a rewind to `turnId` starts at (its first checkpointed turn at or after it). */
  seqFrom(turnId: string): number | undefined {
    const n = turnNumber(turnId);
    return this.store.list().find((t) => !t.undone && turnNumber(t.turnId) >= n)?.seq;
  }

  /** Puts the files back; conflicting files stay as they are unless listed in `force`. */
  applyUndo(plan: RestorePlan, options: { force?: readonly string[] } = {}): RestoreResult {
    return applyRestore(this.store, plan, options);
  }

  /** @internal the tracker, opened on first use; undefined when it cannot run here. */
  tracker(): Promise<WorkspaceTracker | undefined> {
    if (this.trackerOpening) return this.trackerOpening;
    const started = performance.now();
    this.trackerOpening = WorkspaceTracker.open({
      roots: this.options.roots,
      dir: path.join(this.store.dir, TRACKER_DIR),
      ...(this.options.maxBaselineBytes !== undefined ? { maxBaselineBytes: this.options.maxBaselineBytes } : {}),
    }).then(
      (tracker) => {
        this.openCost = performance.now() - started;
        if (this.closed) {
          tracker.close();
          return undefined;
        }
        if (tracker.cappedFiles > 0) {
          const n = tracker.cappedFiles;
          this.options.notice(
            `checkpoints: the workspace holds more than the checkpoint baseline keeps (checkpoints.max_baseline_mb); ` +
              `${n} file${n === 1 ? ' is' : 's are'} tracked without ${n === 1 ? 'its' : 'their'} content, so changes shell commands make to ` +
              `${n === 1 ? 'it' : 'them'} cannot be undone`,
          );
        }
        return tracker;
      },
      (error: Error) => {
        this.options.notice(`checkpoints: shell commands' changes cannot be undone in this thread: ${error.message}`);
        return undefined;
      },
    );
    return this.trackerOpening;
  }

  /**
   * @internal after a command: tells the user once that the tracker stopped watching and scans
   * instead (every later command then costs a scan of the workspace).
   */
  noticeWatchFallback(tracker: WorkspaceTracker): void {
    const reason = tracker.watchStopReason;
    if (reason === undefined || this.fallbackNoticed) return;
    this.fallbackNoticed = true;
    const why =
      reason === 'flood'
        ? 'a command changed files faster than rig can follow (over 100,000 file events a second)'
        : 'the workspace watch stopped answering';
    const until = reason === 'flood' ? 'until the workspace has been quiet for a while, ' : '';
    this.options.notice(
      `checkpoints: ${why}, so rig stopped watching the workspace; ${until}shell commands are checked by scanning it instead, ` +
        'which finds the same changes but takes longer on a large tree',
    );
  }

  /** @internal the tracker's opening time, handed to the first turn that asks after it opened. */
  takeOpenCost(): number | undefined {
    const cost = this.openCost;
    this.openCost = undefined;
    return cost;
  }

  /** @internal after a turn committed a checkpoint: keep all threads' checkpoints under their limit (once per load). */
  afterCheckpoint(): void {
    if (this.prunedOnce || !this.options.prune) return;
    this.prunedOnce = true;
    try {
      pruneCheckpointStores(this.options.prune.sessionsDir, this.options.prune.maxBytes);
      // A store sits next to its rollout (`<rollout>.checkpoints`), whose lock says who has it open.
      removeStaleTrackers(this.options.prune.sessionsDir, (storeDir) => threadLockHeld(storeDir.replace(/\.checkpoints$/, '.jsonl')));
    } catch (error) {
      this.options.notice(`checkpoints: pruning old checkpoints failed: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const tracker = await this.trackerOpening;
    tracker?.close();
    if (this.options.removeOnClose) fs.rmSync(this.options.dir, { recursive: true, force: true });
  }
}

/** One turn's recording: change sets as they commit, a window around every command. */
export class TurnCheckpoints implements TurnCheckpointing {
  private readonly open = new Set<() => Promise<void>>();
  private costMs = 0;
  private trackerOpenMs: number | undefined;
  private finished = false;

  constructor(
    private readonly owner: ThreadCheckpoints,
    private readonly recorder: TurnRecorder,
    readonly turnId: string,
  ) {}

  recordFiles(changes: FileChange[]): void {
    if (this.finished) return;
    const started = performance.now();
    this.recorder.record(changes);
    this.costMs += performance.now() - started;
  }

  /**
   * The thread's tracker starts opening now. Its first opening reads every file of the workspace
   * (~120-260 ms for 10,000 files): begun when a shell call starts streaming, it overlaps the time
   * the model takes to write the call's arguments instead of delaying the command. The tracker is
   * only a cache of the files as they are, brought up to date by each beginCommand, so opening it
   * early records nothing different.
   */
  prepareForCommands(): void {
    if (this.finished) return;
    void this.owner.tracker();
  }

  async beginCommand(): Promise<CommandCheckpoint> {
    if (this.finished) return { end: async () => {} };
    const tracker = await this.owner.tracker();
    this.trackerOpenMs ??= this.owner.takeOpenCost();
    if (!tracker) return { end: async () => {} };
    let started = performance.now();
    const window = await tracker.beginCommand();
    this.costMs += performance.now() - started;
    let ended: Promise<void> | undefined;
    const end = (): Promise<void> => {
      ended ??= (async () => {
        this.open.delete(end);
        if (this.finished) return;
        started = performance.now();
        try {
          const found = await tracker.endCommand(window);
          if (!this.finished) this.recorder.record(found.changes, found.createdDirs);
          this.owner.noticeWatchFallback(tracker);
        } catch {
          // A closed tracker (the thread closing under a running command) has nothing to add.
        }
        this.costMs += performance.now() - started;
      })();
      return ended;
    };
    this.open.add(end);
    return { end };
  }

  /** Ends the windows still open (background commands) and writes the turn's checkpoint. */
  async finish(): Promise<TurnCheckpointStats> {
    await Promise.all([...this.open].map((end) => end()));
    const started = performance.now();
    this.finished = true;
    let checkpoint: TurnCheckpoint | undefined;
    try {
      checkpoint = this.recorder.finish();
    } finally {
      this.costMs += performance.now() - started;
    }
    if (checkpoint) this.owner.afterCheckpoint();
    const stats: TurnCheckpointStats = {
      turnId: this.turnId,
      costMs: this.costMs,
      ...(this.trackerOpenMs !== undefined ? { trackerOpenMs: this.trackerOpenMs } : {}),
      ...(checkpoint ? { checkpoint } : {}),
    };
    this.owner.lastTurn = stats;
    return stats;
  }
}

/** `turn_12` -> 12 (turn ids are numbered per thread, across resumes). */
export function turnNumber(turnId: string): number {
  const n = /^turn_(\d+)$/.exec(turnId)?.[1];
  return n === undefined ? Number.NaN : Number(n);
}

/** The tracker's roots: the working directory and the writable roots, nested and system folders left out. */
export function trackerRoots(cwd: string, writableRoots: readonly string[], excluded: readonly string[]): string[] {
  const never = new Set(['/', ...excluded.map((p) => path.resolve(p))]);
  const candidates = [cwd, ...writableRoots].map((p) => path.resolve(p)).filter((p) => !never.has(p));
  const unique = [...new Set(candidates)].sort((a, b) => a.length - b.length);
  return unique.filter((root, i) => !unique.slice(0, i).some((outer) => root.startsWith(outer + path.sep)));
}
