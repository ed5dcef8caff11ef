// One thread's checkpoints, in a folder next to its rollout (`rollout-....checkpoints/`): a JSONL
// log of finished turns (each file's state before and after the turn) and one pack per turn with
// the bytes. The log is appended, never rewritten (undo and prune are records too), so the store
// survives a crash and a resume as the rollout does. Old turns' packs are pruned to keep the store
// under its size limit; a pruned turn is listed but can no longer be undone.
import fs from 'node:fs';
import path from 'node:path';
import type { CheckpointFile, FileChange, FileContent, StoredState, TurnCheckpoint } from './model.js';
import { PackWriter } from './packs.js';
import { ownedContent, sameContent } from './content.js';

export const DEFAULT_MAX_STORE_BYTES = 512 * 1024 * 1024;

/** `sessions/.../rollout-X.jsonl` -> `sessions/.../rollout-X.checkpoints`. */
export function checkpointDirForRollout(rolloutPath: string): string {
  return rolloutPath.replace(/\.jsonl$/, '') + '.checkpoints';
}

type LogRecord =
  | ({ type: 'turn' } & Omit<TurnCheckpoint, 'undone' | 'pruned'>)
  | { type: 'undone'; seq: number; at: string; skipped?: string[] }
  | { type: 'redone'; seq: number; at: string }
  | { type: 'pruned'; seq: number; at: string };

export class CheckpointStore {
  private turns: TurnCheckpoint[] = [];

  private constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  /** Opens (or creates on first write) the store in `dir`, reading its log. */
  static open(dir: string, options: { maxBytes?: number } = {}): CheckpointStore {
    const store = new CheckpointStore(dir, options.maxBytes ?? DEFAULT_MAX_STORE_BYTES);
    store.load();
    return store;
  }

  get logFile(): string {
    // JSON lines, but not named *.jsonl: tools that look for rollouts under sessions/ must not take it for one.
    return path.join(this.dir, 'turns.log');
  }

  get packsDir(): string {
    return path.join(this.dir, 'packs');
  }

  private load(): void {
    let text: string;
    try {
      text = fs.readFileSync(this.logFile, 'utf8');
    } catch {
      return;
    }
    const bySeq = new Map<number, TurnCheckpoint>();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        continue; // a partial last line after a crash
      }
      if (record.type === 'turn') {
        const { type: _type, ...turn } = record;
        bySeq.set(turn.seq, turn);
      } else {
        const turn = bySeq.get(record.seq);
        if (!turn) continue;
        if (record.type === 'undone') turn.undone = true;
        else if (record.type === 'redone') delete turn.undone;
        else turn.pruned = true;
      }
    }
    this.turns = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }

  private append(record: LogRecord): void {
    fs.mkdirSync(this.dir, { recursive: true });
    fs.appendFileSync(this.logFile, JSON.stringify(record) + '\n');
  }

  /** Every checkpointed turn, oldest first. */
  list(): TurnCheckpoint[] {
    return this.turns.map((t) => ({ ...t }));
  }

  get bytes(): number {
    return this.turns.filter((t) => !t.pruned).reduce((n, t) => n + t.bytes, 0);
  }

  /** Starts recording one turn; nothing is written until `finish`. */
  beginTurn(turnId: string): TurnRecorder {
    return new TurnRecorder(this, turnId);
  }

  /** @internal Called by TurnRecorder.finish. */
  commitTurn(turnId: string, startedAt: string, changes: FileChange[], createdDirs: string[]): TurnCheckpoint | undefined {
    if (changes.length === 0) return undefined;
    const seq = (this.turns[this.turns.length - 1]?.seq ?? 0) + 1;
    const pack = new PackWriter(this.packsDir, `turn-${seq}.pack`);
    const store = (content: FileContent): StoredState => {
      switch (content.kind) {
        case 'file':
          return { kind: 'file', blob: pack.append(content.data), mode: content.mode };
        case 'symlink':
          return { kind: 'symlink', target: content.target };
        case 'unknown':
          return { kind: 'unknown', reason: content.reason };
        default:
          return { kind: 'absent' };
      }
    };
    let files: CheckpointFile[];
    try {
      files = changes.map((c) => ({ path: c.path, before: store(c.before), after: store(c.after) }));
    } finally {
      pack.close();
    }
    const turn: TurnCheckpoint = {
      seq,
      turnId,
      startedAt,
      finishedAt: new Date().toISOString(),
      files,
      createdDirs,
      bytes: pack.bytes,
    };
    this.append({ type: 'turn', ...turn });
    this.turns.push(turn);
    this.prune();
    return { ...turn };
  }

  /** @internal */
  markUndone(seq: number, skipped: string[]): void {
    const turn = this.turns.find((t) => t.seq === seq);
    if (!turn) return;
    turn.undone = true;
    this.append({ type: 'undone', seq, at: new Date().toISOString(), ...(skipped.length > 0 ? { skipped } : {}) });
  }

  /** Drops the packs of the oldest turns until the store fits its limit (the newest turn stays). */
  prune(maxBytes = this.maxBytes): number[] {
    const pruned: number[] = [];
    for (const turn of this.turns) {
      if (this.bytes <= maxBytes || turn === this.turns[this.turns.length - 1]) break;
      if (this.pruneTurn(turn.seq)) pruned.push(turn.seq);
    }
    return pruned;
  }

  /** Drops one turn's contents (it stays listed, no longer undoable). False when already pruned. */
  pruneTurn(seq: number): boolean {
    const turn = this.turns.find((t) => t.seq === seq);
    if (!turn || turn.pruned) return false;
    fs.rmSync(path.join(this.packsDir, `turn-${turn.seq}.pack`), { force: true });
    turn.pruned = true;
    this.append({ type: 'pruned', seq: turn.seq, at: new Date().toISOString() });
    return true;
  }
}

/**
 * One turn's changes as they happen: edit tools hand over their change sets, the tracker the
 * files each shell command wrote. A path keeps its first `before` and its last `after`; one that
 * ends as it began is dropped.
 */
export class TurnRecorder {
  private readonly changes = new Map<string, FileChange>();
  private readonly dirs: string[] = [];
  private readonly startedAt = new Date().toISOString();
  private finished = false;

  constructor(
    private readonly store: CheckpointStore,
    readonly turnId: string,
  ) {}

  record(changes: readonly FileChange[], createdDirs: readonly string[] = []): void {
    if (this.finished) throw new Error(`turn ${this.turnId} was already checkpointed`);
    // Kept until the turn ends: each state gets bytes of its own (ownedContent).
    for (const change of changes) {
      const prev = this.changes.get(change.path);
      this.changes.set(change.path, { path: change.path, before: prev ? prev.before : ownedContent(change.before), after: ownedContent(change.after) });
    }
    this.dirs.push(...createdDirs);
  }

  /**
   * An edit tool's change set: the text (or bytes) before and after, undefined for "no file".
   * Moves are two edits (the source to undefined, the destination from its old content).
   */
  recordEdit(edit: { path: string; before: string | Buffer | undefined; after: string | Buffer | undefined; mode?: number }): void {
    const content = (v: string | Buffer | undefined): FileContent =>
      v === undefined ? { kind: 'absent' } : { kind: 'file', data: Buffer.isBuffer(v) ? v : Buffer.from(v, 'utf8'), mode: edit.mode ?? 0o644 };
    let mode = edit.mode;
    if (mode === undefined) {
      const st = fs.statSync(edit.path, { throwIfNoEntry: false });
      mode = st ? st.mode & 0o7777 : 0o644;
    }
    this.record([{ path: path.resolve(edit.path), before: content(edit.before), after: content(edit.after) }].map((c) => withMode(c, mode!)));
  }

  /** Writes the turn's checkpoint (nothing when it changed no file). */
  finish(): TurnCheckpoint | undefined {
    this.finished = true;
    const changes = [...this.changes.values()].filter((c) => !sameContent(c.before, c.after));
    return this.store.commitTurn(this.turnId, this.startedAt, changes, this.dirs);
  }
}

function withMode(change: FileChange, mode: number): FileChange {
  const fix = (c: FileContent): FileContent => (c.kind === 'file' ? { ...c, mode } : c);
  return { path: change.path, before: fix(change.before), after: fix(change.after) };
}
