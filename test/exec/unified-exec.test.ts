import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UnifiedExecManager, type UnifiedExecManagerOptions } from '../../src/exec/unified-exec.js';
import { firstLineNumber, groupGone } from './helpers.js';

const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'rig-exec-unified-')));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const sh = { path: '/bin/sh', kind: 'sh' as const };
const managers: UnifiedExecManager[] = [];

function manager(options: UnifiedExecManagerOptions = {}): UnifiedExecManager {
  const created = new UnifiedExecManager({ shell: sh, minEmptyPollMs: 250, ...options });
  managers.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.closeAll()));
});

describe('exec_command', () => {
  it('returns as soon as a short command exits', async () => {
    const m = manager();
    const result = await m.execCommand({ cmd: 'echo hi; exit 3', cwd, yieldTimeMs: 10_000 });
    expect(result.exitCode).toBe(3);
    expect(result.sessionId).toBeUndefined();
    expect(result.output).toBe('hi\n');
    expect(result.originalTokenCount).toBe(1);
    expect(result.chunkId).toMatch(/^[0-9a-f]{6}$/);
    expect(result.wallTimeMs).toBeLessThan(2_000);
    expect(result.command).toEqual(['/bin/sh', '-c', 'echo hi; exit 3']);
    expect(m.sessionIds).toEqual([]);
  });

  it('keeps a still-running command as a session after the yield time', async () => {
    const m = manager();
    const result = await m.execCommand({ cmd: 'echo $$; sleep 100', cwd, yieldTimeMs: 250 });
    expect(result.exitCode).toBeNull();
    expect(result.sessionId).toBeGreaterThanOrEqual(1000);
    expect(result.sessionId).toBeLessThan(100_000);
    expect(result.wallTimeMs).toBeGreaterThanOrEqual(240);
    expect(m.sessionIds).toEqual([result.sessionId]);
    const pgid = firstLineNumber(result.output);
    await m.closeAll();
    expect(m.sessionIds).toEqual([]);
    expect(await groupGone(pgid)).toBe(true);
  });

  it('sets the unified-exec environment and resolves workdir against cwd', async () => {
    mkdirSync(join(cwd, 'sub'), { recursive: true });
    const m = manager({ env: { PATH: process.env.PATH, TERM: 'xterm', KEEP: 'k' } });
    const result = await m.execCommand({
      cmd: 'echo "$TERM $NO_COLOR $RIG_CI $PAGER $GIT_PAGER $LC_ALL [$COLORTERM] $KEEP $EXTRA"; pwd',
      cwd,
      workdir: 'sub',
      env: { EXTRA: 'e' },
    });
    expect(result.output).toBe(`dumb 1 1 cat cat C.UTF-8 [] k e\n${join(cwd, 'sub')}\n`);
  });

  it('refuses login when login shells are disabled', async () => {
    const m = manager({ allowLoginShell: false });
    await expect(m.execCommand({ cmd: 'true', cwd, login: true })).rejects.toThrow(
      'login shell is disabled by config; omit `login` or set it to false.',
    );
    const plain = await m.execCommand({ cmd: 'true', cwd, login: false });
    expect(plain.command[1]).toBe('-c');
  });

  it('runs -lc when login is asked for', async () => {
    const m = manager();
    const result = await m.execCommand({ cmd: 'true', cwd, login: true });
    expect(result.command).toEqual(['/bin/sh', '-lc', 'true']);
    expect(result.exitCode).toBe(0);
  });

  it('reports spawn failures as model-readable errors', async () => {
    const m = manager();
    await expect(m.execCommand({ cmd: 'true', cwd: join(cwd, 'missing') })).rejects.toThrow(
      /^exec_command failed for `\/bin\/sh -c true`: Failed to create unified exec process: .*does not exist/,
    );
  });

  it('keeps a refusing wrapper\'s error as the cause', async () => {
    class SandboxRefused extends Error {}
    const m = manager({
      wrap: () => {
        throw new SandboxRefused('no sandbox here');
      },
    });
    const failure = await m.execCommand({ cmd: 'true', cwd }).catch((err: unknown) => err);
    expect((failure as Error).message).toBe(
      'exec_command failed for `/bin/sh -c true`: Failed to create unified exec process: no sandbox here',
    );
    expect((failure as Error).cause).toBeInstanceOf(SandboxRefused);
  });

  it('applies the sandbox wrapper', async () => {
    const m = manager({ wrap: (argv) => ['env', 'WRAPPED=1', ...argv] });
    const result = await m.execCommand({ cmd: 'echo $WRAPPED', cwd });
    expect(result.output).toBe('1\n');
    expect(result.command).toEqual(['/bin/sh', '-c', 'echo $WRAPPED']);
  });
});

describe('write_stdin', () => {
  it('polls a long-running command until it finishes', async () => {
    const m = manager();
    const exits: number[] = [];
    const started = await m.execCommand({
      cmd: 'echo first; sleep 0.5; echo second',
      cwd,
      yieldTimeMs: 250,
      onExit: ({ exitCode }) => exits.push(exitCode),
    });
    expect(started.output).toBe('first\n');
    const id = started.sessionId!;
    const polled = await m.writeStdin({ sessionId: id, yieldTimeMs: 5_000 });
    expect(polled.output).toBe('second\n');
    expect(polled.exitCode).toBe(0);
    expect(polled.sessionId).toBeUndefined();
    expect(polled.wallTimeMs).toBeLessThan(4_000);
    expect(exits).toEqual([0]);
    await expect(m.writeStdin({ sessionId: id })).rejects.toThrow(`write_stdin failed: Unknown process id ${id}`);
  });

  it('echoes what is typed into cat on a tty', async () => {
    const m = manager();
    const started = await m.execCommand({ cmd: 'cat', cwd, tty: true, yieldTimeMs: 250 });
    const id = started.sessionId!;
    expect(id).toBeDefined();
    const typed = await m.writeStdin({ sessionId: id, chars: 'hello\n', yieldTimeMs: 300 });
    // The terminal echoes the input line, then cat prints it.
    expect(typed.output).toBe('hello\r\nhello\r\n');
    expect(typed.sessionId).toBe(id);
  });

  it('stops a tty command with Ctrl-C', async () => {
    const m = manager();
    const started = await m.execCommand({ cmd: 'echo $$; sleep 100', cwd, tty: true, yieldTimeMs: 250 });
    const pgid = firstLineNumber(started.output);
    const stopped = await m.writeStdin({ sessionId: started.sessionId!, chars: '\u0003', yieldTimeMs: 2_000 });
    expect(stopped.exitCode).toBe(130);
    expect(stopped.sessionId).toBeUndefined();
    expect(await groupGone(pgid)).toBe(true);
  });

  it('refuses to type into a session without a tty', async () => {
    const m = manager();
    const started = await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    await expect(m.writeStdin({ sessionId: started.sessionId!, chars: 'x' })).rejects.toThrow(
      'write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open',
    );
  });

  it('rejects unknown session ids', async () => {
    await expect(manager().writeStdin({ sessionId: 4242, chars: '' })).rejects.toThrow(
      'write_stdin failed: Unknown process id 4242',
    );
  });

  it('stops waiting when aborted but keeps the session', async () => {
    const m = manager();
    const started = await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const polled = await m.writeStdin({ sessionId: started.sessionId!, yieldTimeMs: 30_000, signal: controller.signal });
    expect(polled.wallTimeMs).toBeLessThan(2_000);
    expect(polled.sessionId).toBe(started.sessionId);
  });
});

describe('session limit', () => {
  it('prunes the least recently used session, never a recent one, and says so', async () => {
    const m = manager({ maxSessions: 3, protectedRecentSessions: 1 });
    const a = await m.execCommand({ cmd: 'echo $$; sleep 100', cwd, yieldTimeMs: 250 });
    const b = await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    const c = await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    // Using a makes b the least recently used.
    await m.writeStdin({ sessionId: a.sessionId!, yieldTimeMs: 250 });
    const d = await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    expect(d.prunedSessionIds).toEqual([b.sessionId]);
    expect(m.sessionIds.sort()).toEqual([a.sessionId, c.sessionId, d.sessionId].sort());
    await expect(m.writeStdin({ sessionId: b.sessionId!, yieldTimeMs: 250 })).rejects.toThrow(/Unknown process id/);
  });

  it('prefers pruning a session whose process already exited', async () => {
    const m = manager({ maxSessions: 3, protectedRecentSessions: 1 });
    const a = await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    let exited!: () => void;
    const bExited = new Promise<void>((resolve) => (exited = resolve));
    const b = await m.execCommand({ cmd: 'sleep 0.3', cwd, yieldTimeMs: 250, onExit: () => exited() });
    await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    await bExited;
    const d = await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    expect(d.prunedSessionIds).toEqual([b.sessionId]);
    expect(m.sessionIds).toContain(a.sessionId);
  });

  it('kills the pruned session', async () => {
    const m = manager({ maxSessions: 1, protectedRecentSessions: 0 });
    const a = await m.execCommand({ cmd: 'echo $$; sleep 100', cwd, yieldTimeMs: 250 });
    const b = await m.execCommand({ cmd: 'sleep 100', cwd, yieldTimeMs: 250 });
    expect(b.prunedSessionIds).toEqual([a.sessionId]);
    expect(await groupGone(firstLineNumber(a.output))).toBe(true);
  });
});
