// Checkpoints in real turns and `rig undo` through the CLI: a turn that edits two files by tool
// (apply_patch) and one by `sed` in the sandbox is undone exactly, in a folder that is not a git
// repository; a file the user changed afterwards is reported and left alone; checkpoints of a
// resumed thread continue the same store.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockTurn } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
  for (const d of dirs) removeDir(d);
});

/** Every file under `dir` with its content (the whole folder's state). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function workspace(): { ws: string; home: string } {
  const ws = tempDir('plain');
  const home = tempRigHome({ url: mock.url });
  dirs.push(ws, home);
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'a.txt'), 'alpha\nbeta\n');
  writeFileSync(join(ws, 'c.txt'), 'colour\n');
  writeFileSync(join(ws, 'untouched.txt'), 'leave me\n');
  return { ws, home };
}

const PATCH = ['*** Begin Patch', '*** Update File: src/a.txt', ' alpha', '-beta', '+BETA', '*** Add File: src/b.txt', '+new file', '*** End Patch'].join('\n');

function editingTurn(): MockTurn[] {
  return [
    { toolCalls: [{ kind: 'custom', name: 'apply_patch', input: PATCH }] },
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: "sed -i 's/colour/color/' c.txt" } }] },
    { text: 'edited three files' },
  ];
}

const exec = (ws: string, home: string, ...args: string[]) =>
  runRig(['exec', '--json', '--skip-git-repo-check', '--harness', 'native', '-s', 'workspace-write', ...args], { cwd: ws, home });

test('a turn that edits two files by apply_patch and one by sed is undone exactly, outside git', async () => {
  const { ws, home } = workspace();
  const before = snapshot(ws);
  mock.enqueue(...editingTurn());

  const run = await exec(ws, home, 'edit the files');
  expect(run.code).toBe(0);
  expect(snapshot(ws)).toEqual({ ...before, 'src/a.txt': 'alpha\nBETA\n', 'src/b.txt': 'new file\n', 'c.txt': 'color\n' });

  const preview = await runRig(['undo', '--dry-run'], { cwd: ws, home });
  expect(preview.code).toBe(0);
  expect(preview.stdout).toContain('would undo turn_0');
  expect(preview.stdout).toMatch(/delete +src\/b\.txt/);
  expect(preview.stdout).toContain('-color');
  expect(snapshot(ws)['c.txt']).toBe('color\n');

  const undo = await runRig(['undo'], { cwd: ws, home });

  expect(undo.stderr).toBe('');
  expect(undo.code).toBe(0);
  expect(undo.stdout).toContain('restored 3 files');
  expect(snapshot(ws)).toEqual(before);
  expect(readdirSync(join(ws, 'src'))).toEqual(['a.txt']);
  // Nothing is left to undo: the turn is marked undone in its store.
  const again = await runRig(['undo'], { cwd: ws, home });
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/has no turn that changed files left to undo/);
});

test('a file the user changed after the turn is reported and not overwritten; the rest is restored', async () => {
  const { ws, home } = workspace();
  mock.enqueue(...editingTurn());
  expect((await exec(ws, home, 'edit the files')).code).toBe(0);
  writeFileSync(join(ws, 'c.txt'), 'my own edit\n');

  const undo = await runRig(['undo', '--json'], { cwd: ws, home });

  expect(undo.code).toBe(1);
  const report = JSON.parse(undo.stdout) as { skipped: string[]; restored: string[]; files: { path: string; conflict?: string }[] };
  expect(report.skipped).toEqual([join(ws, 'c.txt')]);
  expect(report.restored.sort()).toEqual([join(ws, 'src', 'a.txt'), join(ws, 'src', 'b.txt')]);
  expect(report.files.find((f) => f.path === join(ws, 'c.txt'))?.conflict).toMatch(/changed since turn 1 \(turn_0\): its content differs/);
  expect(readFileSync(join(ws, 'c.txt'), 'utf8')).toBe('my own edit\n');
  expect(readFileSync(join(ws, 'src', 'a.txt'), 'utf8')).toBe('alpha\nbeta\n');
});

test('checkpoints survive resume: two turns in two runs of the same thread are undone together', async () => {
  const { ws, home } = workspace();
  const before = snapshot(ws);
  mock.enqueue(...editingTurn());
  const first = await exec(ws, home, 'edit the files');
  const threadId = jsonLines(first.stdout)[0]!['thread_id'] as string;
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo more >> untouched.txt && rm src/a.txt' } }] }, { text: 'more' });
  const second = await exec(ws, home, 'resume', threadId, 'change more');
  expect(second.code).toBe(0);
  expect(snapshot(ws)['untouched.txt']).toBe('leave me\nmore\n');

  const undo = await runRig(['undo', threadId, '--turns', '2'], { cwd: ws, home });

  expect(undo.code).toBe(0);
  expect(undo.stdout).toContain('undoing turn_1, turn_0');
  expect(snapshot(ws)).toEqual(before);
});
