// The tracker's watching half on its own: barriers, and what stopping does to one in flight.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { FolderWatches } from '../../src/checkpoints/tracker-watch.js';
import { removeDir, tempDir } from '../support/workspace.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

function watchedFolder(): { ws: string; watches: FolderWatches; events: string[] } {
  const ws = tempDir('watches-ws');
  const store = tempDir('watches-store');
  const events: string[] = [];
  const watches = new FolderWatches(join(store, 'barrier'), (dir, name) => events.push(name === undefined ? dir : join(dir, name)));
  cleanup.push(() => removeDir(ws), () => removeDir(store), () => watches.stop());
  watches.start([ws]);
  return { ws, watches, events };
}

test('a barrier resolves true after the events written before it were delivered', async () => {
  const { ws, watches, events } = watchedFolder();
  writeFileSync(join(ws, 'one.txt'), '1');
  mkdirSync(join(ws, 'sub'));
  expect(await watches.barrier()).toBe(true);
  expect(events).toContain(join(ws, 'one.txt'));
  expect(events).toContain(join(ws, 'sub'));
  expect(watches.active).toBe(true);
});

test('more barriers at once than idle barrier files: each still resolves', async () => {
  const { watches } = watchedFolder();
  const results = await Promise.all(Array.from({ length: 9 }, () => watches.barrier()));
  expect(results).toEqual(Array(9).fill(true));
});

test('stopping answers a barrier in flight "not seen" at once, not after its 5 s timeout', async () => {
  const { watches } = watchedFolder();
  const pending = [watches.barrier(), watches.barrier(), watches.barrier(), watches.barrier(), watches.barrier()];
  watches.stop();
  const late = new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), 2_000));
  expect(await Promise.race([Promise.all(pending), late])).toEqual([false, false, false, false, false]);
  expect(watches.active).toBe(false);
  expect(await watches.barrier()).toBe(false);
});
