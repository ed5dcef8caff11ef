// Background jobs through the real CLI, per harness family: a sandboxed loop that prints a line
// every 100 ms is started in the background, read twice (the second read holds only what came
// after the first), waited for, stopped; and no process of it is left, whether the model stopped
// it or the thread ended with it still running. little-coder's persistent shell keeps its cwd and
// exports between calls. The commands only print and sleep, inside the workspace-write sandbox.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { processesWith, waitUntil } from '../../frontends/exec/helpers.js';

let mock: MockProvider;
let repo: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  mkdirSync(join(repo, 'sub'));
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

beforeEach(() => {
  expect(mock.remaining()).toBe(0);
});

/** The text of the newest tool output in a Responses request. */
function lastOutput(request: MockRequest): string {
  const input = (request.body?.input ?? []) as { type?: string; output?: unknown }[];
  const last = input.filter((item) => item.type === 'function_call_output').at(-1);
  const output = last?.output;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
}

/** Every tool output the model was sent in the last request, in order. */
function allOutputs(request: MockRequest): string[] {
  const input = (request.body?.input ?? []) as { type?: string; output?: unknown }[];
  return input
    .filter((item) => item.type === 'function_call_output')
    .map((item) => (typeof item.output === 'string' ? item.output : Array.isArray(item.output) ? item.output.map((part: { text?: string }) => part.text ?? '').join('') : ''));
}

function ticks(text: string): number[] {
  return [...text.matchAll(/tick (\d+)/g)].map((match) => Number(match[1]));
}

const SANDBOXED = ['-s', 'workspace-write'];

/** Enqueue calls whose arguments may depend on the job id read from the start call's reply. */
function script(start: { name: string; arguments: Record<string, unknown> }, idPattern: RegExp, then: ((id: string) => { name: string; arguments: Record<string, unknown> })[]): void {
  let id = '';
  mock.enqueue({ toolCalls: [start] });
  for (const [index, next] of then.entries()) {
    mock.enqueue((request) => {
      if (index === 0) id = idPattern.exec(lastOutput(request))?.[1] ?? 'no-id-in-reply';
      return { toolCalls: [next(id)] };
    });
  }
  mock.enqueue({ text: 'done' });
}

function loop(marker: string, count = 3000): string {
  return `for i in $(seq 1 ${count}); do echo "tick $i"; sleep 0.1; done; echo finished # ${marker}`;
}

describe.skipIf(process.platform !== 'linux')('background jobs through rig exec', () => {
  test('deepseek-tui: exec_shell background, exec_shell_wait twice (new output only), exec_shell_cancel; nothing left', async () => {
    const marker = `rig-job-deepseek-${process.pid}-${Date.now()}`;
    script({ name: 'exec_shell', arguments: { command: loop(marker), background: true } }, /Background task started: (shell_[0-9a-f]{8})/, [
      (id) => ({ name: 'exec_shell_wait', arguments: { task_id: id, wait: false } }),
      (id) => ({ name: 'exec_shell_wait', arguments: { task_id: id, wait: true, timeout_ms: 1000 } }),
      (id) => ({ name: 'exec_shell_cancel', arguments: { task_id: id } }),
      (id) => ({ name: 'exec_shell_wait', arguments: { task_id: id, wait: false } }),
    ]);
    const before = mock.requests.length;
    const run = await runRig(['exec', '--json', '--harness', 'deepseek-tui', ...SANDBOXED, 'run the loop'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    const outputs = allOutputs(mock.requests.at(-1)!);
    expect(mock.requests.length - before).toBe(6);
    const [started, first, second, canceled, after] = outputs;
    expect(started).toMatch(/^Background task started: shell_[0-9a-f]{8}$/);
    const id = /shell_[0-9a-f]{8}/.exec(started!)![0];
    expect(ticks(first!).length).toBeGreaterThan(0);
    expect(ticks(second!).length).toBeGreaterThan(0);
    // The second read starts where the first stopped (a line may straddle the two): no line
    // twice, none skipped.
    const all = ticks(first! + second!);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => all[0]! + i));
    expect(ticks(second!)[0]).toBeGreaterThan(ticks(first!)[0]!);
    expect(canceled).toBe(`Canceled background shell job: ${id}`);
    // What the job printed between the last read and the kill, if anything, then the killed status.
    expect(after).toMatch(/^(Command killed \(no new output\)\.|[\s\S]*tick \d+\n)$/);
    expect(processesWith(marker)).toEqual([]);
    // The job ran through the orchestrator: its command is an item of the stream.
    const items = jsonLines(run.stdout).filter((event) => event['type'] === 'item.started');
    expect(items.some((event) => JSON.stringify(event).includes(marker))).toBe(true);
  });

  test('deepseek-tui: task_shell_start then task_shell_wait until exit; an unknown id is named', async () => {
    const marker = `rig-job-taskshell-${process.pid}-${Date.now()}`;
    script({ name: 'task_shell_start', arguments: { command: loop(marker, 15) } }, /Background task started: (shell_[0-9a-f]{8})/, [
      (id) => ({ name: 'task_shell_wait', arguments: { task_id: id, wait: true, timeout_ms: 60_000 } }),
      () => ({ name: 'exec_wait', arguments: { task_id: 'shell_00000000' } }),
    ]);
    const run = await runRig(['exec', '--json', '--harness', 'deepseek-tui', ...SANDBOXED, 'run it'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    const [started, waited, unknown] = allOutputs(mock.requests.at(-1)!);
    expect(started).toMatch(/^Background task started: shell_[0-9a-f]{8}$/);
    // Waited for the exit: the last lines and the end are there.
    expect(waited).toContain('tick 15');
    expect(waited).toContain('finished');
    expect(unknown).toContain('Task shell_00000000 not found');
  });

  test('a job goes through policy, approval and sandbox like a foreground command', async () => {
    const marker = `rig-job-policy-${process.pid}-${Date.now()}`;
    // Inside bubblewrap's pid namespace the first process is bwrap itself.
    const probe = `cat /proc/1/comm; ${loop(marker, 3000)}`;
    script({ name: 'exec_shell', arguments: { command: probe, background: true } }, /Background task started: (shell_[0-9a-f]{8})/, [
      (id) => ({ name: 'exec_shell_wait', arguments: { task_id: id, wait: false } }),
      (id) => ({ name: 'exec_shell_cancel', arguments: { task_id: id } }),
    ]);
    const sandboxed = await runRig(['exec', '--json', '--harness', 'deepseek-tui', ...SANDBOXED, 'probe'], { cwd: repo, home });
    expect(sandboxed.code, sandboxed.stderr).toBe(0);
    const [, read] = allOutputs(mock.requests.at(-1)!);
    expect(read!.split('\n')[0]).toBe('bwrap');

    // Under `untrusted` a command that is not known-safe needs approval, and rig exec has nobody to ask.
    mock.enqueue({ toolCalls: [{ name: 'exec_shell', arguments: { command: `touch made-by-job; ${loop(marker)}`, background: true } }] }, { text: 'declined' });
    const asked = await runRig(['exec', '--json', '--harness', 'deepseek-tui', ...SANDBOXED, '-a', 'untrusted', 'start'], { cwd: repo, home });
    expect(asked.code, asked.stderr).toBe(0);
    expect(lastOutput(mock.requests.at(-1)!)).toMatch(/approval policy untrusted requires approval/);
    expect(processesWith(marker)).toEqual([]);
  });

  test('a job still running when the thread ends is killed with it', async () => {
    const marker = `rig-job-orphan-${process.pid}-${Date.now()}`;
    mock.enqueue({ toolCalls: [{ name: 'exec_shell', arguments: { command: loop(marker), background: true } }] }, { text: 'left it running' });
    const run = await runRig(['exec', '--json', '--harness', 'deepseek-tui', ...SANDBOXED, 'start and leave'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    expect(lastOutput(mock.requests.at(-1)!)).toMatch(/^Background task started: shell_/);
    // rig has exited: the thread's end took the job's process group down before that.
    await waitUntil(() => processesWith(marker).length === 0, 5000, 'the job to be gone with its thread');
  });

  test('claude-code: Bash run_in_background, TaskOutput without and with blocking, TaskStop on a second job', async () => {
    const marker = `rig-job-claude-${process.pid}-${Date.now()}`;
    const endless = `${marker}-endless`;
    let first = '';
    let second = '';
    mock.enqueue({ toolCalls: [{ name: 'Bash', arguments: { command: loop(marker, 20), run_in_background: true } }] });
    mock.enqueue((request) => {
      first = /ID: (bash_\d+)/.exec(lastOutput(request))?.[1] ?? '';
      return { toolCalls: [{ name: 'TaskOutput', arguments: { task_id: first, block: false, timeout: 0 } }] };
    });
    mock.enqueue(() => ({ toolCalls: [{ name: 'TaskOutput', arguments: { task_id: first, block: true, timeout: 60_000 } }] }));
    mock.enqueue({ toolCalls: [{ name: 'Bash', arguments: { command: loop(endless), run_in_background: true } }] });
    mock.enqueue((request) => {
      second = /ID: (bash_\d+)/.exec(lastOutput(request))?.[1] ?? '';
      return { toolCalls: [{ name: 'TaskStop', arguments: { task_id: second } }] };
    });
    mock.enqueue({ text: 'done' });
    const run = await runRig(['exec', '--json', '--harness', 'claude-code', ...SANDBOXED, 'jobs'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    const [started, notReady, complete, startedAgain, stopped] = allOutputs(mock.requests.at(-1)!);
    expect(started).toMatch(/^Command running in background with ID: bash_\d+$/);
    expect(notReady).toContain('<retrieval_status>not_ready</retrieval_status>');
    expect(notReady).toContain('<status>running</status>');
    expect(complete).toContain('<retrieval_status>complete</retrieval_status>');
    expect(complete).toContain('<exit_code>0</exit_code>');
    expect(complete).toContain('tick 20\nfinished');
    expect(startedAgain).toMatch(/^Command running in background with ID: bash_\d+$/);
    expect(JSON.parse(stopped!)).toMatchObject({ task_id: second, task_type: 'local_bash', message: `Successfully stopped task: ${second} (${loop(endless)})` });
    expect(processesWith(marker)).toEqual([]);
  });

  test('kimi-code: Bash run_in_background, TaskList, TaskOutput, TaskStop', async () => {
    const marker = `rig-job-kimi-${process.pid}-${Date.now()}`;
    script({ name: 'Bash', arguments: { command: loop(marker), run_in_background: true, description: 'loop' } }, /ID: (bash_\d+)/, [
      () => ({ name: 'TaskList', arguments: {} }),
      (id) => ({ name: 'TaskOutput', arguments: { task_id: id, block: true, timeout: 1 } }),
      (id) => ({ name: 'TaskStop', arguments: { task_id: id } }),
      () => ({ name: 'TaskList', arguments: {} }),
    ]);
    const run = await runRig(['exec', '--json', '--harness', 'kimi-code', ...SANDBOXED, 'jobs'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    const [started, listed, output, , listedAfter] = allOutputs(mock.requests.at(-1)!);
    const id = /bash_\d+/.exec(started!)![0];
    expect(listed).toContain('background_tasks: 1');
    expect(listed).toContain(`task_id: ${id}\nstatus: running`);
    expect(ticks(output!).length).toBeGreaterThan(0);
    expect(listedAfter).toContain('background_tasks: 0');
    expect(processesWith(marker)).toEqual([]);
  });

  test('little-coder: ShellSession keeps cwd and exports between calls; Cwd shows it; Reset goes back', async () => {
    mock.enqueue(
      { toolCalls: [{ name: 'ShellSession', arguments: { command: 'cd sub && export RIG_JOB_VAR=kept-value' } }] },
      { toolCalls: [{ name: 'ShellSession', arguments: { command: 'pwd; echo "var=$RIG_JOB_VAR"' } }] },
      { toolCalls: [{ name: 'ShellSessionCwd', arguments: {} }] },
      { toolCalls: [{ name: 'ShellSessionReset', arguments: {} }] },
      { toolCalls: [{ name: 'ShellSession', arguments: { command: 'pwd; echo "var=$RIG_JOB_VAR"; exit 3' } }] },
      { text: 'done' },
    );
    const run = await runRig(['exec', '--json', '--harness', 'little-coder', ...SANDBOXED, 'shell'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    const sub = join(repo, 'sub');
    const [cd, check, cwd, reset, afterReset] = allOutputs(mock.requests.at(-1)!);
    expect(cd).toBe(`[exit=0 cwd=${sub} timed_out=false]`);
    expect(check).toBe(`${sub}\nvar=kept-value\n[exit=0 cwd=${sub} timed_out=false]`);
    expect(cwd).toBe(`${sub}\n[exit=0 cwd=${sub} timed_out=false]`);
    expect(reset).toBe("Session 'default' unstuck and reinitialized.");
    expect(afterReset).toBe(`${repo}\nvar=\n[exit=3 cwd=${repo} timed_out=false]`);
  });
});
