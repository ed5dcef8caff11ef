// The tracker's opening scan (one read of every workspace file) gives the event loop turns while
// it goes on, and files changed meanwhile (an edit tool of the same step, the user's editor) are
// what the next command's checkpoint starts from: each folder is watched before its files are read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { WorkspaceTracker } from '../../src/checkpoints/tracker.js';
import { removeDir, tempDir } from '../support/workspace.js';

const cleanup: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** `dirs` folders (and the root) of `perDir` files each. */
function workspace(dirs: number, perDir: number): { ws: string; store: string; files: string[] } {
  const ws = tempDir('slices-ws');
  const store = tempDir('slices-store');
  cleanup.push(() => removeDir(ws), () => removeDir(store));
  const files: string[] = [];
  for (const folder of ['', ...Array.from({ length: dirs }, (_, d) => `dir${d}`)]) {
    mkdirSync(join(ws, folder), { recursive: true });
    for (let f = 0; f < perDir; f++) {
      const file = join(ws, folder, `file${f}.txt`);
      writeFileSync(file, `original ${folder}/${f}\n`);
      files.push(file);
    }
  }
  return { ws, store, files };
}

async function open(ws: string, store: string, mode: 'watch' | 'scan', scanSliceMs?: number): Promise<WorkspaceTracker> {
  const tracker = await WorkspaceTracker.open({ roots: [ws], dir: join(store, 'tracker'), mode, ...(scanSliceMs !== undefined ? { scanSliceMs } : {}) });
  cleanup.push(() => tracker.close());
  return tracker;
}

test('the opening scan lets the event loop run while it reads the files', async () => {
  const { ws, store, files } = workspace(20, 50);
  let turns = 0;
  let opened = false;
  const turn = (): void => {
    turns++;
    if (!opened) setImmediate(turn);
  };
  setImmediate(turn);
  const tracker = await open(ws, store, 'watch', 0);
  opened = true;
  expect(tracker.fileCount).toBe(files.length);
  // A turn after every file read (slices of 0 ms): the loop ran all along.
  expect(turns).toBeGreaterThan(files.length / 2);
});

describe.each(['watch', 'scan'] as const)('files changed while the tracker opens (%s)', (mode) => {
  test('are what the next command changes from', async () => {
    const { ws, store, files } = workspace(5, 20);
    // Once the scan has read its first file, everything is rewritten: some files were read
    // before, some after.
    setImmediate(() => {
      for (const file of files) writeFileSync(file, `edited while the tracker opened: ${file}\n`);
    });
    const tracker = await open(ws, store, mode, 0);
    expect(tracker.mode).toBe(mode);
    const window = await tracker.beginCommand();
    for (const file of files) writeFileSync(file, 'written by the command\n');
    const { changes } = await tracker.endCommand(window);
    expect(changes).toHaveLength(files.length);
    for (const change of changes) {
      expect(change.before.kind === 'file' && change.before.data.toString()).toBe(`edited while the tracker opened: ${change.path}\n`);
      expect(change.after.kind === 'file' && change.after.data.toString()).toBe('written by the command\n');
    }
  });
});
