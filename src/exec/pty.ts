// Pseudo-terminal children. node-pty is a native module; it is imported on the first tty request
// only, so commands that never ask for a terminal never pay for loading it.
import { statSync } from 'node:fs';
import {
  OutputFanout,
  applyWrapper,
  signalName,
  type ExitStatus,
  type LiveProcess,
  type StartOptions,
} from './live-process.js';
import { processWideScope, terminateProcessGroup } from './process-groups.js';

type PtyModule = typeof import('@lydell/node-pty');

let ptyModule: Promise<PtyModule> | undefined;

function loadPty(): Promise<PtyModule> {
  ptyModule ??= import('@lydell/node-pty').catch((err: unknown) => {
    ptyModule = undefined;
    throw new Error(
      `Cannot allocate a terminal: the @lydell/node-pty module failed to load (${String(err)}). ` +
        'Run the command without tty, or reinstall rig for this platform.',
    );
  });
  return ptyModule;
}

const DEFAULT_COLS = 80;
const DEFAULT_ROWS = 24;
const KILL_GRACE_MS = 250;

/**
 * Start a child on a new pseudo-terminal. The child is a session leader (forkpty), so its pid is
 * its process group id and the terminal's foreground group: Ctrl-C written to it reaches the
 * command.
 */
export async function startPtyProcess(options: StartOptions): Promise<LiveProcess> {
  const pty = await loadPty();
  const { argv, env: wrappedEnv, cleanup, descriptors } = applyWrapper(options, true);
  const program = argv[0];
  if (!program) {
    cleanup();
    throw new Error('Cannot run an empty command: the argv has no program.');
  }
  if (descriptors.length > 0) {
    cleanup();
    throw new Error('A PTY cannot pass extra descriptors to the command: the wrapper must not ask for them when it wraps for a terminal.');
  }
  // The pty helper reports a missing directory only as text on the terminal; say it plainly.
  if (!isDirectory(options.cwd)) {
    cleanup();
    throw new Error(`Cannot run \`${program}\`: the working directory ${options.cwd} does not exist.`);
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(wrappedEnv)) {
    if (value !== undefined) env[key] = value;
  }
  const scope = options.scope ?? processWideScope;
  scope.arm();
  let term: import('@lydell/node-pty').IPty;
  try {
    term = pty.spawn(program, argv.slice(1), {
      name: env.TERM ?? 'xterm-256color',
      cols: options.cols ?? DEFAULT_COLS,
      rows: options.rows ?? DEFAULT_ROWS,
      cwd: options.cwd,
      env,
      encoding: null,
    });
  } catch (err) {
    cleanup();
    throw new Error(`Cannot run \`${program}\` on a terminal: ${(err as Error).message}`);
  }
  const pid = term.pid;
  scope.register(pid);

  const fanout = new OutputFanout();
  term.onData((data: string | Buffer) => {
    fanout.emit(typeof data === 'string' ? Buffer.from(data) : data);
  });

  let exitStatus: ExitStatus | null = null;
  let finished = false;
  let resolveDone!: (status: ExitStatus) => void;
  const done = new Promise<ExitStatus>((resolve) => (resolveDone = resolve));
  // node-pty reports exit only after the terminal's output was read to the end (bounded wait),
  // so exit and drain coincide here.
  term.onExit(({ exitCode, signal }) => {
    const name = signal ? signalName(signal) : null;
    exitStatus = name ? { code: null, signal: name } : { code: exitCode, signal: null };
    finished = true;
    scope.forgetIfEmpty(pid);
    cleanup();
    resolveDone(exitStatus);
  });

  return {
    pid,
    tty: true,
    get stdinOpen() {
      return !finished;
    },
    get exitStatus() {
      return exitStatus;
    },
    get finished() {
      return finished;
    },
    done,
    exited: done,
    onOutput: (listener) => fanout.add(listener),
    write(data) {
      if (finished) return Promise.reject(new Error('stdin is closed for this process'));
      term.write(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
      return Promise.resolve();
    },
    closeStdin() {
      // A terminal has no separate stdin to close; end-of-file is Ctrl-D at line start.
      if (!finished) term.write('\u0004');
    },
    terminate: (graceMs = KILL_GRACE_MS) => terminateProcessGroup(pid, graceMs),
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
