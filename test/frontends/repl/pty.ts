// `rig` on a real terminal (a PTY) for the REPL tests: everything the terminal shows, waiting for
// text to appear, and the exit.
import { spawn as spawnPty, type IPty } from '@lydell/node-pty';

export interface Terminal {
  term: IPty;
  /** Everything written to the terminal so far. */
  screen(): string;
  /** Resolves once the terminal has shown `text` (anywhere in its output so far). */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  exited: Promise<{ exitCode: number; signal?: number }>;
}

/** A 120x40 terminal running `file args` in `cwd`, with RIG_HOME and HOME at `home` and no colour. */
export function openTerminal(file: string, args: string[], options: { cwd: string; home: string }): Terminal {
  const term = spawnPty(file, args, {
    cwd: options.cwd,
    cols: 120,
    rows: 40,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: options.home, RIG_HOME: options.home, MOCK_API_KEY: 'sk-mock', TERM: 'xterm', NO_COLOR: '1' },
  });
  let output = '';
  const listeners = new Set<() => void>();
  term.onData((data) => {
    output += data;
    for (const listener of [...listeners]) listener();
  });
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => term.onExit(resolve));
  return {
    term,
    screen: () => output,
    exited,
    waitFor: (text, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!output.includes(text)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => reject(new Error(`the terminal never showed ${JSON.stringify(text)}; it shows:\n${output}`)), timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}
