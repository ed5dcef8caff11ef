// One shape for a running child, whether it talks through pipes or a pseudo-terminal, so the
// one-shot runner and the unified-exec sessions share a single implementation of waiting, killing
// and exit-code mapping.
import { constants as osConstants } from 'node:os';
import type { ProcessScope } from './process-groups.js';

export interface ExitStatus {
  /** Exit code when the process exited normally. */
  code: number | null;
  /** Terminating signal when the process was killed by one. */
  signal: NodeJS.Signals | null;
}

/** What a wrapper may hand back besides the new argv. */
export interface WrappedArgv {
  argv: string[];
  /** Added to the child's environment. */
  env?: Record<string, string>;
  /** Called once after the process finished (or failed to start). */
  cleanup?: () => void;
  /** Open descriptors the child gets as fd 3, 4, ... (pipes only: a PTY cannot pass them). */
  descriptors?: number[];
  /** The same wrapper around any command: it may be started ahead of the next one (warm-sandbox.ts). */
  prepared?: PreparedWrapper;
}

/**
 * A wrapper whose set-up (bubblewrap's namespaces and mounts) does not depend on the command it
 * runs, so a copy can be started before the next command is known and handed that command later.
 */
export interface PreparedWrapper {
  /** Equal keys mean equal set-ups: a copy started for one key runs only commands of that key. */
  key: string;
  /** The wrapper's argv around `inner`, which it starts in `/` (the launcher changes directory). */
  around(inner: string[]): string[];
  /** Fresh descriptors for a copy's fd 3 onward; the caller closes them once it has spawned. */
  openDescriptors(): number[];
  /** Paths the set-up binds: a copy is stale once one of them is a different file than at its start. */
  boundPaths: readonly string[];
}

/**
 * Lets the sandbox room put a wrapper (bwrap, sandbox-exec) in front of the command. Its
 * `WrappedCommand` is a valid return value.
 */
export type ArgvWrapper = (
  argv: string[],
  context: { cwd: string; tty: boolean },
) => string[] | WrappedArgv;

/** Apply a wrapper: the argv to spawn, the environment to give it, and what to run afterwards. */
export function applyWrapper(
  options: StartOptions,
  tty: boolean,
): { argv: string[]; env: Record<string, string | undefined>; cleanup: () => void; descriptors: number[]; prepared?: PreparedWrapper } {
  const baseEnv = options.env ?? process.env;
  if (!options.wrap) return { argv: options.argv, env: baseEnv, cleanup: noop, descriptors: [] };
  const wrapped = options.wrap(options.argv, { cwd: options.cwd, tty });
  if (Array.isArray(wrapped)) return { argv: wrapped, env: baseEnv, cleanup: noop, descriptors: [] };
  let cleaned = false;
  const cleanup = (): void => {
    if (cleaned) return;
    cleaned = true;
    try {
      wrapped.cleanup?.();
    } catch {
      // Cleanup is best effort (temporary mount points); it must not mask the command's result.
    }
  };
  return {
    argv: wrapped.argv,
    env: wrapped.env ? { ...baseEnv, ...wrapped.env } : baseEnv,
    cleanup,
    descriptors: wrapped.descriptors ?? [],
    ...(wrapped.prepared ? { prepared: wrapped.prepared } : {}),
  };
}

const noop = (): void => {};

export interface StartOptions {
  /** Program and arguments; `argv[0]` is looked up on PATH. */
  argv: string[];
  cwd: string;
  /** Full environment for the child (nothing else is inherited). Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /** Applied to `argv` (and may add env and a cleanup) just before spawning. */
  wrap?: ArgvWrapper;
  /**
   * Pipes only: `'ignore'` (default) connects stdin to /dev/null; `'pipe'` keeps it open for
   * `write`. Ignored when `input` is given.
   */
  stdin?: 'ignore' | 'pipe';
  /** Pipes only: written to stdin, which is then closed. */
  input?: string | Uint8Array;
  /** How long to wait for the output pipes to close after the process exited. Default 2000. */
  drainTimeoutMs?: number;
  /** PTY size. */
  cols?: number;
  rows?: number;
  /** The owner whose close or interrupt takes this process down (default: the process-wide scope). */
  scope?: ProcessScope;
}

export interface LiveProcess {
  /** Pid of the child, which is also its process group id. */
  readonly pid: number;
  readonly tty: boolean;
  /** Whether `write` can reach the child. */
  readonly stdinOpen: boolean;
  /** Set as soon as the child itself exited (its output may still be draining). */
  readonly exitStatus: ExitStatus | null;
  /** True once `done` has resolved. */
  readonly finished: boolean;
  /** Resolves after the child exited and its output was drained (or the drain timed out). */
  readonly done: Promise<ExitStatus>;
  /** Resolves when the child itself exited. */
  readonly exited: Promise<ExitStatus>;
  /** Subscribe to output bytes (stdout and stderr interleaved); returns an unsubscribe function. */
  onOutput(listener: (chunk: Buffer) => void): () => void;
  /** Write to the child's stdin; rejects when stdin is closed. */
  write(data: string | Uint8Array): Promise<void>;
  closeStdin(): void;
  /** Terminate the whole process group: SIGTERM, then SIGKILL after `graceMs`. */
  terminate(graceMs?: number): Promise<void>;
}

/** Exit code of a timed-out command, as `timeout(1)` reports it. */
export const TIMEOUT_EXIT_CODE = 124;
const SIGNAL_EXIT_BASE = 128;

export function signalNumber(signal: NodeJS.Signals): number {
  return (osConstants.signals as Record<string, number | undefined>)[signal] ?? 0;
}

export function signalName(num: number): NodeJS.Signals | null {
  for (const [name, value] of Object.entries(osConstants.signals)) {
    if (value === num) return name as NodeJS.Signals;
  }
  return null;
}

/** Shell conventions: timed out → 124; killed by a signal → 128 + signal; else the exit code. */
export function mapExitCode(status: ExitStatus, timedOut: boolean): number {
  if (timedOut) return TIMEOUT_EXIT_CODE;
  if (status.signal) return SIGNAL_EXIT_BASE + signalNumber(status.signal);
  return status.code ?? -1;
}

/** Listener fan-out that never lets one throwing listener starve the others. */
export class OutputFanout {
  private listeners = new Set<(chunk: Buffer) => void>();

  add(listener: (chunk: Buffer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(chunk: Buffer): void {
    for (const listener of this.listeners) {
      try {
        listener(chunk);
      } catch {
        // A consumer's bug must not break output capture for the others.
      }
    }
  }
}
