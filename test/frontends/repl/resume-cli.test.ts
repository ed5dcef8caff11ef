// `rig resume` and `rig fork` as real processes: the history is printed, piped lines become
// prompts, the model sees the whole old history, and command-line settings win and are recorded.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { RIG_BIN, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { readRollout, reconstructThread, scanRolloutFiles } from '../../../src/store/index.js';

let mock: MockProvider;
let home: string;
let repo: string;
let threadId: string;
let rolloutPath: string;

/** The mock's request #n input items. */
function inputOf(n: number): unknown[] {
  return mock.requests[n - 1]!.body.input as unknown[];
}

function textOf(item: unknown): string {
  return JSON.stringify(item);
}

beforeAll(async () => {
  mock = await startMockProvider();
  home = tempRigHome({ url: mock.url });
  repo = tempGitRepo({ 'README.md': 'hello' });
  mock.enqueue(
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo hi' } }] },
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'exit 3' } }] },
    { text: 'first answer' },
  );
  const run = await runRig(['exec', '--json', 'first prompt'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  threadId = (JSON.parse(run.stdout.split('\n')[0]!) as { thread_id: string }).thread_id;
  rolloutPath = scanRolloutFiles(home).get(threadId)!.path;
}, 30_000);

afterAll(async () => {
  await mock.close();
  removeDir(home);
  removeDir(repo);
});

beforeEach(() => {
  expect(mock.remaining()).toBe(0);
});

test('--print-only prints the history compactly and writes nothing', async () => {
  const before = statSync(rolloutPath);
  const requests = mock.requests.length;
  const run = await runRig(['resume', '--last', '--print-only'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.split('\n')).toEqual([
    `resumed thread ${threadId} · mock-model · native · ${repo}`,
    '› first prompt',
    '$ echo hi  → exit 0',
    '$ exit 3  → exit 3',
    '• first answer',
    '',
  ]);
  const after = statSync(rolloutPath);
  expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
  expect(mock.requests.length).toBe(requests);
});

test('engine flags before the subcommand apply too', async () => {
  const run = await runRig(['-m', 'flag-model', 'resume', '--last', '--print-only'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(`resumed thread ${threadId} · flag-model · native ·`);
});

test('resume continues with piped prompts; the model receives the full old history', async () => {
  const oldHistory = inputOf(mock.requests.length);
  const previousAnswer = reconstructThread(readRollout(rolloutPath).records).history.at(-1);
  mock.enqueue({ text: 'second answer' }, { text: 'third answer' });
  const first = mock.requests.length + 1;
  const run = await runRig(['resume', threadId.slice(0, 30)], { cwd: repo, home, input: 'second prompt\n\nthird prompt\n' });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('• first answer\nsecond answer\nthird answer\n');
  const second = inputOf(first);
  // Everything the last request of the first run sent, then its answer, then the new prompt.
  expect(second.slice(0, oldHistory.length)).toEqual(oldHistory);
  expect(second[oldHistory.length]).toEqual(previousAnswer);
  expect(textOf(second.at(-1))).toContain('second prompt');
  expect(textOf(inputOf(first + 1).at(-1))).toContain('third prompt');
  const records = readRollout(rolloutPath).records;
  expect(records.filter((r) => r.type === 'session_meta')).toHaveLength(1);
  expect(records.filter((r) => r.type === 'turn_context')).toHaveLength(3);
});

test('end of input without a prompt exits 0 without calling the model', async () => {
  const requests = mock.requests.length;
  const run = await runRig(['resume', '--last'], { cwd: repo, home, input: '' });
  expect(run.code, run.stderr).toBe(0);
  expect(mock.requests.length).toBe(requests);
});

test('resume without an id or --last and no terminal asks for one', async () => {
  const run = await runRig(['resume'], { cwd: repo, home, input: '' });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('pass a thread id or --last');
});

test('an unknown id is a clear error', async () => {
  const run = await runRig(['resume', 'ffffffff'], { cwd: repo, home, input: '' });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('no thread with id ffffffff');
});

test('-m on resume wins over the recorded model and is recorded in the turn context', async () => {
  mock.enqueue({ text: 'from the other model' });
  const run = await runRig(['resume', '--last', '-m', 'other-model'], { cwd: repo, home, input: 'use the other model\n' });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(`resumed thread ${threadId} · other-model ·`);
  expect(mock.requests.at(-1)!.body.model).toBe('other-model');
  const contexts = readRollout(rolloutPath).records.filter((r) => r.type === 'turn_context');
  expect(contexts.at(-1)!.payload).toMatchObject({ model: 'other-model', harness: 'native', cwd: repo });
  const listed = await runRig(['sessions', 'list', '--json'], { cwd: repo, home });
  expect((JSON.parse(listed.stdout) as { id: string; model: string }[]).find((t) => t.id === threadId)!.model).toBe('other-model');
});

test('a plain resume keeps the model the thread last ran with', async () => {
  const run = await runRig(['resume', '--last', '--print-only'], { cwd: repo, home });
  expect(run.stdout).toContain(`resumed thread ${threadId} · other-model ·`);
});

test('--harness on resume wins and is recorded in the turn context', async () => {
  mock.enqueue({ text: 'as another harness' });
  const run = await runRig(['resume', '--last', '--harness', 'minimal'], { cwd: repo, home, input: 'try the minimal harness\n' });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(`resumed thread ${threadId} · other-model · minimal ·`);
  const contexts = readRollout(rolloutPath).records.filter((r) => r.type === 'turn_context');
  expect(contexts.at(-1)!.payload).toMatchObject({ harness: 'minimal' });
});

// Tripwire for a core fix: openSession restores the harness from session_meta (and lets
// config.toml's harness beat it) instead of the newest turn_context, so after `resume --harness X`
// a plain resume goes back to the first harness. Drop `.fails` when it prefers
// turnContext.harness ?? meta.harness (as it now does for the model).
test('a plain resume keeps the harness the thread last ran with', async () => {
  const run = await runRig(['resume', '--last', '--print-only'], { cwd: repo, home });
  expect(run.stdout).toContain(`resumed thread ${threadId} · other-model · minimal ·`);
});

test('fork starts a new thread with a copy of the history and forked_from_id', async () => {
  const sourceBefore = statSync(rolloutPath).size;
  const sourceHistory = reconstructThread(readRollout(rolloutPath).records).history;
  mock.enqueue({ text: 'forked answer' });
  const run = await runRig(['fork', threadId], { cwd: repo, home, input: 'go another way\n' });
  expect(run.code, run.stderr).toBe(0);
  const header = /^forked into new thread (\S+) /.exec(run.stdout);
  const forkId = header![1]!;
  expect(forkId).not.toBe(threadId);
  expect(run.stdout).toContain('› first prompt\n');
  expect(run.stdout).toContain('• as another harness\nforked answer\n');
  const sent = inputOf(mock.requests.length);
  // The thread last ran as `minimal`, which (like every harness but native) leaves Codex's
  // environment block out of the request; the rest of the history is sent as recorded.
  const expected = sourceHistory.filter((item) => !textOf(item).includes('<environment_context>'));
  expect(sent.slice(0, expected.length)).toEqual(expected);
  expect(textOf(sent.at(-1))).toContain('go another way');
  expect(statSync(rolloutPath).size).toBe(sourceBefore);
  const fork = readRollout(scanRolloutFiles(home).get(forkId)!.path);
  expect(fork.meta).toMatchObject({ id: forkId, forked_from_id: threadId, cwd: repo });
  const listed = await runRig(['sessions', 'list', '--json'], { cwd: repo, home });
  expect((JSON.parse(listed.stdout) as { id: string; forked_from_id: string | null }[])[0]).toMatchObject({ id: forkId, forked_from_id: threadId });
});

test('fork --print-only creates no thread', async () => {
  const before = scanRolloutFiles(home).size;
  const run = await runRig(['fork', threadId, '--print-only'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('› first prompt');
  expect(scanRolloutFiles(home).size).toBe(before);
});

describe('approvals and interrupts', () => {
  test('approval requests are answered from the input: y runs the command, n declines it', async () => {
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch approved.txt' } }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch declined.txt' } }] },
      { text: 'tried both' },
    );
    const run = await runRig(['resume', '--last', '-s', 'workspace-write', '-a', 'untrusted'], {
      cwd: repo,
      home,
      // The empty line after "n" is the answer to "what should the agent do instead?": a plain no.
      input: 'make two files\nmaybe\ny\nn\n\n',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('touch approved.txt');
    // The question says where it would run and the command as it would be typed, quoted.
    expect(run.stdout).toMatch(new RegExp(`Run this command in ${repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?\n  \\$ \\S+ -\\w+ 'touch approved\\.txt'\n`));
    expect(run.stdout).toContain('[n] no, and tell the agent what to do instead');
    expect(run.stdout).toContain('please answer y, a, n or s');
    expect(run.stdout.match(/y\/a\/n\/s\?/g)?.length).toBeGreaterThanOrEqual(2);
    expect(run.stdout).toContain('what should the agent do instead?');
    expect(existsSync(join(repo, 'approved.txt'))).toBe(true);
    expect(existsSync(join(repo, 'declined.txt'))).toBe(false);
    expect(run.stdout).toContain('tried both');
  });

  test('Ctrl-C during a turn interrupts it; the session goes on', async () => {
    mock.enqueue({ text: 'never finishes', idleAfterEvents: 2 }, { text: 'after the interrupt' });
    const child = spawn(process.execPath, [RIG_BIN, 'resume', '--last'], {
      cwd: repo,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const n = mock.requests.length + 1;
    child.stdin.write('hang please\n');
    await mock.waitForRequest(n, 10_000);
    child.kill('SIGINT');
    const deadline = Date.now() + 10_000;
    while (!stdout.includes('(turn interrupted)') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(stdout).toContain('(turn interrupted)');
    child.stdin.end('carry on\n');
    expect(await exited, stderr).toBe(0);
    expect(stdout).toContain('after the interrupt');
    const last = inputOf(n + 1);
    expect(last.some((item) => textOf(item).includes('turn_aborted'))).toBe(true);
    expect(textOf(last.at(-1))).toContain('carry on');
  }, 30_000);
});
