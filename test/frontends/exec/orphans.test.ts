// Nothing a session started outlives it, even without a sandbox (no bwrap --die-with-parent there):
// a SIGKILLed rig leaves no commands behind (the watchdog takes them down), and on a normal exit
// neither do `setsid` children nor a tmux server the command started (found by RIG_PROCESS_SCOPE).
// The commands are harmless (sleep, a private tmux socket), so danger-full-access is fine here.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { membersOf, processGroupsWith, processesWith, startRig, waitUntil } from './helpers.js';

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let mock: MockProvider;
let repo: string;
let home: string;
let sockets: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({ url: mock.url });
  sockets = tempDir('tmux-sockets');
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
  removeDir(sockets);
});

beforeEach(() => {
  expect(mock.remaining()).toBe(0);
});

const FULL_ACCESS = ['--sandbox', 'danger-full-access', '--harness', 'native'];

describe.skipIf(process.platform !== 'linux')('orphans', () => {
  test('SIGKILL of rig takes down its running command, its background jobs and its setsid children', async () => {
    const marker = `rig-orphan-kill-${process.pid}-${Date.now()}`;
    // A pipeline member in the background, a setsid child that leaves the group, and the waited-on sleep.
    const cmd = `(sleep 30; echo ${marker}-bg) & setsid sh -c 'sleep 30; echo ${marker}-setsid' >/dev/null 2>&1 & echo started; sleep 30 # ${marker}`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd, yield_time_ms: 30_000 } }] });
    const rig = startRig(['exec', '--json', ...FULL_ACCESS, 'wait'], { cwd: repo, home });
    await rig.waitForStdout('"item.started"');
    // The background subshell carries the whole script in its command line (bash execs the last
    // sleep, which carries none); the setsid shell carries its own.
    await waitUntil(() => processesWith(`${marker}-setsid`).length >= 2 && processesWith(`${marker}-bg`).length >= 1, 10_000, 'the command tree to start');
    const groups = processGroupsWith(`${marker}-bg`);
    const all = () => [...processesWith(marker), ...membersOf(groups)];

    rig.child.kill('SIGKILL');
    expect(await rig.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await waitUntil(() => all().length === 0, 15_000, 'every process of the killed session to be gone');
  });

  test('a thread resumed right after a SIGKILL is a new process scope: the dead run\'s watchdog cannot take its commands', async () => {
    const marker = `rig-orphan-resume-${process.pid}-${Date.now()}`;
    const scopeFile = join(sockets, `${marker}.scope`);
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo "$RIG_PROCESS_SCOPE" > '${scopeFile}'; sleep 30 && echo ${marker}`, yield_time_ms: 30_000 } }] });
    const rig = startRig(['exec', '--json', ...FULL_ACCESS, 'first run'], { cwd: repo, home });
    await rig.waitForStdout('"item.started"');
    // The shell creates the file before echo writes to it: wait for the line, not the file.
    await waitUntil(() => processesWith(marker).length >= 1 && existsSync(scopeFile) && readFileSync(scopeFile, 'utf8').endsWith('\n'), 10_000, 'the first command to start');
    const threadId = (jsonLines(rig.stdout())[0] as { thread_id: string }).thread_id;
    const firstScope = readFileSync(scopeFile, 'utf8').trim();
    rig.child.kill('SIGKILL');
    await rig.exited;

    // Resumed at once, while the old watchdog may still be sweeping (TERM, 0.3 s, KILL).
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo "scope=$RIG_PROCESS_SCOPE"; sleep 1; echo survived', yield_time_ms: 10_000 } }] }, { text: 'done' });
    const resumed = await runRig(['exec', 'resume', '--json', ...FULL_ACCESS, threadId, 'again'], { cwd: repo, home });
    expect(resumed.code, resumed.stderr).toBe(0);
    const command = jsonLines(resumed.stdout).find((event) => event.type === 'item.completed' && (event.item as { type: string }).type === 'command_execution');
    expect(command).toMatchObject({ item: { exit_code: 0, status: 'completed' } });
    const output = (command!.item as { aggregated_output: string }).aggregated_output;
    expect(output).toContain('survived');
    // The watchdog sweeps by the scope token, and each run of the thread has its own.
    const secondScope = /scope=(\S*)/.exec(output)![1]!;
    expect(firstScope).toContain(threadId);
    expect(secondScope).toContain(threadId);
    expect(secondScope).not.toBe(firstScope);
    await waitUntil(() => processesWith(marker).length === 0, 15_000, 'the first run\'s command to be gone');
  });

  test('a normal exit takes down setsid children the command left running', async () => {
    const marker = `rig-orphan-setsid-${process.pid}-${Date.now()}`;
    const cmd = `setsid sh -c 'sleep 30; echo ${marker}' >/dev/null 2>&1 & echo left`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd } }] }, { text: 'done' });
    const run = await runRig(['exec', '--json', ...FULL_ACCESS, 'leave one behind'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'turn.completed' });
    await waitUntil(() => processesWith(marker).length === 0, 5_000, 'the setsid child to be gone after rig exited');
  });

  test.skipIf(!hasTmux)('a normal exit takes down a tmux server the command started', async () => {
    const socket = join(sockets, `rig-orphan-${process.pid}-${Date.now()}`);
    const cmd = `tmux -S '${socket}' new-session -d 'sleep 30' && echo started`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd } }] }, { text: 'done' });
    const run = await runRig(['exec', '--json', ...FULL_ACCESS, 'start tmux'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(jsonLines(run.stdout))).toContain('started');
    // The server's command line names its socket.
    await waitUntil(() => processesWith(socket).length === 0, 5_000, 'the tmux server to be gone after rig exited');
  });
});
