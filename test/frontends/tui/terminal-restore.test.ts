// The terminal is always given back: the real `rig tui-demo` (BUILT CLI) in a pseudo-terminal
// under bash, ended by Ctrl+C twice, SIGTERM and SIGHUP, and a process that crashes with the
// guard installed; after each, bash's `stty -a` must show a cooked terminal (icanon, echo) and
// the TUI's last bytes must turn its modes off.
import { spawn, type IPty } from '@lydell/node-pty';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { RESTORE_TERMINAL } from '../../../src/frontends/tui/terminal/ansi.js';
import { REPO_ROOT, removeDir, tempDir } from '../../support/workspace.js';

const RIG = join(REPO_ROOT, 'bin', 'rig.js');

interface Session {
  pty: IPty;
  output: () => string;
  waitFor: (text: string, timeoutMs?: number) => Promise<void>;
}

const open: IPty[] = [];
afterEach(() => {
  for (const pty of open.splice(0)) {
    try {
      pty.kill();
    } catch {
      // Already gone.
    }
  }
});

function session(script: string): Session {
  const pty = spawn('bash', ['--norc', '--noprofile', '-c', script], { cols: 80, rows: 24, cwd: REPO_ROOT, env: { ...process.env, TERM: 'xterm-256color', PS1: '$ ' } as Record<string, string> });
  open.push(pty);
  let output = '';
  const listeners = new Set<() => void>();
  pty.onData((data) => {
    output += data;
    for (const listener of listeners) listener();
  });
  return {
    pty,
    output: () => output,
    waitFor: (text, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!output.includes(text)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${JSON.stringify(text)}; output so far: ${JSON.stringify(output.slice(-800))}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}

/** The pid of the `node` child of the pty's bash. */
function rigPid(pty: IPty): number {
  const pid = execFileSync('pgrep', ['-P', String(pty.pid), '-f', 'rig.js'], { encoding: 'utf8' }).trim().split('\n')[0];
  return Number(pid);
}

const AFTER = 'echo "exit=$?"; stty -a | tr " " "\\n" | grep -E "^-?(icanon|echo)$" | tr "\\n" " "; echo END';

function expectCooked(output: string): void {
  const tail = output.slice(output.lastIndexOf('exit='));
  expect(tail).toMatch(/icanon echo END|echo icanon END/);
  expect(tail).not.toContain('-icanon');
  expect(tail).not.toContain('-echo ');
}

describe('terminal restore', () => {
  it('Ctrl+C twice: exit 0, modes off, terminal cooked', async () => {
    const s = session(`node ${RIG} tui-demo; ${AFTER}`);
    await s.waitFor('sk rig anything');
    s.pty.write('\x03');
    await s.waitFor('Ctrl+C again');
    s.pty.write('\x03');
    await s.waitFor('END');
    expect(s.output()).toContain('exit=0');
    expect(s.output()).toContain(RESTORE_TERMINAL);
    expectCooked(s.output());
  });

  it('SIGTERM mid-turn: exit 143, modes off, terminal cooked', async () => {
    const s = session(`node ${RIG} tui-demo; ${AFTER}`);
    await s.waitFor('sk rig anything');
    s.pty.write('fix it\r');
    await s.waitFor('Working');
    process.kill(rigPid(s.pty), 'SIGTERM');
    await s.waitFor('END');
    expect(s.output()).toContain('exit=143');
    expect(s.output()).toContain(RESTORE_TERMINAL);
    expectCooked(s.output());
  });

  it('SIGHUP: exit 129, terminal cooked', async () => {
    const s = session(`node ${RIG} tui-demo; ${AFTER}`);
    await s.waitFor('sk rig anything');
    process.kill(rigPid(s.pty), 'SIGHUP');
    await s.waitFor('END');
    expect(s.output()).toContain('exit=129');
    expectCooked(s.output());
  });

  it('a crash (uncaught exception) restores the terminal before the process dies', async () => {
    const dir = tempDir('rig-tui-crash-');
    onTestFinished(() => removeDir(dir));
    const entry = join(dir, 'crash.mjs');
    await build({
      stdin: {
        contents: `import { guardTerminal } from './src/frontends/tui/terminal/process-terminal.ts';
          process.stdin.setRawMode(true);
          process.stdout.write('\\x1b[?2004h\\x1b[?25lRAW\\n');
          guardTerminal(process.stdin, process.stdout, () => false);
          setTimeout(() => { throw new Error('boom in the TUI'); }, 50);`,
        resolveDir: REPO_ROOT,
        loader: 'ts',
      },
      outfile: entry,
      bundle: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      logLevel: 'warning',
    });
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const s = session(`node ${entry}; ${AFTER}`);
    await s.waitFor('END');
    expect(s.output()).toContain('exit=1');
    expect(s.output()).toContain('the TUI crashed: Error: boom in the TUI');
    expect(s.output()).toContain(RESTORE_TERMINAL);
    expectCooked(s.output());
  });
});
