// Undo and rewind: put back every file a set of turns changed, exactly as it was before the oldest
// of them, and nothing else. Each file is first checked against what the newest of those turns
// left: a file changed since (by the user, another program) is a conflict, shown with a diff and
// never overwritten unless the caller names it in `force`.
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { PlannedFile, RestorePlan, RestoreResult, StoredState, TurnCheckpoint } from './model.js';
import { readBlob, sha256 } from './packs.js';
import type { CheckpointStore } from './store.js';

const MAX_DIFF_BYTES = 256 * 1024;

export interface UndoSelection {
  /** Undo the newest N turns not undone yet (default 1). */
  turns?: number;
  /** Rewind: undo this turn and every later one (by seq, see CheckpointStore.list). */
  fromSeq?: number;
}

interface Span {
  path: string;
  target: StoredState;
  expected: StoredState;
  newest: TurnCheckpoint;
}

type DiskState = { kind: 'absent' } | { kind: 'file'; data: Buffer; mode: number } | { kind: 'symlink'; target: string } | { kind: 'other' };

function readDisk(file: string): DiskState {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return { kind: 'absent' };
  if (st.isSymbolicLink()) return { kind: 'symlink', target: fs.readlinkSync(file) };
  if (st.isFile()) return { kind: 'file', data: fs.readFileSync(file), mode: st.mode & 0o7777 };
  return { kind: 'other' };
}

function matches(disk: DiskState, state: StoredState): boolean {
  switch (state.kind) {
    case 'absent':
      return disk.kind === 'absent';
    case 'file':
      return disk.kind === 'file' && disk.data.length === state.blob.length && sha256(disk.data) === state.blob.sha256;
    case 'symlink':
      return disk.kind === 'symlink' && disk.target === state.target;
    default:
      return false;
  }
}

function describeDisk(disk: DiskState): string {
  switch (disk.kind) {
    case 'absent':
      return 'it was deleted';
    case 'file':
      return 'its content differs';
    case 'symlink':
      return `it is now a symlink to ${disk.target}`;
    default:
      return 'it is no longer a regular file';
  }
}

function selectTurns(store: CheckpointStore, selection: UndoSelection): TurnCheckpoint[] {
  const live = store.list().filter((t) => !t.undone).reverse();
  const chosen =
    selection.fromSeq !== undefined ? live.filter((t) => t.seq >= selection.fromSeq!) : live.slice(0, Math.max(1, selection.turns ?? 1));
  if (selection.fromSeq !== undefined && !store.list().some((t) => t.seq === selection.fromSeq)) {
    throw new Error(`no checkpointed turn ${selection.fromSeq} in this thread (see the list of turns)`);
  }
  const pruned = chosen.find((t) => t.pruned);
  if (pruned) {
    throw new Error(
      `turn ${pruned.seq} (${pruned.turnId}) cannot be undone: its checkpoint was pruned to keep the thread's checkpoints ` +
        `under ${Math.round(store.maxBytes / 1024 / 1024)} MiB`,
    );
  }
  return chosen;
}

function textOf(data: Buffer): string | undefined {
  if (data.length > MAX_DIFF_BYTES || data.includes(0)) return undefined;
  return data.toString('utf8');
}

/** What undoing `selection` would change, file by file, with conflicts; nothing is written. */
export function planUndo(store: CheckpointStore, selection: UndoSelection = {}): RestorePlan {
  const turns = selectTurns(store, selection);
  const spans = new Map<string, Span>();
  // Newest first: the first turn seen for a path is its newest; later ones move the target back.
  for (const turn of turns) {
    for (const file of turn.files) {
      const span = spans.get(file.path);
      if (span) span.target = file.before;
      else spans.set(file.path, { path: file.path, target: file.before, expected: file.after, newest: turn });
    }
  }
  const files: PlannedFile[] = [];
  for (const span of [...spans.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const disk = readDisk(span.path);
    const planned: PlannedFile = { path: span.path, action: 'restore' };
    if (span.target.kind === 'unknown') {
      planned.unrestorable = `its content before the turn was not kept (${span.target.reason})`;
    } else if (matches(disk, span.target)) {
      planned.action = 'unchanged';
    } else {
      planned.action = span.target.kind === 'absent' ? 'delete' : disk.kind === 'absent' ? 'recreate' : 'restore';
      if (!matches(disk, span.expected)) {
        planned.conflict = `changed since turn ${span.newest.seq} (${span.newest.turnId}): ${describeDisk(disk)}`;
      }
      const now = disk.kind === 'file' ? textOf(disk.data) : disk.kind === 'absent' ? '' : undefined;
      const then = span.target.kind === 'file' ? textOf(readBlob(store.packsDir, span.target.blob)) : span.target.kind === 'absent' ? '' : undefined;
      if (now !== undefined && then !== undefined) planned.diff = createTwoFilesPatch(span.path, span.path, now, then, 'now', 'restored');
    }
    files.push(planned);
  }
  return {
    turns: turns.map((t) => ({ seq: t.seq, turnId: t.turnId })),
    files,
    conflicts: files.filter((f) => f.conflict !== undefined),
  };
}

function writeAtomic(file: string, data: Buffer, mode: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.rig-restore-${process.pid}`);
  fs.writeFileSync(tmp, data, { mode });
  fs.chmodSync(tmp, mode);
  fs.renameSync(tmp, file);
}

/**
 * Carries out a plan: files are checked again right before each write (a file changed after the
 * plan was made is skipped as a conflict too), written atomically, and the turns marked undone.
 */
export function applyRestore(store: CheckpointStore, plan: RestorePlan, options: { force?: readonly string[] } = {}): RestoreResult {
  const force = new Set((options.force ?? []).map((p) => path.resolve(p)));
  const turns = store.list().filter((t) => plan.turns.some((p) => p.seq === t.seq));
  if (turns.some((t) => t.undone)) throw new Error('this restore plan is stale: one of its turns was undone since; plan again');
  const result: RestoreResult = { restored: [], skipped: [], unrestorable: [] };
  const fresh = planUndo(store, { fromSeq: Math.min(...plan.turns.map((t) => t.seq)) });
  const targetOf = new Map<string, StoredState>();
  for (const turn of [...turns].sort((a, b) => b.seq - a.seq)) for (const f of turn.files) targetOf.set(f.path, f.before);
  for (const file of fresh.files) {
    if (file.action === 'unchanged') continue;
    if (file.unrestorable) {
      result.unrestorable.push(file.path);
      continue;
    }
    if (file.conflict && !force.has(file.path)) {
      result.skipped.push(file.path);
      continue;
    }
    const target = targetOf.get(file.path)!;
    if (target.kind === 'absent') {
      fs.rmSync(file.path, { force: true });
    } else if (target.kind === 'symlink') {
      fs.rmSync(file.path, { force: true });
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      fs.symlinkSync(target.target, file.path);
    } else if (target.kind === 'file') {
      writeAtomic(file.path, readBlob(store.packsDir, target.blob), target.mode);
    }
    result.restored.push(file.path);
  }
  // Folders the turns created go too when nothing is left in them (deepest first).
  const dirs = turns.flatMap((t) => t.createdDirs).sort((a, b) => b.length - a.length);
  for (const dir of dirs) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // not empty, or already gone
    }
  }
  for (const turn of turns) {
    const mine = new Set(turn.files.map((f) => f.path));
    store.markUndone(turn.seq, result.skipped.filter((p) => mine.has(p)));
  }
  return result;
}
