import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess, startProcess } from '../../src/exec/spawn.js';
import { ProcessScope, processWideScope, signalProcessGroup } from '../../src/exec/process-groups.js';
import { firstLineNumber, groupGone } from './helpers.js';

const cwd = mkdtempSync(join(tmpdir(), 'rig-exec-spawn-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('runProcess', () => {
  it('captures stdout and stderr together and reports the exit code', async () => {
    const result = await runProcess({ argv: ['sh', '-c', 'echo out; echo err >&2; exit 3'], cwd });
    expect(result.exitCode).toBe(3);
    expect(result.signal).toBeNull();
    expect(result.output.split('\n').sort()).toEqual(['', 'err', 'out']);
    expect(result.totalBytes).toBe(8);
    expect(result.timedOut).toBe(false);
    expect(result.aborted).toBe(false);
    expect(result.wallTimeMs).toBeGreaterThan(0);
  });

  it('maps signal deaths to 128 + signal', async () => {
    const term = await runProcess({ argv: ['sh', '-c', 'kill -TERM $$'], cwd });
    expect(term.exitCode).toBe(143);
    expect(term.signal).toBe('SIGTERM');
    const kill = await runProcess({ argv: ['sh', '-c', 'kill -KILL $$'], cwd });
    expect(kill.exitCode).toBe(137);
  });

  it('on timeout kills the whole process group and reports 124', async () => {
    const result = await runProcess({
      argv: ['sh', '-c', 'echo $$; sleep 100 & sleep 100'],
      cwd,
      timeoutMs: 300,
    });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBe(124);
    expect(result.wallTimeMs).toBeLessThan(1_500);
    const pgid = firstLineNumber(result.output);
    expect(await groupGone(pgid)).toBe(true);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const result = await runProcess({
      argv: ['sh', '-c', "trap '' TERM; echo $$; sleep 100 & sleep 100"],
      cwd,
      timeoutMs: 200,
      killGraceMs: 100,
    });
    expect(result.exitCode).toBe(124);
    const pgid = firstLineNumber(result.output);
    expect(await groupGone(pgid)).toBe(true);
  });

  it('aborting kills the whole process group', async () => {
    const controller = new AbortController();
    const result = await runProcess({
      argv: ['sh', '-c', 'echo $$; sleep 100 & sleep 100'],
      cwd,
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    expect(result.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(143);
    expect(await groupGone(firstLineNumber(result.output))).toBe(true);
  });

  it('does not start anything when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runProcess({ argv: ['sh', '-c', 'echo no'], cwd, signal: controller.signal });
    expect(result.aborted).toBe(true);
    expect(result.output).toBe('');
  });

  it('stops draining pipes held open by a background job after the drain timeout', async () => {
    const result = await runProcess({
      argv: ['sh', '-c', 'echo $$; sleep 100 & echo done'],
      cwd,
      drainTimeoutMs: 200,
    });
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(/done\n$/);
    expect(result.wallTimeMs).toBeLessThan(1_500);
    const pgid = firstLineNumber(result.output);
    // The background job is still tracked so rig can kill it on exit.
    expect(processWideScope.trackedGroups).toContain(pgid);
    signalProcessGroup(pgid, 'SIGKILL');
    expect(await groupGone(pgid)).toBe(true);
  });

  it('keeps head and tail of large output with an exact omission marker', async () => {
    const script =
      "head -c 600 /dev/zero | tr '\\0' A; head -c 2000 /dev/zero | tr '\\0' B; head -c 600 /dev/zero | tr '\\0' C";
    const result = await runProcess({ argv: ['sh', '-c', script], cwd, maxOutputBytes: 1000 });
    expect(result.totalBytes).toBe(3200);
    expect(result.omittedBytes).toBe(2200);
    expect(result.output).toBe(`${'A'.repeat(500)}\n... 2200 bytes omitted ...\n${'C'.repeat(500)}`);
  });

  it('streams output deltas, capped per call', async () => {
    const chunks: string[] = [];
    const result = await runProcess({
      argv: ['sh', '-c', 'for i in 1 2 3 4 5; do echo $i; sleep 0.02; done'],
      cwd,
      onOutput: (chunk) => chunks.push(chunk.toString()),
      maxOutputEvents: 2,
    });
    expect(chunks.length).toBe(2);
    expect(result.output).toBe('1\n2\n3\n4\n5\n');
  });

  it('feeds stdin text and uses the given env and wrapper', async () => {
    const result = await runProcess({
      argv: ['sh', '-c', 'cat; echo " $FOO $WRAPPED"'],
      cwd,
      input: 'hello',
      env: { PATH: process.env.PATH, FOO: 'bar' },
      wrap: (argv) => ['env', 'WRAPPED=yes', ...argv],
    });
    expect(result.output).toBe('hello bar yes\n');
  });

  it('merges a wrapper\'s env and runs its cleanup once after the process finished', async () => {
    let cleanups = 0;
    let seenContext: unknown;
    const result = await runProcess({
      argv: ['sh', '-c', 'echo $SANDBOXED'],
      cwd,
      env: { PATH: process.env.PATH },
      wrap: (argv, context) => {
        seenContext = context;
        return { argv, env: { SANDBOXED: 'yes' }, cleanup: () => cleanups++ };
      },
    });
    expect(result.output).toBe('yes\n');
    expect(seenContext).toEqual({ cwd, tty: false });
    expect(cleanups).toBe(1);
    // A wrapper that refuses (sandbox unavailable) stops the run with its own error.
    await expect(
      runProcess({
        argv: ['true'],
        cwd,
        wrap: () => {
          throw new Error('sandbox unavailable');
        },
      }),
    ).rejects.toThrow('sandbox unavailable');
    // Cleanup also runs when the wrapped program cannot start.
    await expect(
      runProcess({ argv: ['true'], cwd, wrap: () => ({ argv: ['rig-no-such-program-xyz'], cleanup: () => cleanups++ }) }),
    ).rejects.toThrow(/no such program/);
    expect(cleanups).toBe(2);
  });

  it('connects stdin to /dev/null by default', async () => {
    const result = await runProcess({ argv: ['cat'], cwd, timeoutMs: 5_000 });
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe('');
  });

  it('explains spawn failures', async () => {
    await expect(runProcess({ argv: ['rig-no-such-program-xyz'], cwd })).rejects.toThrow(/no such program/);
    await expect(runProcess({ argv: ['sh', '-c', 'true'], cwd: join(cwd, 'missing') })).rejects.toThrow(
      /working directory .*missing does not exist/,
    );
    await expect(runProcess({ argv: [], cwd })).rejects.toThrow(/empty command/);
  });
});

describe('startProcess', () => {
  it('writes to a piped stdin and reports exit', async () => {
    const proc = await startProcess({ argv: ['cat'], cwd, stdin: 'pipe' });
    const seen: Buffer[] = [];
    proc.onOutput((chunk) => seen.push(chunk));
    await proc.write('ping\n');
    proc.closeStdin();
    const status = await proc.done;
    expect(status).toEqual({ code: 0, signal: null });
    expect(Buffer.concat(seen).toString()).toBe('ping\n');
    await expect(proc.write('late')).rejects.toThrow(/stdin is closed/);
  });

  it('a scope kills every group it started and no other', async () => {
    const scope = new ProcessScope();
    const other = new ProcessScope();
    const mine = await startProcess({ argv: ['sh', '-c', 'sleep 100 & sleep 100'], cwd, scope });
    const theirs = await startProcess({ argv: ['sh', '-c', 'sleep 100 & sleep 100'], cwd, scope: other });
    expect(scope.trackedGroups).toEqual([mine.pid]);
    expect(processWideScope.trackedGroups).not.toContain(mine.pid);
    scope.killAll();
    const status = await mine.done;
    expect(status.signal).toBe('SIGKILL');
    expect(await groupGone(mine.pid)).toBe(true);
    expect(scope.trackedGroups).not.toContain(mine.pid);
    expect(theirs.exitStatus).toBeNull();
    await other.close();
    expect((await theirs.done).signal).toBe('SIGTERM');
    expect(await groupGone(theirs.pid)).toBe(true);
  });
});
