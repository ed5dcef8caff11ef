// Checkpoints of real turns in a real (non-git) folder: edits recorded from change sets, shell
// writes found by the tracker around real child processes, undo that restores exactly those
// files, conflicts that are reported and not overwritten, reopening (resume), rewind and pruning.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { applyRestore, CheckpointStore, planUndo, WorkspaceTracker, type FileChange } from '../../src/checkpoints/index.js';
import { removeDir, tempDir } from '../support/workspace.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0).reverse()) fn();
});

function workspace(files: Record<string, string>): { ws: string; store: string } {
  const ws = tempDir('ckpt-ws');
  const home = tempDir('ckpt-home');
  cleanup.push(() => removeDir(ws), () => removeDir(home));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(ws, name, '..'), { recursive: true });
    writeFileSync(join(ws, name), text);
  }
  return { ws, store: join(home, 'sessions', '2026', '12', '01', 'rollout-x.checkpoints') };
}

async function tracker(ws: string, dir: string, mode: 'watch' | 'scan'): Promise<WorkspaceTracker> {
  const t = await WorkspaceTracker.open({ roots: [ws], dir, mode });
  cleanup.push(() => t.close());
  return t;
}

function sh(cwd: string, script: string): void {
  execFileSync('/bin/sh', ['-c', script], { cwd, stdio: 'ignore' });
}

const summary = (changes: FileChange[]) =>
  changes
    .map((c) => `${c.path.split('/').slice(-2).join('/')}: ${c.before.kind}->${c.after.kind}`)
    .sort();

describe.each(['watch', 'scan'] as const)('the shell-write tracker (%s)', (mode) => {
  test('reports exactly the files a command wrote, created and deleted', async () => {
    const { ws, store } = workspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'sub/c.txt': 'gamma\n', 'keep.txt': 'same\n', 'node_modules/x/i.js': '1' });
    const t = await tracker(ws, store, mode);
    expect(t.mode).toBe(mode);
    const w = await t.beginCommand();
    sh(ws, "sed -i 's/alpha/ALPHA/' a.txt && rm b.txt && printf new > sub/d.txt && mkdir -p made/deep && printf x > made/deep/e.txt && touch keep.txt && printf 2 > node_modules/x/i.js");
    const { changes, createdDirs } = await t.endCommand(w);
    expect(summary(changes)).toEqual(['deep/e.txt: absent->file', 'ws/a.txt: file->file'.replace('ws', ws.split('/').pop()!), `${ws.split('/').pop()}/b.txt: file->absent`, 'sub/d.txt: absent->file'].sort());
    const a = changes.find((c) => c.path.endsWith('a.txt'))!;
    expect(a.before.kind === 'file' && a.before.data.toString()).toBe('alpha\n');
    expect(a.after.kind === 'file' && a.after.data.toString()).toBe('ALPHA\n');
    expect(createdDirs.sort()).toEqual([join(ws, 'made'), join(ws, 'made', 'deep')]);
  });

  test('a change made between commands is not the next command\'s', async () => {
    const { ws, store } = workspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const t = await tracker(ws, store, mode);
    writeFileSync(join(ws, 'a.txt'), 'edited by the user\n');
    const w = await t.beginCommand();
    sh(ws, 'printf three > b.txt');
    const { changes } = await t.endCommand(w);
    expect(changes.map((c) => c.path)).toEqual([join(ws, 'b.txt')]);
    // ...and the next command that writes a.txt sees the user's text as its "before".
    const w2 = await t.beginCommand();
    sh(ws, 'printf four > a.txt');
    const second = (await t.endCommand(w2)).changes;
    expect(second).toHaveLength(1);
    expect(second[0]!.before.kind === 'file' && second[0]!.before.data.toString()).toBe('edited by the user\n');
  });
});

describe('the watching tracker\'s barriers', () => {
  test('many commands in a row each report only their own write, and the watch holds', async () => {
    const { ws, store } = workspace({ 'seed.txt': 'seed\n' });
    const t = await tracker(ws, store, 'watch');
    for (let i = 0; i < 12; i++) {
      const w = await t.beginCommand();
      sh(ws, `printf ${i} > f${i}.txt`);
      const { changes } = await t.endCommand(w);
      expect(changes.map((c) => c.path)).toEqual([join(ws, `f${i}.txt`)]);
    }
    expect(t.mode).toBe('watch');
  });

  test('more commands at once than barrier files: none waits for a lost event, none falls back to scanning', async () => {
    const { ws, store } = workspace({ 'seed.txt': 'seed\n' });
    const t = await tracker(ws, store, 'watch');
    const windows = await Promise.all(Array.from({ length: 7 }, () => t.beginCommand()));
    sh(ws, 'for i in 0 1 2 3 4 5 6; do printf $i > g$i.txt; done');
    const results = await Promise.all(windows.map((w) => t.endCommand(w)));
    // Every write is reported once, by one of the windows that were open while it happened.
    expect(results.flatMap(({ changes }) => changes.map((c) => c.path)).sort()).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => join(ws, `g${i}.txt`)));
    // A lost barrier event ends in its 5 s timeout, which turns watching off.
    expect(t.mode).toBe('watch');
  });
});

async function turnWithToolsAndSed(ws: string, dir: string) {
  const store = CheckpointStore.open(dir);
  const t = await tracker(ws, join(dir, 'tracker'), 'watch');
  const turn = store.beginTurn('turn-a');
  // Two files by an edit tool: the change set's before/after, then the write itself.
  for (const [name, after] of [['one.txt', 'one edited\n'], ['new.txt', 'created\n']] as const) {
    const file = join(ws, name);
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    writeFileSync(file, after);
    turn.recordEdit({ path: file, before, after });
  }
  // One by sed, through the tracker.
  const w = await t.beginCommand();
  sh(ws, "sed -i 's/three/THREE/' three.txt");
  const shell = await t.endCommand(w);
  turn.record(shell.changes, shell.createdDirs);
  const checkpoint = turn.finish()!;
  return { store, checkpoint };
}

describe('undo', () => {
  test('a turn that edited two files by tool and one by sed is undone exactly, outside git', async () => {
    const { ws, store: dir } = workspace({ 'one.txt': 'one\n', 'three.txt': 'three\n', 'other.txt': 'untouched\n' });
    expect(existsSync(join(ws, '.git'))).toBe(false);
    const { store, checkpoint } = await turnWithToolsAndSed(ws, dir);
    expect(checkpoint.files.map((f) => [f.path, f.before.kind, f.after.kind])).toEqual([
      [join(ws, 'one.txt'), 'file', 'file'],
      [join(ws, 'new.txt'), 'absent', 'file'],
      [join(ws, 'three.txt'), 'file', 'file'],
    ]);
    // A file the turn did not change, changed by the user afterwards, is never touched.
    writeFileSync(join(ws, 'other.txt'), 'the user wrote this\n');
    const plan = planUndo(store, { turns: 1 });
    expect(plan.files.map((f) => [f.path.split('/').pop(), f.action])).toEqual([
      ['new.txt', 'delete'],
      ['one.txt', 'restore'],
      ['three.txt', 'restore'],
    ]);
    expect(plan.conflicts).toEqual([]);
    expect(plan.files.find((f) => f.path.endsWith('three.txt'))!.diff).toMatch(/-THREE\n\+three/);
    const result = applyRestore(store, plan);
    expect(result.skipped).toEqual([]);
    expect(readFileSync(join(ws, 'one.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(ws, 'three.txt'), 'utf8')).toBe('three\n');
    expect(existsSync(join(ws, 'new.txt'))).toBe(false);
    expect(readFileSync(join(ws, 'other.txt'), 'utf8')).toBe('the user wrote this\n');
    expect(store.list()[0]!.undone).toBe(true);
    expect(() => applyRestore(store, plan)).toThrow(/stale/);
  });

  test('a file the user changed after the turn is reported and not overwritten (unless forced)', async () => {
    const { ws, store: dir } = workspace({ 'one.txt': 'one\n', 'three.txt': 'three\n' });
    const { store } = await turnWithToolsAndSed(ws, dir);
    writeFileSync(join(ws, 'three.txt'), 'THREE and more from the user\n');
    const plan = planUndo(store);
    expect(plan.conflicts.map((c) => [c.path, c.conflict])).toEqual([[join(ws, 'three.txt'), 'changed since turn 1 (turn-a): its content differs']]);
    expect(plan.conflicts[0]!.diff).toMatch(/-THREE and more from the user\n\+three/);
    const result = applyRestore(store, plan);
    expect(result).toEqual({ restored: [join(ws, 'new.txt'), join(ws, 'one.txt')], skipped: [join(ws, 'three.txt')], unrestorable: [] });
    expect(readFileSync(join(ws, 'three.txt'), 'utf8')).toBe('THREE and more from the user\n');

    const { ws: ws2, store: dir2 } = workspace({ 'one.txt': 'one\n', 'three.txt': 'three\n' });
    const again = await turnWithToolsAndSed(ws2, dir2);
    rmSync(join(ws2, 'three.txt'));
    const forced = applyRestore(again.store, planUndo(again.store), { force: [join(ws2, 'three.txt')] });
    expect(forced.skipped).toEqual([]);
    expect(readFileSync(join(ws2, 'three.txt'), 'utf8')).toBe('three\n');
  });

  test('checkpoints survive reopening the store (resume)', async () => {
    const { ws, store: dir } = workspace({ 'one.txt': 'one\n', 'three.txt': 'three\n' });
    await turnWithToolsAndSed(ws, dir);
    const reopened = CheckpointStore.open(dir);
    expect(reopened.list().map((t) => [t.seq, t.turnId, t.files.length])).toEqual([[1, 'turn-a', 3]]);
    applyRestore(reopened, planUndo(reopened));
    expect(readFileSync(join(ws, 'three.txt'), 'utf8')).toBe('three\n');
    expect(CheckpointStore.open(dir).list()[0]!.undone).toBe(true);
  });

  test('rewind undoes a turn and every later one; created folders and symlinks come and go', async () => {
    const { ws, store: dir } = workspace({ 'f.txt': 'v0\n' });
    const store = CheckpointStore.open(dir);
    const t = await tracker(ws, join(dir, 'tracker'), 'watch');
    for (const [i, script] of ['printf v1 > f.txt', 'mkdir -p gen/x && printf g > gen/x/g.txt && ln -s f.txt link', 'printf v3 > f.txt && rm link'].entries()) {
      const turn = store.beginTurn(`turn-${i + 1}`);
      const w = await t.beginCommand();
      sh(ws, script);
      const c = await t.endCommand(w);
      turn.record(c.changes, c.createdDirs);
      turn.finish();
    }
    expect(store.list().map((x) => x.seq)).toEqual([1, 2, 3]);
    const plan = planUndo(store, { fromSeq: 2 });
    expect(plan.turns.map((x) => x.seq)).toEqual([3, 2]);
    applyRestore(store, plan);
    expect(readFileSync(join(ws, 'f.txt'), 'utf8')).toBe('v1');
    expect(existsSync(join(ws, 'gen'))).toBe(false);
    expect(existsSync(join(ws, 'link'))).toBe(false);
    // Then undo the remaining turn.
    applyRestore(store, planUndo(store));
    expect(readFileSync(join(ws, 'f.txt'), 'utf8')).toBe('v0\n');
    // Symlinks are restored as symlinks.
    const { ws: ws2, store: dir2 } = workspace({ 'f.txt': 'x' });
    symlinkSync('f.txt', join(ws2, 'l'));
    const s2 = CheckpointStore.open(dir2);
    const t2 = await tracker(ws2, join(dir2, 'tracker'), 'watch');
    const turn = s2.beginTurn('t');
    const w = await t2.beginCommand();
    sh(ws2, 'rm l');
    const c = await t2.endCommand(w);
    turn.record(c.changes);
    turn.finish();
    applyRestore(s2, planUndo(s2));
    expect(readlinkSync(join(ws2, 'l'))).toBe('f.txt');
  });

  test('the store keeps under its size by pruning old turns, which then cannot be undone', () => {
    const { ws, store: dir } = workspace({});
    const store = CheckpointStore.open(dir, { maxBytes: 2500 });
    for (let i = 1; i <= 4; i++) {
      const turn = store.beginTurn(`t${i}`);
      turn.recordEdit({ path: join(ws, `f${i}`), before: undefined, after: 'x'.repeat(1000) });
      turn.finish();
    }
    const turns = store.list();
    expect(turns.map((t) => Boolean(t.pruned))).toEqual([true, true, false, false]);
    expect(store.bytes).toBeLessThanOrEqual(2500);
    expect(existsSync(join(dir, 'packs', 'turn-1.pack'))).toBe(false);
    expect(() => planUndo(store, { turns: 3 })).toThrow(/turn 2 \(t2\) cannot be undone: its checkpoint was pruned/);
    expect(planUndo(store, { turns: 2 }).turns.map((t) => t.seq)).toEqual([4, 3]);
  });

  test('a file too large to keep is reported as not restorable; the rest of the turn is undone', async () => {
    const { ws, store: dir } = workspace({ 'big.bin': 'b'.repeat(2048), 'small.txt': 's' });
    const store = CheckpointStore.open(dir);
    const t = await WorkspaceTracker.open({ roots: [ws], dir: join(dir, 'tracker'), maxFileBytes: 1024 });
    cleanup.push(() => t.close());
    const turn = store.beginTurn('t');
    const w = await t.beginCommand();
    sh(ws, 'printf changed > big.bin && printf S > small.txt');
    const c = await t.endCommand(w);
    turn.record(c.changes);
    turn.finish();
    const plan = planUndo(store);
    expect(plan.files.find((f) => f.path.endsWith('big.bin'))!.unrestorable).toMatch(/not kept \(larger than 1024 bytes/);
    const result = applyRestore(store, plan);
    expect(result).toMatchObject({ restored: [join(ws, 'small.txt')], unrestorable: [join(ws, 'big.bin')] });
    expect(readFileSync(join(ws, 'small.txt'), 'utf8')).toBe('s');
  });
});

test('the baseline pack is compacted once mostly stale, and still gives the right old content', async () => {
  const { ws, store } = workspace({ 'log.txt': 'v0', 'other.txt': 'o'.repeat(100) });
  const t = await WorkspaceTracker.open({ roots: [ws], dir: store, mode: 'watch', compactMinBytes: 1000 });
  cleanup.push(() => t.close());
  let last: FileChange[] = [];
  for (let i = 1; i <= 30; i++) {
    writeFileSync(join(ws, 'log.txt'), `v${i}`.repeat(20)); // between commands: baseline refresh
    const w = await t.beginCommand();
    sh(ws, `printf 'cmd${i}' > log.txt`);
    last = (await t.endCommand(w)).changes;
  }
  expect(t.baselineBytes).toBeLessThan(1000 + 200);
  expect(last).toHaveLength(1);
  expect(last[0]!.before.kind === 'file' && last[0]!.before.data.toString()).toBe('v30'.repeat(20));
  const w = await t.beginCommand();
  sh(ws, 'printf changed > other.txt');
  const other = (await t.endCommand(w)).changes[0]!;
  expect(other.before.kind === 'file' && other.before.data.toString()).toBe('o'.repeat(100));
});

test('overlapping commands: a write of the first is not lost when a second one starts', async () => {
  const { ws, store } = workspace({ 'a.txt': 'a0', 'b.txt': 'b0' });
  const t = await tracker(ws, store, 'watch');
  const first = await t.beginCommand();
  sh(ws, 'printf a1 > a.txt');
  const second = await t.beginCommand();
  sh(ws, 'printf b1 > b.txt');
  const fromSecond = await t.endCommand(second);
  const fromFirst = await t.endCommand(first);
  expect([...fromFirst.changes, ...fromSecond.changes].map((c) => c.path).sort()).toEqual([join(ws, 'a.txt'), join(ws, 'b.txt')]);
  const a = [...fromFirst.changes, ...fromSecond.changes].find((c) => c.path.endsWith('a.txt'))!;
  expect(a.before.kind === 'file' && a.before.data.toString()).toBe('a0');
});

test('all threads together are kept under a size: the oldest turns go first, each thread keeps its last', async () => {
  const { pruneCheckpointStores } = await import('../../src/checkpoints/index.js');
  const sessions = tempDir('ckpt-sessions');
  cleanup.push(() => removeDir(sessions));
  const dirA = join(sessions, '2026', '12', '01', 'rollout-a.checkpoints');
  const dirB = join(sessions, '2026', '12', '02', 'rollout-b.checkpoints');
  const a = CheckpointStore.open(dirA);
  const b = CheckpointStore.open(dirB);
  const turn = (store: CheckpointStore, id: string) => {
    // Turns are ordered across threads by their finish time (milliseconds): let the clock tick.
    const now = Date.now();
    while (Date.now() === now) {
      /* at most a millisecond */
    }
    const t = store.beginTurn(id);
    t.recordEdit({ path: join(sessions, id), before: undefined, after: 'x'.repeat(1000), mode: 0o644 });
    return t.finish();
  };
  turn(a, 'a1');
  turn(b, 'b1');
  turn(a, 'a2');
  turn(b, 'b2');
  turn(a, 'a3');
  const report = pruneCheckpointStores(sessions, 2500);
  expect(report).toMatchObject({ stores: 2, bytesBefore: 5000, bytesAfter: 2000 });
  expect(report.pruned).toEqual([
    [dirA, 1],
    [dirB, 1],
    [dirA, 2],
  ]);
  expect(CheckpointStore.open(dirA).list().map((t) => Boolean(t.pruned))).toEqual([true, true, false]);
  expect(CheckpointStore.open(dirB).list().map((t) => Boolean(t.pruned))).toEqual([true, false]);
});
