// Ctrl-C (and the SIGTERM an SDK client sends on abort) ends the turn cleanly: the command the
// model started is killed with its whole process group, and rig exits 128 + the signal number.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, progress, removeDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { membersOf, processGroupsWith, startRig, waitUntil } from './helpers.js';

let mock: MockProvider;
let repo: string;
let home: string;

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

describe.each([
  { signal: 'SIGINT' as const, code: 130, sandbox: [] as string[] },
  // Without a sandbox there is no bwrap --die-with-parent: only rig's own cleanup stops the command.
  { signal: 'SIGTERM' as const, code: 143, sandbox: ['--sandbox', 'danger-full-access'] },
])('$signal during a running command (--json)', ({ signal, code, sandbox }) => {
  test(`kills the command's process group and exits ${code}`, async () => {
    const marker = `rig-interrupt-${signal}-${process.pid}-${Date.now()}`;
    // The subshell keeps a second process in the group, so the whole group must go, not just its leader.
    const cmd = `(sleep 30; echo ${marker}) & sleep 30 # ${marker}`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd, yield_time_ms: 120_000 } }] });

    const rig = startRig(['exec', '--json', '--harness', 'native', ...sandbox, 'wait'], { cwd: repo, home });
    await rig.waitForStdout('"item.started"');
    // Both shells and both sleeps: the whole group is up before the signal.
    await waitUntil(() => membersOf(processGroupsWith(marker)).length >= 4, 10_000, 'the command to start');
    const groups = processGroupsWith(marker);

    rig.child.kill(signal);
    const exit = await rig.exited;

    expect(exit).toEqual({ code, signal: null });
    // Every process of the command's group is gone, including the sleeps that do not carry the marker.
    await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the command to be killed');
    const events = jsonLines(rig.stdout());
    expect(events.map((e) => e.type)).not.toContain('turn.completed');
    expect(events.map((e) => e.type)).not.toContain('turn.failed');
    expect(events.at(-1)).toMatchObject({ type: 'item.completed', item: { type: 'command_execution', command: cmd, status: 'failed' } });
  });
});

test('Ctrl-C in human mode says so on stderr', async () => {
  const marker = `rig-interrupt-human-${process.pid}-${Date.now()}`;
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `sleep 30 && echo ${marker}`, yield_time_ms: 120_000 } }] });

  const rig = startRig(['exec', '--harness', 'native', 'wait'], { cwd: repo, home });
  // The shell and its sleep.
  await waitUntil(() => membersOf(processGroupsWith(marker)).length >= 2, 15_000, 'the command to start');
  const groups = processGroupsWith(marker);
  rig.child.kill('SIGINT');

  expect(await rig.exited).toEqual({ code: 130, signal: null });
  expect(rig.stdout()).toBe('');
  // The command is stopped (SIGTERM, hence 143) and its item closed before rig's last line.
  expect(progress(rig.stderr())).toBe(`$ sleep 30 && echo ${marker}\n  exit 143\nrig: interrupted\n`);
  await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the command to be killed');
});
