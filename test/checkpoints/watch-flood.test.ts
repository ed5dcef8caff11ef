// A command that renames in a tight loop floods the tracker's inotify watches. libuv drains that
// queue before it serves anything else, so without a limit rig's event loop never got back to the
// model's stream (the write-race safety test hung at 100% CPU on a 2-core machine). The tracker
// must give up watching, stay responsive, and still report what the command wrote, by scanning.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { WorkspaceTracker } from '../../src/checkpoints/index.js';
import { removeDir, tempDir } from '../support/workspace.js';
import { floodUntil } from './rename-flood.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});


test('a rename loop that floods the watches: the tracker falls back to scanning and reports the write', { timeout: 30_000 }, async () => {
  const ws = tempDir('flood-ws');
  const store = tempDir('flood-store');
  cleanup.push(() => removeDir(ws), () => removeDir(store));
  mkdirSync(join(ws, 'sub'));
  writeFileSync(join(ws, 'sub', 'a'), 'a');
  const tracker = await WorkspaceTracker.open({ roots: [ws], dir: store, mode: 'watch' });
  cleanup.push(() => tracker.close());
  expect(tracker.mode).toBe('watch');

  const window = await tracker.beginCommand();
  await floodUntil(ws, () => tracker.mode === 'scan');
  expect(tracker.mode).toBe('scan');

  const { changes } = await tracker.endCommand(window);
  const written = changes.find((c) => c.path === join(ws, 'written.txt'));
  expect(written?.before.kind).toBe('absent');
  expect(written?.after.kind === 'file' && written.after.data.toString()).toBe('by the command');
});

test('after a quiet spell the tracker watches again; another flood stops it again, and the wait doubles', { timeout: 60_000 }, async () => {
  const ws = tempDir('flood-ws');
  const store = tempDir('flood-store');
  cleanup.push(() => removeDir(ws), () => removeDir(store));
  mkdirSync(join(ws, 'sub'));
  writeFileSync(join(ws, 'sub', 'a'), 'a');
  let clock = 0;
  // A low flood mark: on a loaded machine the loop renames slower, rig keeps up, and that is no flood.
  const tracker = await WorkspaceTracker.open({ roots: [ws], dir: store, mode: 'watch', rewatchAfterMs: 300, floodEventsPerSecond: 2_000, now: () => clock });
  cleanup.push(() => tracker.close());
  const flood = async (): Promise<void> => {
    const window = await tracker.beginCommand();
    await floodUntil(ws, () => tracker.mode === 'scan');
    await tracker.endCommand(window);
  };
  const command = async (): Promise<void> => {
    await tracker.endCommand(await tracker.beginCommand());
  };

  await flood();
  expect(tracker.mode).toBe('scan');
  // Too soon: still scanning.
  clock += 299;
  await command();
  expect(tracker.mode).toBe('scan');

  clock += 1;
  const later = await tracker.beginCommand();
  expect(tracker.mode).toBe('watch');
  mkdirSync(join(ws, 'made-later'));
  writeFileSync(join(ws, 'made-later', 'x.txt'), 'x');
  const { changes } = await tracker.endCommand(later);
  expect(changes.map((c) => c.path)).toContain(join(ws, 'made-later', 'x.txt'));

  // The folder made while watching again is watched too: a write in it is seen without a scan.
  const inside = await tracker.beginCommand();
  writeFileSync(join(ws, 'made-later', 'y.txt'), 'y');
  expect((await tracker.endCommand(inside)).changes.map((c) => c.path)).toEqual([join(ws, 'made-later', 'y.txt')]);

  await flood();
  expect(tracker.mode).toBe('scan');
  // The wait is 600 ms now.
  clock += 599;
  await command();
  expect(tracker.mode).toBe('scan');
  clock += 1;
  await command();
  expect(tracker.mode).toBe('watch');
});
