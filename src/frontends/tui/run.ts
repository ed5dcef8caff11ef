// Runs the TUI on the process's terminal over a session port, until the user leaves, the session
// ends, or a signal comes. SIGTERM and SIGHUP (the terminal closed) end the session the same
// way an exit does: the port is closed (which interrupts a running turn and saves the thread).
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { UserInput } from '../../protocol/index.js';
import { TuiApp } from './app.js';
import type { SessionPort } from './session-port.js';
import { detectCapabilities, isDumbTerminal } from './terminal/capabilities.js';
import { ProcessTerminal, guardTerminal, watchTerminalLoss } from './terminal/process-terminal.js';

export interface RunTuiOptions {
  port: SessionPort;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  history?: readonly string[];
  initialPrompt?: UserInput;
  notifications?: boolean;
  alternateScreen?: boolean;
  pickAtStart?: 'resume' | 'fork';
}

// SIGHUP is the terminal closing: watchTerminalLoss handles it with the EIO that comes with it.
const SIGNAL_EXIT: Record<string, number> = { SIGTERM: 143, SIGINT: 130 };
const EXIT_HANGUP = 129;

export async function runTui(options: RunTuiOptions): Promise<number> {
  const env = options.env ?? process.env;
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  if (!stdin.isTTY || !stdout.isTTY) throw new Error('the interactive session needs a terminal on stdin and stdout (use `rig exec` for pipes and scripts)');
  const terminal = new ProcessTerminal(stdin, stdout, env['RIG_TUI_TRACE'] || undefined);
  let app: TuiApp | undefined;
  const loss = watchTerminalLoss(stdin, stdout, (how) => {
    // A closed terminal mid-turn: the turn is interrupted and the thread saved as on any exit.
    // (A SIGHUP sent by hand leaves the terminal there, to be restored as on any exit.)
    if (how === 'error') terminal.gone = true;
    void app?.exit(EXIT_HANGUP);
  });
  const guard = guardTerminal(stdin, stdout, () => Boolean(app?.inAlternateScreen));
  app = new TuiApp({
    terminal,
    port: options.port,
    caps: detectCapabilities(env),
    plain: isDumbTerminal(env),
    cwd: options.cwd,
    notifications: options.notifications ?? true,
    ...(options.alternateScreen ? { alternateScreen: true } : {}),
    ...(options.pickAtStart ? { pickAtStart: options.pickAtStart } : {}),
    ...(options.history ? { history: options.history } : {}),
    ...(options.initialPrompt ? { initialPrompt: options.initialPrompt } : {}),
    fileExists: (path) => existsRelative(options.cwd, path),
  });
  const signals = Object.keys(SIGNAL_EXIT) as NodeJS.Signals[];
  const onSignal = (signal: NodeJS.Signals) => {
    void app!.exit(SIGNAL_EXIT[signal]!);
  };
  for (const signal of signals) process.on(signal, onSignal);
  try {
    app.start();
    return await app.exited;
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
    guard.restore();
    guard.dispose();
    loss.release();
  }
}

function existsRelative(cwd: string, path: string): boolean {
  return existsSync(isAbsolute(path) ? path : join(cwd, path));
}
