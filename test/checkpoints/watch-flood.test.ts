// A command that renames in a tight loop floods the tracker's inotify watches. libuv drains that
// queue before it serves anything else, so without a limit rig's event loop never got back to the
// model's stream (the write-race safety test hung at 100% CPU on a 2-core machine). The tracker
// must give up watching, stay responsive, and still report what the command wrote, by scanning.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { WorkspaceTracker } from '../../src/checkpoints/index.js';
import { removeDir, tempDir } from '../support/workspace.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

const RENAME_LOOP = `
const fs = require('node:fs');
fs.writeFileSync('written.txt', 'by the command');
const end = Date.now() + 20000;
while (Date.now() < end) { fs.renameSync('sub/a', 'sub/b'); fs.renameSync('sub/b', 'sub/a'); }
`;

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
  const child = spawn(process.execPath, ['-e', RENAME_LOOP], { cwd: ws, stdio: 'ignore' });
  cleanup.push(() => child.kill('SIGKILL'));
  // Each poll is a timer: it runs only while the flood leaves the event loop free.
  const started = Date.now();
  while (tracker.mode === 'watch' && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 20));
  expect(tracker.mode).toBe('scan');
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));

  const { changes } = await tracker.endCommand(window);
  const written = changes.find((c) => c.path === join(ws, 'written.txt'));
  expect(written?.before.kind).toBe('absent');
  expect(written?.after.kind === 'file' && written.after.data.toString()).toBe('by the command');
});
