// TurnCheckpoints.prepareForCommands opens the thread's tracker ahead of the turn's first command
// (core/checkpointing.ts): the command then uses that tracker, and what it wrote is recorded as if
// the tracker had opened for it, including changes made between the opening and the command.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { TRACKER_DIR } from '../../src/checkpoints/prune.js';
import { ThreadCheckpoints } from '../../src/core/checkpointing.js';
import { removeDir, tempDir } from '../support/workspace.js';

const cleanup: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function thread(): { ws: string; store: string; checkpoints: ThreadCheckpoints } {
  const ws = tempDir('prepare-ws');
  const store = tempDir('prepare-store');
  writeFileSync(join(ws, 'kept.txt'), 'before\n');
  const checkpoints = new ThreadCheckpoints({ dir: store, removeOnClose: true, roots: [ws], notice: () => {} });
  cleanup.push(() => removeDir(ws), () => removeDir(store), () => checkpoints.close());
  return { ws, store, checkpoints };
}

test('the tracker opened ahead is the one the command uses, and the turn reports its opening', async () => {
  const { ws, checkpoints } = thread();
  const turn = checkpoints.beginTurn('turn_1');
  turn.prepareForCommands();
  const opened = await checkpoints.tracker();
  expect(opened?.fileCount).toBe(1);
  // Changed after the tracker opened and before the command: the command's old content is this.
  writeFileSync(join(ws, 'kept.txt'), 'edited by hand\n');
  turn.prepareForCommands();
  const command = await turn.beginCommand();
  expect(await checkpoints.tracker()).toBe(opened);
  writeFileSync(join(ws, 'kept.txt'), 'written by the command\n');
  await command.end();
  const stats = await turn.finish();
  expect(stats.trackerOpenMs).toBeGreaterThan(0);
  const change = stats.checkpoint?.files.find((file) => file.path === join(ws, 'kept.txt'));
  expect(change).toBeDefined();
  const plan = checkpoints.planUndo();
  expect(plan.conflicts).toEqual([]);
  checkpoints.applyUndo(plan);
  expect(readFileSync(join(ws, 'kept.txt'), 'utf8')).toBe('edited by hand\n');
});

test('after the turn has finished, preparing opens nothing', async () => {
  const { store, checkpoints } = thread();
  const turn = checkpoints.beginTurn('turn_1');
  await turn.finish();
  turn.prepareForCommands();
  expect(existsSync(join(store, TRACKER_DIR))).toBe(false);
  // The next turn's preparing does open it.
  checkpoints.beginTurn('turn_2').prepareForCommands();
  await checkpoints.tracker();
  expect(existsSync(join(store, TRACKER_DIR))).toBe(true);
});
