import { describe, expect, it } from 'vitest';
import type { ExecOutcome } from '../../../src/tools/spec.js';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

const done = (output: string, exitCode: number | null = 0, timedOut = false): ExecOutcome => ({ exitCode, output, totalBytes: output.length, wallTimeMs: 1, timedOut });

describe('timeouts follow each original unit, default and maximum', () => {
  it.each([
    ['claude-code', 'Bash', { command: 'true' }, 120_000],
    ['claude-code', 'Bash', { command: 'true', timeout: 5000 }, 5000],
    ['claude-code', 'Bash', { command: 'true', timeout: 9_999_999 }, 600_000],
    ['kimi-code', 'Bash', { command: 'true' }, 60_000],
    ['kimi-code', 'Bash', { command: 'true', timeout: 60 }, 60_000],
    ['kimi-code', 'Bash', { command: 'true', timeout: 1000 }, 300_000],
    ['kimi-cli', 'Shell', { command: 'true', timeout: 5 }, 5000],
    ['opencode', 'bash', { command: 'true', timeout: 2500 }, 2500],
    ['qwen-code', 'run_shell_command', { command: 'true', timeout: 700_000 }, 600_000],
    ['pi', 'bash', { command: 'true', timeout: 3 }, 3000],
    ['mini-swe-agent', 'bash', { command: 'true' }, 30_000],
    ['deepseek-tui', 'exec_shell', { command: 'true', timeout_ms: 1500 }, 1500],
    ['swe-agent', 'bash', { command: 'true' }, 30_000],
  ])('%s %s %o -> %d ms', async (harness, tool, args, expected) => {
    const ctx = fakeContext({ exec: () => done('') });
    await call(bound(harness).byName.get(tool), args, ctx);
    expect(ctx.execCalls[0]?.timeoutMs).toBe(expected);
  });

  it('working-directory arguments resolve against the cwd', async () => {
    const ctx = fakeContext({ exec: () => done('') });
    await call(bound('opencode').byName.get('bash'), { command: 'ls', workdir: 'sub' }, ctx);
    await call(bound('qwen-code').byName.get('run_shell_command'), { command: 'ls', directory: '/tmp' }, ctx);
    await call(bound('kimi-code').byName.get('Bash'), { command: 'ls', cwd: 'x' }, ctx);
    expect(ctx.execCalls.map((request) => request.cwd)).toEqual([`${ctx.root}/sub`, '/tmp', `${ctx.root}/x`]);
  });
});

describe('output rendering', () => {
  it('runs for real through caps.exec', async () => {
    const ctx = fakeContext();
    expect(await call(bound('claude-code').byName.get('Bash'), { command: 'echo hi; echo err >&2' }, ctx)).toEqual({ success: true, text: 'hi\nerr' });
    expect(await call(bound('claude-code').byName.get('Bash'), { command: 'exit 3' }, ctx)).toEqual({ success: false, text: 'Exit code 3' });
    expect(await call(bound('claude-code').byName.get('Bash'), { command: 'true' }, ctx)).toEqual({ success: true, text: '(Bash completed with no output)' });
  });

  it.each([
    ['opencode', 'bash', done(''), { success: true, text: '(no output)' }],
    ['pi', 'bash', done('oops\n', 2), { success: false, text: 'oops\n\n\nCommand exited with code 2' }],
    ['zcode', 'Bash', done('bad\n', 1), { success: false, text: 'Exit code 1\nbad' }],
    ['kimi-cli', 'Shell', done(''), { success: true, text: JSON.stringify([{ type: 'input_text', text: '<system>Command executed successfully.</system>' }]) }],
    ['kimi-code', 'Bash', done('x\n', 4), { success: false, text: JSON.stringify([{ type: 'input_text', text: 'Command failed with exit code: 4.' }, { type: 'input_text', text: 'x\n' }]) }],
    ['mini-swe-agent', 'bash', done('out\n'), { success: true, text: '<returncode>0</returncode>\n<output>\nout\n</output>' }],
    ['deepseek-tui', 'exec_shell', done(''), { success: true, text: '(no output)' }],
    ['swe-agent', 'bash', done('bash: line 1: foo: command not found\n', 127), { success: false, text: 'bash: foo: command not found\n' }],
    ['swe-agent', 'bash', done('', null, true), { success: false, text: "The command 'sleep 99' was cancelled because it took more than 30 seconds. Please try a different command that completes more quickly." }],
  ])('%s %s', async (harness, tool, outcome, expected) => {
    const ctx = fakeContext({ exec: () => outcome });
    expect(await call(bound(harness).byName.get(tool), { command: 'sleep 99' }, ctx)).toEqual(expected);
  });

  it('a declined command reports the orchestrator reason', async () => {
    const ctx = fakeContext({ exec: () => ({ ...done(''), declined: 'rejected by user' }) });
    expect(await call(bound('pi').byName.get('bash'), { command: 'rm -rf /' }, ctx)).toEqual({ success: false, text: 'rejected by user' });
  });

  it('an empty command is refused without running anything', async () => {
    const ctx = fakeContext();
    expect((await call(bound('pi').byName.get('bash'), { command: '  ' }, ctx)).success).toBe(false);
    expect(ctx.execCalls).toEqual([]);
  });
});

describe('background tasks', () => {
  it('run_in_background returns a task id; TaskOutput, TaskList and TaskStop use the thread state', async () => {
    let polls = 0;
    const ctx = fakeContext({ exec: () => ({ ...done('started\n', null), sessionId: 7 }) });
    ctx.caps.writeStdin = async (_id, chars) => {
      polls++;
      return chars === '\u0003' ? done('^C', 130) : { ...done(`tick${polls}\n`, null), sessionId: 7 };
    };
    const kimi = bound('kimi-code');
    expect(await call(kimi.byName.get('Bash'), { command: 'server', run_in_background: true }, ctx)).toEqual({ success: true, text: 'Command running in background with ID: bash_7' });
    expect(ctx.execCalls[0]?.timeoutMs).toBe(60_000);
    const output = await call(kimi.byName.get('TaskOutput'), { task_id: 'bash_7' }, ctx);
    expect(output.text).toContain('<retrieval_status>not_ready</retrieval_status>');
    expect(output.text).toContain('started\ntick1\n');
    expect((await call(kimi.byName.get('TaskList'), {}, ctx)).text).toBe('background_tasks: 1\n\ntask_id: bash_7\nstatus: running\nkind: process\ncommand: server');
    expect(JSON.parse((await call(kimi.byName.get('TaskStop'), { task_id: 'bash_7' }, ctx)).text)).toMatchObject({ task_id: 'bash_7', command: 'server' });
    expect((await call(kimi.byName.get('TaskList'), {}, ctx)).text).toBe('background_tasks: 0');
    expect((await call(kimi.byName.get('TaskOutput'), { task_id: 'nope' }, ctx)).success).toBe(false);
  });
});

describe('DeepSeek git tools', () => {
  it('build git argv from the arguments', async () => {
    const ctx = fakeContext({ exec: () => done('ok\n') });
    const ds = bound('deepseek-tui');
    await call(ds.byName.get('git_status'), {}, ctx);
    await call(ds.byName.get('git_diff'), { cached: true, unified: 99, path: 'src' }, ctx);
    await call(ds.byName.get('git_log'), { max_count: 5, author: 'me' }, ctx);
    await call(ds.byName.get('git_blame'), { path: 'a.rs', start_line: 10, max_lines: 5 }, ctx);
    expect(ctx.execCalls.map((request) => request.argv)).toEqual([
      ['git', 'status', '--short', '--branch'],
      ['git', 'diff', '--cached', '-U50', '--', 'src'],
      ['git', 'log', '--max-count=5', '--author=me'],
      ['git', 'blame', '-L10,+5', '--', 'a.rs'],
    ]);
  });
});

describe('mini-swe-agent long output', () => {
  it('keeps the head and tail of output over 10,000 characters', async () => {
    const { miniSweObservation } = await import('../../../src/tools/harness/shell.js');
    const text = miniSweObservation(0, 'a'.repeat(6000) + 'b'.repeat(6000));
    expect(text.startsWith('<returncode>0</returncode>\n<warning>')).toBe(true);
    expect(text).toContain(`<output_head>\n${'a'.repeat(5000)}\n</output_head>\n<elided_chars>\n2000 characters elided\n</elided_chars>`);
    expect(text.endsWith(`<output_tail>\n${'b'.repeat(5000)}\n</output_tail>`)).toBe(true);
  });
});

describe('advertised shell options', () => {
  it('dangerouslyDisableSandbox asks the orchestrator for an escalation with the description', async () => {
    const ctx = fakeContext({ exec: () => done('') });
    await call(bound('claude-code').byName.get('Bash'), { command: 'make install', description: 'install system-wide', dangerouslyDisableSandbox: true }, ctx);
    expect(ctx.execCalls[0]?.escalation).toEqual({ justification: 'install system-wide' });
  });

  it('kimi disable_timeout uses the longest documented timeout', async () => {
    const ctx = fakeContext({ exec: () => done('') });
    await call(bound('kimi-code').byName.get('Bash'), { command: 'long', disable_timeout: true }, ctx);
    expect(ctx.execCalls[0]?.timeoutMs).toBe(86_400_000);
  });
});
