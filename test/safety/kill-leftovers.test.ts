// A SIGKILL during a sandboxed command must not leave the project bricked: no placeholder files
// for the bubblewrap mount points (`git status` clean, nothing but directories at .rig/.codex), and
// rig starts cleanly afterwards, also when an older version's 0-byte read-only placeholder is there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { processesWith, startRig, waitUntil } from '../frontends/exec/helpers.js';

let mock: MockProvider;
let repo = '';
let home = '';

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

function gitStatus(): string {
  return execFileSync('git', ['status', '--porcelain', '--ignored'], { cwd: repo, encoding: 'utf8' });
}

/** .rig and .codex are absent or (empty) directories: never files or devices. */
function expectNoPlaceholderFiles(): void {
  for (const name of ['.rig', '.codex']) {
    const entry = path.join(repo, name);
    if (!fs.existsSync(entry)) continue;
    expect(fs.lstatSync(entry).isDirectory(), `${name} is not a directory`).toBe(true);
    expect(fs.readdirSync(entry)).toEqual([]);
  }
}

describe('SIGKILL during a sandboxed command', () => {
  it('leaves no mount-point files, and the next rig exec starts cleanly', { timeout: 60_000 }, async () => {
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo command-running; sleep 30', yield_time_ms: 60_000 } }] });
    const rig = startRig(['exec', '--json', '-s', 'workspace-write', 'run it'], { cwd: repo, home });
    await rig.waitForStdout('"type":"item.started"');
    // The shell runs inside bwrap once the mounts are in place.
    await waitUntil(() => processesWith('command-running; sleep 30').length > 0, 15_000, 'the sandboxed command to start');
    rig.child.kill('SIGKILL');
    await rig.exited;
    expect(gitStatus()).toBe('');
    expectNoPlaceholderFiles();

    mock.enqueue({ text: 'fine' });
    const next = await runRig(['exec', '--json', 'again'], { cwd: repo, home });
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
  });

  it('a 0-byte read-only .rig left by an older rig does not stop the next start', { timeout: 60_000 }, async () => {
    fs.rmSync(path.join(repo, '.rig'), { recursive: true, force: true });
    fs.writeFileSync(path.join(repo, '.rig'), '', { mode: 0o444 });
    fs.rmSync(path.join(repo, '.codex'), { recursive: true, force: true });
    fs.writeFileSync(path.join(repo, '.codex'), '', { mode: 0o444 });
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo ok' } }] }, { text: 'fine' });
    const run = await runRig(['exec', '-s', 'workspace-write', 'start'], { cwd: repo, home });
    expect(run.stderr).not.toMatch(/ENOTDIR/);
    expect(run.code, run.stderr).toBe(0);
    expectNoPlaceholderFiles();
    expect(gitStatus()).toBe('');
  });
});
