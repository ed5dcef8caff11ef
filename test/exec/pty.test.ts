import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess, startProcess } from '../../src/exec/spawn.js';
import { firstLineNumber, groupGone } from './helpers.js';

const cwd = mkdtempSync(join(tmpdir(), 'rig-exec-pty-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('PTY processes', () => {
  it('report output and exit code', async () => {
    const result = await runProcess({ argv: ['sh', '-c', 'echo hi; exit 5'], cwd, tty: true });
    expect(result.exitCode).toBe(5);
    expect(result.output).toBe('hi\r\n');
    expect(result.totalBytes).toBe(4);
  });

  it('run on a terminal', async () => {
    const result = await runProcess({ argv: ['sh', '-c', 'test -t 0 && test -t 1 && echo tty'], cwd, tty: true });
    expect(result.output).toBe('tty\r\n');
  });

  it('map signal deaths to 128 + signal', async () => {
    const result = await runProcess({ argv: ['sh', '-c', 'kill -TERM $$'], cwd, tty: true });
    expect(result.exitCode).toBe(143);
  });

  it('kill the whole group on timeout', async () => {
    const result = await runProcess({
      argv: ['sh', '-c', 'echo $$; sleep 100 & sleep 100'],
      cwd,
      tty: true,
      timeoutMs: 300,
    });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBe(124);
    expect(await groupGone(firstLineNumber(result.output))).toBe(true);
  });

  it('deliver Ctrl-C to the foreground command', async () => {
    // A child started from a background shell job inherits SIGINT as ignored (POSIX), and a shell
    // cannot un-ignore it; a program that installs its own handler does, so this checks that the
    // terminal turns the typed Ctrl-C into SIGINT for the foreground group, wherever tests run.
    const program = [
      "process.on('SIGINT', () => { process.stdout.write('got SIGINT\\n'); process.exit(130); });",
      "process.stdout.write('ready\\n');",
      'setTimeout(() => {}, 100000);',
    ].join(' ');
    const proc = await startProcess({ argv: [process.execPath, '-e', program], cwd, tty: true });
    let seen = '';
    const ready = new Promise<void>((resolve) => {
      proc.onOutput((chunk) => {
        seen += chunk.toString();
        if (seen.includes('ready')) resolve();
      });
    });
    await ready;
    await proc.write('\u0003');
    const status = await proc.done;
    expect(status.code).toBe(130);
    expect(seen).toContain('got SIGINT');
    expect(await groupGone(proc.pid)).toBe(true);
  });

  it('pass tty=true to the wrapper and run its cleanup', async () => {
    let tty: boolean | undefined;
    let cleaned = false;
    const result = await runProcess({
      argv: ['sh', '-c', 'echo $W'],
      cwd,
      tty: true,
      wrap: (argv, context) => {
        tty = context.tty;
        return { argv, env: { W: 'wrapped' }, cleanup: () => (cleaned = true) };
      },
    });
    expect(result.output).toBe('wrapped\r\n');
    expect(tty).toBe(true);
    expect(cleaned).toBe(true);
  });

  it('explain a missing working directory', async () => {
    await expect(runProcess({ argv: ['true'], cwd: join(cwd, 'missing'), tty: true })).rejects.toThrow(
      /working directory .*missing does not exist/,
    );
  });
});
