// The real `rig` in tmux for the TUI's end-to-end tests: a tmux server of its own (so the user's
// tmux and its options never take part), one session per launch, capture-pane to read the screen.
import { execFileSync } from 'node:child_process';
import { RIG_BIN } from '../../../support/workspace.js';

export const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface TmuxRig {
  /** Starts `rig ARGS` (a shell word list) in `cwd`; the shell prints EXIT=<code> after it. */
  launch(args: string, options: { cwd: string; home: string; env?: string }): void;
  screen(): string;
  /** The scrollback and the screen. */
  history(): string;
  /** The screen with its colours and attributes as escape sequences (capture-pane -e). */
  styled(): string;
  keys(...names: string[]): void;
  type(text: string): void;
  waitFor(what: string | RegExp, timeoutMs?: number): Promise<string>;
  /** tmux's format variable for the current pane, e.g. alternate_on. */
  pane(format: string): string;
  clearHistory(): void;
  close(): void;
}

export function tmuxRig(name: string): TmuxRig {
  const base = `${name}-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', base, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  // A session that outlives the others, so the server stays up between launches.
  tmux('new-session', '-d', '-s', `${base}-keep`, 'sleep 600');
  let launches = 0;
  // Each launch gets a session of its own: a name reused at once can still be taken.
  let session = base;
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  return {
    launch(args, { cwd, home, env = '' }) {
      // `env` comes last, so it can change TERM or NO_COLOR ("NO_COLOR=" turns colour back on).
      const vars = `RIG_HOME='${home}' HOME='${home}' MOCK_API_KEY=sk-mock TERM=xterm-256color NO_COLOR=1 ${env}`;
      if (launches > 0) tmux('kill-session', '-t', session);
      session = `${base}-${++launches}`;
      tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '30', `cd '${cwd}' && env ${vars} '${process.execPath}' '${RIG_BIN}' ${args}; echo "EXIT=$?"; sleep 60`);
    },
    screen,
    styled: () => tmux('capture-pane', '-p', '-e', '-t', session),
    history: () => tmux('capture-pane', '-p', '-S', '-', '-t', session),
    keys: (...names) => void tmux('send-keys', '-t', session, ...names),
    type: (text) => void tmux('send-keys', '-t', session, '-l', text),
    async waitFor(what, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const shown = screen();
        if (typeof what === 'string' ? shown.includes(what) : what.test(shown)) return shown;
        if (Date.now() > deadline) throw new Error(`the terminal never showed ${String(what)}; it shows:\n${shown}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    pane: (format) => tmux('display-message', '-p', '-t', session, `#{${format}}`).trim(),
    clearHistory: () => void tmux('clear-history', '-t', session),
    close() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
