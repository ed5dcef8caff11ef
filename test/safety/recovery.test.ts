// Damage and contention, through the real CLI: two writers of one thread, a corrupt line in the
// middle of a rollout, a record too big for one line, leftovers of killed runs, a hostile rules
// file, and a read-only RIG_HOME. Each must end in a clear message or a working resume.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../support/mock-provider/index.js';
import { RIG_BIN, jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { startRig } from '../frontends/exec/helpers.js';

let mock: MockProvider;
let repo = '';

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
});

function rolloutOf(home: string, threadId: string): string {
  const walk = (dir: string): string | undefined => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(full);
        if (found) return found;
      } else if (entry.name.endsWith(`${threadId}.jsonl`)) return full;
    }
    return undefined;
  };
  const found = walk(path.join(home, 'sessions'));
  if (!found) throw new Error(`no rollout for ${threadId}`);
  return found;
}

async function newThread(home: string, turns: Parameters<MockProvider['enqueue']>): Promise<string> {
  mock.enqueue(...turns);
  const run = await runRig(['exec', '--json', '-s', 'workspace-write', 'start'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  return jsonLines(run.stdout)[0]!['thread_id'] as string;
}

/** Each call id of a Responses request's input has one call, then one output. */
function expectPaired(request: MockRequest): void {
  const calls = new Map<string, number>();
  const outputs = new Map<string, number>();
  (request.body.input as { type: string; call_id?: string }[]).forEach((item, index) => {
    if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      expect(calls.has(item.call_id!), `duplicate call ${item.call_id}`).toBe(false);
      calls.set(item.call_id!, index);
    } else if (item.type.endsWith('call_output')) {
      expect(outputs.has(item.call_id!), `duplicate output ${item.call_id}`).toBe(false);
      expect(calls.get(item.call_id!), `output ${item.call_id} before or without its call`).toBeLessThan(index);
      outputs.set(item.call_id!, index);
    }
  });
  expect([...outputs.keys()].sort()).toEqual([...calls.keys()].sort());
}

describe('one writer per thread', () => {
  it('a second resume is refused naming the process; readers are not blocked; a killed writer\'s lock is taken over', { timeout: 90_000 }, async () => {
    const home = tempRigHome({ url: mock.url });
    const threadId = await newThread(home, [{ text: 'first' }]);
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo holding-the-thread; sleep 30', yield_time_ms: 60_000 } }] });
    const holder = startRig(['exec', '--json', '-s', 'workspace-write', 'resume', threadId, 'hold it'], { cwd: repo, home });
    await holder.waitForStdout('"type":"item.started"');

    const second = await runRig(['exec', 'resume', threadId, 'me too'], { cwd: repo, home });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`^rig: thread ${threadId} is in use by another rig process: pid ${holder.child.pid} \\(rig exec --json -s workspace-write resume ${threadId} hold it\\), since `));
    expect(second.stderr).toContain(`kill ${holder.child.pid}`);

    const list = await runRig(['sessions', 'list', '--all'], { cwd: repo, home });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(threadId.slice(0, 8));

    holder.child.kill('SIGKILL');
    await holder.exited;
    mock.enqueue({ text: 'after the kill' });
    const third = await runRig(['exec', '--json', 'resume', threadId, 'now me'], { cwd: repo, home });
    expect(third.code, third.stderr).toBe(0);
    expectPaired(mock.requests.at(-1)!);
    expect(fs.existsSync(`${rolloutOf(home, threadId)}.lock`)).toBe(false);
    removeDir(home);
  });
});

describe('a damaged rollout stays resumable', () => {
  it('a corrupt line in the middle (the call of a call/output pair) is repaired before sending', { timeout: 60_000 }, async () => {
    const home = tempRigHome({ url: mock.url });
    const threadId = await newThread(home, [
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo one' } }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo two' } }] },
      { text: 'done' },
    ]);
    const file = rolloutOf(home, threadId);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const callLine = lines.findIndex((line) => line.includes('"type":"response_item"') && line.includes('"type":"function_call"') && line.includes('echo one'));
    expect(callLine).toBeGreaterThan(0);
    lines[callLine] = '{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"functi';
    fs.writeFileSync(file, lines.join('\n'));

    mock.enqueue({ text: 'resumed' });
    const run = await runRig(['exec', '--json', 'resume', threadId, 'go on'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    expectPaired(mock.requests.at(-1)!);
    const warnings = jsonLines(run.stdout).filter((e) => e['type'] === 'item.completed').map((e) => JSON.stringify(e));
    expect(warnings.join('\n')).toMatch(/corrupt line skipped/);
    expect(warnings.join('\n')).toMatch(/dropped an output for call \S+, whose call is missing/);
    removeDir(home);
  });

  it('a record too big for one line is cut with a marker when written, and the thread resumes', { timeout: 60_000 }, async () => {
    const home = tempRigHome({ url: mock.url });
    const huge = 'x'.repeat(12 * 1024 * 1024);
    const threadId = await newThread(home, [{ text: huge, deltaSize: 4 * 1024 * 1024 }]);
    const file = rolloutOf(home, threadId);
    const longest = Math.max(...fs.readFileSync(file, 'utf8').split('\n').map((line) => Buffer.byteLength(line)));
    expect(longest).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(fs.readFileSync(file, 'utf8')).toContain('characters left out of this rollout record by rig');
    // 8 MiB of history is over the context window: the resume compacts first (one more request).
    mock.enqueue({ text: 'summary of the long answer' }, { text: 'small' });
    const run = await runRig(['exec', '--json', 'resume', threadId, 'again'], { cwd: repo, home });
    expect(run.code, run.stdout.slice(0, 2000)).toBe(0);
    expect(mock.remaining()).toBe(0);
    removeDir(home);
  });
});

describe('leftovers of killed runs are cleaned up', () => {
  it('stale edit temp files in the workspace and rig-seccomp-* directories in TMPDIR', { timeout: 60_000 }, async () => {
    const home = tempRigHome({ url: mock.url });
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-recovery-tmp-'));
    // A pid above pid_max: that writer is certainly gone.
    const staleTemp = path.join(repo, '.notes.md.rig-tmp-99999999-0badf00d');
    const liveTemp = path.join(repo, `.notes.md.rig-tmp-${process.pid}-00c0ffee`);
    fs.writeFileSync(staleTemp, 'half an edit');
    fs.writeFileSync(liveTemp, 'an edit in progress');
    fs.mkdirSync(path.join(tmp, 'rig-seccomp-AbC123'));
    fs.writeFileSync(path.join(tmp, 'rig-seccomp-AbC123', 'network-off.bpf'), Buffer.alloc(16));
    fs.mkdirSync(path.join(tmp, 'rig-seccomp-keep'));
    fs.writeFileSync(path.join(tmp, 'rig-seccomp-keep', 'someone-elses.txt'), 'x');
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'true' } }] }, { text: 'ok' });
    const run = await runRig(['exec', '--json', '-s', 'workspace-write', 'tidy'], { cwd: repo, home, env: { TMPDIR: tmp } });
    expect(run.code, run.stderr).toBe(0);
    expect(fs.existsSync(staleTemp)).toBe(false);
    expect(fs.existsSync(liveTemp)).toBe(true);
    // .rig/ holds rig's code cache (src/cli/boot/code-cache.ts), made at start and kept.
    expect(fs.readdirSync(tmp).filter((name) => name !== '.rig').sort()).toEqual(['rig-seccomp-keep']);
    fs.rmSync(liveTemp);
    removeDir(tmp);
    removeDir(home);
  });
});

describe('clear messages', () => {
  it('a rules file with 10,000 nested brackets: a nesting error with file and line', { timeout: 30_000 }, async () => {
    const home = tempRigHome({ url: mock.url });
    fs.mkdirSync(path.join(home, 'rules'));
    const rules = path.join(home, 'rules', 'deep.rules');
    fs.writeFileSync(rules, `# one\n# two\nprefix_rule(pattern=${'['.repeat(10_000)}"x"${']'.repeat(10_000)})\n`);
    const run = await runRig(['exec', 'hi'], { cwd: repo, home });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^rig: ${rules.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:\\d+: lists and calls nest more than 64 levels deep`));
    removeDir(home);
  });

  it('a read-only RIG_HOME says so (not "ENOENT ... mkdir"), and --ephemeral still works', { timeout: 60_000 }, async () => {
    const home = tempRigHome({ url: mock.url });
    // RIG_HOME on a read-only mount, as on a read-only home or container volume.
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          '/usr/bin/bwrap',
          ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', '/tmp', '/tmp', '--ro-bind', home, home, '--chdir', repo, '--',
            process.execPath, RIG_BIN, ...args],
          { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-secret-0123456789' }, stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const refused = await run(['exec', 'hi']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toMatch(/ENOENT/);
    expect(refused.stderr).toBe(
      `rig: cannot create ${path.join(home, 'sessions')}/${dayPath()}: RIG_HOME (${home}) is not writable, it is on a read-only file system. ` +
        'rig keeps sessions and its index there. Make it writable, set RIG_HOME to a writable directory, or pass --ephemeral to keep no session on disk.\n',
    );
    mock.enqueue({ text: 'ephemeral answer' });
    const ephemeral = await run(['exec', '--ephemeral', 'hi']);
    expect(ephemeral.code, ephemeral.stderr).toBe(0);
    removeDir(home);
  });
});

function dayPath(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}/${pad(now.getMonth() + 1)}/${pad(now.getDate())}`;
}
