// When a command floods the workspace watch, the tracker falls back to scanning every later
// command (slower on a large tree). The user is told once, in the thread, and why; a thread whose
// watch never stopped says nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { ThreadCheckpoints } from '../../src/core/checkpointing.js';
import { removeDir, tempDir } from '../support/workspace.js';
import { floodUntil } from './rename-flood.js';

const cleanup: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function thread(): { ws: string; checkpoints: ThreadCheckpoints; notices: string[] } {
  const ws = tempDir('fallback-ws');
  const store = tempDir('fallback-store');
  mkdirSync(join(ws, 'sub'));
  writeFileSync(join(ws, 'sub', 'a'), 'a');
  const notices: string[] = [];
  const checkpoints = new ThreadCheckpoints({ dir: store, removeOnClose: true, roots: [ws], notice: (text) => notices.push(text) });
  cleanup.push(() => removeDir(ws), () => removeDir(store), () => checkpoints.close());
  return { ws, checkpoints, notices };
}

test('a flood of file events: one notice naming it, and none for the commands after', { timeout: 30_000 }, async () => {
  const { ws, checkpoints, notices } = thread();
  const turn = checkpoints.beginTurn('turn_1');
  const flooding = await turn.beginCommand();
  const tracker = (await checkpoints.tracker())!;
  expect(tracker.mode).toBe('watch');
  await floodUntil(ws, () => tracker.mode === 'scan');
  await flooding.end();
  expect(notices).toHaveLength(1);
  expect(notices[0]).toMatch(/^checkpoints: a command changed files faster than rig can follow .*scanning/);

  const next = await turn.beginCommand();
  writeFileSync(join(ws, 'later.txt'), 'later');
  await next.end();
  const stats = await turn.finish();
  expect(notices).toHaveLength(1);
  // Scanning still finds what the later command wrote.
  expect(stats.checkpoint?.files.map((f) => f.path)).toContain(join(ws, 'later.txt'));
});

test('commands that leave the watch running: no notice', async () => {
  const { ws, checkpoints, notices } = thread();
  const turn = checkpoints.beginTurn('turn_1');
  for (let i = 0; i < 3; i++) {
    const command = await turn.beginCommand();
    writeFileSync(join(ws, `file-${i}.txt`), String(i));
    await command.end();
  }
  await turn.finish();
  expect((await checkpoints.tracker())!.mode).toBe('watch');
  expect(notices).toEqual([]);
});
