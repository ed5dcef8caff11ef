// Child processes over pipes, and the one-shot runner used by the shell tools: each child leads
// its own process group so a timeout or an interrupt takes down everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { HeadTailBuffer, DEFAULT_OUTPUT_MAX_BYTES } from './head-tail-buffer.js';
import {
  OutputFanout,
  applyWrapper,
  mapExitCode,
  type ExitStatus,
  type LiveProcess,
  type StartOptions,
} from './live-process.js';
import { processWideScope, terminateProcessGroup } from './process-groups.js';
import { startPtyProcess } from './pty.js';
import { fillWarmSandbox, takeWarmSandbox, wantWarmSandbox } from './warm-sandbox.js';

/** After a kill (or exit), output pipes are drained for at most this long. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 2_000;
/** A sandboxed command still running after this long gets the next commands' sandboxes started anyway. */
const REFILL_WHILE_RUNNING_MS = 100;
/** SIGTERM → SIGKILL grace. */
export const DEFAULT_KILL_GRACE_MS = 250;
/** Live output callbacks per call, so a chatty command cannot flood the event stream. */
export const MAX_OUTPUT_EVENTS_PER_CALL = 10_000;

export interface RunOptions extends StartOptions {
  /** Run under a pseudo-terminal (loads node-pty on first use). */
  tty?: boolean;
  /** Kill the process group after this long; the result then has exit code 124. */
  timeoutMs?: number;
  /** Aborting kills the process group. */
  signal?: AbortSignal;
  /** Live output deltas (at most `maxOutputEvents` calls). */
  onOutput?: (chunk: Buffer) => void;
  /** Capture bound (head + tail). Default 1 MiB. */
  maxOutputBytes?: number;
  maxOutputEvents?: number;
  killGraceMs?: number;
}

/** Field-compatible with `ExecOutcome` (src/tools/spec.ts). */
export interface RunResult {
  /** Mapped: 124 when timed out, 128+N when killed by signal N, else the exit code. */
  exitCode: number;
  signal: NodeJS.Signals | null;
  /** Interleaved stdout+stderr, head+tail bounded with a `... N bytes omitted ...` marker. */
  output: string;
  totalBytes: number;
  omittedBytes: number;
  wallTimeMs: number;
  timedOut: boolean;
  aborted: boolean;
}

/** Start a child over pipes or (with `tty`) a pseudo-terminal. */
export function startProcess(options: StartOptions & { tty?: boolean }): Promise<LiveProcess> {
  return options.tty ? startPtyProcess(options) : startPipeProcess(options);
}

/** Run to completion, capturing output, honouring the timeout and the abort signal. */
export async function runProcess(options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  if (options.signal?.aborted) {
    // Nothing was started; report it like a command stopped by SIGTERM.
    return {
      exitCode: mapExitCode({ code: null, signal: 'SIGTERM' }, false),
      signal: null,
      output: '',
      totalBytes: 0,
      omittedBytes: 0,
      wallTimeMs: 0,
      timedOut: false,
      aborted: true,
    };
  }
  const proc = await startProcess(options);
  const buffer = new HeadTailBuffer(options.maxOutputBytes ?? DEFAULT_OUTPUT_MAX_BYTES);
  const onOutput = options.onOutput;
  const maxEvents = options.maxOutputEvents ?? MAX_OUTPUT_EVENTS_PER_CALL;
  let events = 0;
  proc.onOutput((chunk) => {
    buffer.push(chunk);
    if (onOutput && events < maxEvents) {
      events++;
      onOutput(chunk);
    }
  });

  let timedOut = false;
  let aborted = false;
  const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  let timer: NodeJS.Timeout | undefined;
  if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
    timer = setTimeout(() => {
      if (proc.exitStatus) return;
      timedOut = true;
      void proc.terminate(grace);
    }, options.timeoutMs);
  }
  const onAbort = (): void => {
    if (proc.finished) return;
    aborted = true;
    void proc.terminate(grace);
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let status: ExitStatus;
  try {
    status = await proc.done;
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  return {
    exitCode: mapExitCode(status, timedOut),
    signal: status.signal,
    output: buffer.toString(),
    totalBytes: buffer.totalBytes,
    omittedBytes: buffer.omittedBytes,
    wallTimeMs: performance.now() - started,
    timedOut,
    aborted,
  };
}

/** Start a child with piped stdout/stderr in its own process group. */
export async function startPipeProcess(options: StartOptions): Promise<LiveProcess> {
  const { argv, env, cleanup, descriptors, prepared } = applyWrapper(options, false);
  const program = argv[0];
  if (!program) {
    cleanup();
    throw new Error('Cannot run an empty command: the argv has no program.');
  }
  const stdinMode = options.input !== undefined || options.stdin === 'pipe' ? 'pipe' : 'ignore';
  const scope = options.scope ?? processWideScope;
  scope.arm();
  // A sandbox started ahead for this one's set-up (warm-sandbox.ts), else a fresh one. A copy's
  // stdin is /dev/null, so a command that writes to stdin gets a fresh one.
  const preparable = stdinMode === 'ignore' ? prepared : undefined;
  const warm = preparable ? takeWarmSandbox(preparable, { argv: options.argv, cwd: options.cwd, env }) : undefined;
  const child: ChildProcess =
    warm ??
    spawn(program, argv.slice(1), {
      cwd: options.cwd,
      env,
      detached: true,
      stdio: [stdinMode, 'pipe', 'pipe', ...descriptors],
    });
  // The copies for the next commands start once this one has finished (warm-sandbox.ts says why),
  // or once it has run for a while: a server left running must not leave the next ones without.
  const refill = preparable ? setTimeout(() => fillWarmSandbox(preparable, `a command was still running after ${REFILL_WHILE_RUNNING_MS} ms`), REFILL_WHILE_RUNNING_MS).unref() : undefined;
  if (child.pid === undefined) {
    clearTimeout(refill);
    const err = await new Promise<Error>((resolve) => child.once('error', resolve));
    cleanup();
    throw describeSpawnError(err, program, options.cwd);
  }
  const pid = child.pid;
  scope.register(pid);

  const fanout = new OutputFanout();
  const forward = (chunk: Buffer): void => fanout.emit(chunk);
  child.stdout!.on('data', forward);
  child.stderr!.on('data', forward);
  const stdin = child.stdin;
  let stdinOpen = stdin !== null;
  if (stdin) {
    // EPIPE when the child stops reading is normal; it must not crash rig.
    stdin.on('error', () => {
      stdinOpen = false;
    });
    if (options.input !== undefined) {
      stdin.end(options.input);
      stdinOpen = false;
    }
  }

  let exitStatus: ExitStatus | null = null;
  let finished = false;
  let resolveExited!: (status: ExitStatus) => void;
  let resolveDone!: (status: ExitStatus) => void;
  const exited = new Promise<ExitStatus>((resolve) => (resolveExited = resolve));
  const done = new Promise<ExitStatus>((resolve) => (resolveDone = resolve));
  let drainTimer: NodeJS.Timeout | undefined;

  const finish = (): void => {
    if (finished || !exitStatus) return;
    finished = true;
    stdinOpen = false;
    if (drainTimer) clearTimeout(drainTimer);
    scope.forgetIfEmpty(pid);
    cleanup();
    resolveDone(exitStatus);
    if (refill) {
      clearTimeout(refill);
      wantWarmSandbox(preparable!);
    }
  };
  child.once('exit', (code, signal) => {
    exitStatus = { code, signal };
    resolveExited(exitStatus);
    // A background job may hold the pipes open forever; stop reading after the drain window.
    drainTimer = setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish();
    }, options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
  });
  child.once('close', finish);

  return {
    pid,
    tty: false,
    get stdinOpen() {
      return stdinOpen;
    },
    get exitStatus() {
      return exitStatus;
    },
    get finished() {
      return finished;
    },
    done,
    exited,
    onOutput: (listener) => fanout.add(listener),
    write(data) {
      if (!stdin || !stdinOpen) {
        return Promise.reject(new Error('stdin is closed for this process'));
      }
      return new Promise<void>((resolve, reject) => {
        stdin.write(data, (err) => (err ? reject(err) : resolve()));
      });
    },
    closeStdin() {
      stdinOpen = false;
      stdin?.end();
    },
    terminate: (graceMs = DEFAULT_KILL_GRACE_MS) => terminateProcessGroup(pid, graceMs),
  };
}

function describeSpawnError(err: Error, program: string, cwd: string): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    if (!isDirectory(cwd)) {
      return new Error(`Cannot run \`${program}\`: the working directory ${cwd} does not exist.`);
    }
    return new Error(`Cannot run \`${program}\`: no such program (check the name and PATH).`);
  }
  if (code === 'EACCES') {
    return new Error(`Cannot run \`${program}\`: permission denied (is it executable?).`);
  }
  return new Error(`Cannot run \`${program}\`: ${err.message}`);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
