// Unified exec: exec_command starts a command and waits a bounded time; a command still running
// then becomes a session the model polls or types into with write_stdin. One manager per thread:
// sessions never leak between threads.
import { resolve as resolvePath } from 'node:path';
import { HeadTailBuffer } from './head-tail-buffer.js';
import { mapExitCode, type ArgvWrapper, type LiveProcess } from './live-process.js';
import type { ProcessScope } from './process-groups.js';
import { buildShellArgv, detectUserShell, shellFromPath, type ShellInfo } from './shell.js';
import { startProcess } from './spawn.js';
import { newChunkId } from './format.js';
import { approxTokensFromBytes } from './truncate.js';

/** Variables every unified-exec command gets: plain, uncoloured, unpaged, UTF-8 output. */
export const UNIFIED_EXEC_ENV: Readonly<Record<string, string>> = {
  NO_COLOR: '1',
  TERM: 'dumb',
  LANG: 'C.UTF-8',
  LC_CTYPE: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  COLORTERM: '',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GH_PAGER: 'cat',
  RIG_CI: '1',
};

export const MIN_YIELD_TIME_MS = 250;
export const MAX_YIELD_TIME_MS = 30_000;
export const DEFAULT_EXEC_YIELD_TIME_MS = 10_000;
export const DEFAULT_WRITE_STDIN_YIELD_TIME_MS = 250;
export const MIN_EMPTY_POLL_YIELD_TIME_MS = 5_000;
export const DEFAULT_BACKGROUND_MAX_YIELD_TIME_MS = 300_000;
export const MAX_LIVE_SESSIONS = 64;
export const PROTECTED_RECENT_SESSIONS = 8;
/** After the process exited, wait at most this long for its last output. */
const POST_EXIT_OUTPUT_WAIT_MS = 50;

/** An error whose message is the exact text to send back to the model. */
export class UnifiedExecError extends Error {
  override name = 'UnifiedExecError';
}

export interface UnifiedExecManagerOptions {
  /** Base environment (already filtered by the shell environment policy). Default process.env. */
  env?: Record<string, string | undefined>;
  /** Default shell. Default: the detected user shell (cached). */
  shell?: ShellInfo;
  /** Login shell (`-lc`) when the call does not say. Default false: no profile cost per call. */
  defaultLogin?: boolean;
  /** When false, a call asking for `login: true` is refused. Default true. */
  allowLoginShell?: boolean;
  /** Sandbox wrapper applied to every command unless the call brings its own. */
  wrap?: ArgvWrapper;
  maxSessions?: number;
  /** The N most recently used sessions are never pruned. */
  protectedRecentSessions?: number;
  /** Upper bound of an empty write_stdin poll (config `background_terminal_max_timeout`). */
  backgroundMaxYieldMs?: number;
  /** Lower bound of an empty poll (5000; tests lower it). */
  minEmptyPollMs?: number;
  /** The owner (thread) whose processes these are. */
  scope?: ProcessScope;
}

export interface ExecCommandRequest {
  cmd: string;
  /** The turn's working directory (absolute). */
  cwd: string;
  /** Model-given directory, resolved against `cwd`. */
  workdir?: string;
  /** Shell binary to use instead of the default. */
  shell?: string;
  login?: boolean;
  tty?: boolean;
  yieldTimeMs?: number;
  /** Extra variables for this command, applied last. */
  env?: Record<string, string>;
  /** Sandbox wrapper for this command (overrides the manager's). */
  wrap?: ArgvWrapper;
  /** Stops waiting early; the process keeps running as a session. */
  signal?: AbortSignal;
  /** Output deltas for as long as the process lives (also across later polls). */
  onOutput?: (chunk: Buffer) => void;
  /** Called once when the process has exited, whenever that is. */
  onExit?: (exit: { exitCode: number; wallTimeMs: number }) => void;
}

/** Read a background job's new output: no minimum wait, and the wait may end on a pattern. */
export interface ReadSessionRequest {
  sessionId: number;
  /** How long to wait at most (0 = just take what is there). */
  waitMs: number;
  /** End the wait as soon as the output read in this call matches. */
  until?: RegExp;
  /** Stops waiting; unlike a write_stdin poll, the job keeps running. */
  signal?: AbortSignal;
}

export interface WriteStdinRequest {
  sessionId: number;
  /** Text to type; empty = just poll. */
  chars?: string;
  yieldTimeMs?: number;
  signal?: AbortSignal;
}

/** Field-compatible with `ExecOutcome` and with `UnifiedExecResponse` (format.ts). */
export interface UnifiedExecResult {
  chunkId: string;
  wallTimeMs: number;
  /** Mapped exit code when the process finished during this call; null while it runs. */
  exitCode: number | null;
  /** Set while the process keeps running. */
  sessionId?: number;
  /** Output since the previous call for this process (1 MiB head+tail bounded). */
  output: string;
  totalBytes: number;
  originalTokenCount: number;
  timedOut: boolean;
  /** Sessions killed to make room for this one. */
  prunedSessionIds: number[];
  /** The argv that ran (before any sandbox wrapper). */
  command: string[];
}

interface Session {
  id: number;
  proc: LiveProcess;
  command: string[];
  pending: HeadTailBuffer;
  lastUsed: number;
  wakers: Set<() => void>;
}

export class UnifiedExecManager {
  private readonly sessions = new Map<number, Session>();
  private readonly options: UnifiedExecManagerOptions;
  private shell: ShellInfo | undefined;
  private useTick = 0;
  private readonly pendingKills = new Set<Promise<void>>();

  constructor(options: UnifiedExecManagerOptions = {}) {
    this.options = options;
    this.shell = options.shell;
  }

  /** Ids of the sessions currently kept (running or exited but not yet polled). */
  get sessionIds(): number[] {
    return [...this.sessions.keys()];
  }

  async execCommand(request: ExecCommandRequest): Promise<UnifiedExecResult> {
    const allowLogin = this.options.allowLoginShell ?? true;
    if (request.login === true && !allowLogin) {
      throw new UnifiedExecError('login shell is disabled by config; omit `login` or set it to false.');
    }
    const login = request.login ?? (allowLogin && (this.options.defaultLogin ?? false));
    this.shell ??= detectUserShell();
    const shell = request.shell ? shellFromPath(request.shell) : this.shell;
    const command = buildShellArgv(shell, request.cmd, login);
    const cwd = resolvePath(request.cwd, request.workdir ?? '.');
    const env = { ...(this.options.env ?? process.env), ...UNIFIED_EXEC_ENV, ...request.env };

    let proc: LiveProcess;
    try {
      proc = await startProcess({
        argv: command,
        cwd,
        env,
        tty: request.tty ?? false,
        stdin: 'ignore',
        wrap: request.wrap ?? this.options.wrap,
        ...(this.options.scope ? { scope: this.options.scope } : {}),
      });
    } catch (err) {
      // `cause` keeps the original error (e.g. the sandbox's SandboxUnavailableError) inspectable.
      throw new UnifiedExecError(
        `exec_command failed for \`${displayArgv(command)}\`: Failed to create unified exec process: ${(err as Error).message}`,
        { cause: err },
      );
    }
    const started = performance.now();
    const session: Session = {
      id: this.allocateId(),
      proc,
      command,
      pending: new HeadTailBuffer(),
      lastUsed: ++this.useTick,
      wakers: new Set(),
    };
    const onOutput = request.onOutput;
    proc.onOutput((chunk) => {
      session.pending.push(chunk);
      onOutput?.(chunk);
    });
    const wake = (): void => {
      for (const waker of session.wakers) waker();
    };
    void proc.exited.then(wake);
    void proc.done.then((status) => {
      wake();
      request.onExit?.({ exitCode: mapExitCode(status, false), wallTimeMs: performance.now() - started });
    });

    // Keep the session before waiting so an interrupted wait never orphans the process.
    const prunedSessionIds: number[] = [];
    if (!proc.finished) {
      const pruned = this.pruneIfFull();
      if (pruned !== undefined) prunedSessionIds.push(pruned);
      this.sessions.set(session.id, session);
    }
    const yieldMs = clamp(request.yieldTimeMs ?? DEFAULT_EXEC_YIELD_TIME_MS, MIN_YIELD_TIME_MS, MAX_YIELD_TIME_MS);
    await this.waitForOutput(session, started + yieldMs, request.signal);
    return { ...this.collect(session, started), prunedSessionIds };
  }

  async writeStdin(request: WriteStdinRequest): Promise<UnifiedExecResult> {
    const session = this.sessions.get(request.sessionId);
    if (!session) {
      throw new UnifiedExecError(`write_stdin failed: Unknown process id ${request.sessionId}`);
    }
    session.lastUsed = ++this.useTick;
    const chars = request.chars ?? '';
    if (chars.length > 0) {
      if (!session.proc.tty) {
        throw new UnifiedExecError(
          'write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open',
        );
      }
      try {
        await session.proc.write(chars);
      } catch {
        // A process that exited while we typed is reported below with its exit code.
        if (!session.proc.exitStatus) throw new UnifiedExecError('write_stdin failed: failed to write to stdin');
      }
    }
    const requested = Math.max(request.yieldTimeMs ?? DEFAULT_WRITE_STDIN_YIELD_TIME_MS, MIN_YIELD_TIME_MS);
    const yieldMs =
      chars.length === 0
        ? clamp(
            requested,
            this.options.minEmptyPollMs ?? MIN_EMPTY_POLL_YIELD_TIME_MS,
            this.options.backgroundMaxYieldMs ?? DEFAULT_BACKGROUND_MAX_YIELD_TIME_MS,
          )
        : Math.min(requested, MAX_YIELD_TIME_MS);
    const started = performance.now();
    await this.waitForOutput(session, started + yieldMs, request.signal);
    return { ...this.collect(session, started), prunedSessionIds: [] };
  }

  /**
   * A background job's output since the last read. The wait ends at the deadline, the process's
   * end, the abort, or (with `until`) as soon as the output read here matches the pattern; a
   * matched read takes the output up to now, so the next read starts after it.
   */
  async readSession(request: ReadSessionRequest): Promise<UnifiedExecResult> {
    const session = this.sessions.get(request.sessionId);
    if (!session) throw new UnifiedExecError(`Unknown process id ${request.sessionId}`);
    session.lastUsed = ++this.useTick;
    const started = performance.now();
    const deadline = started + Math.max(0, request.waitMs);
    const until = request.until;
    if (until) {
      let seen = '';
      const watch = (chunk: Buffer): void => {
        // Only the last 64 KiB matter for a match that spans chunks; the rest need not be kept.
        seen = (seen + chunk.toString('utf8')).slice(-65_536);
        if (until.test(seen)) for (const waker of session.wakers) waker();
      };
      // What arrived before this call counts too: the pattern may already be there.
      seen = session.pending.toString().slice(-65_536);
      if (!until.test(seen)) {
        const unsubscribe = session.proc.onOutput(watch);
        try {
          await this.waitForOutput(session, deadline, request.signal, () => until.test(seen));
        } finally {
          unsubscribe();
        }
      }
    } else {
      await this.waitForOutput(session, deadline, request.signal);
    }
    return { ...this.collect(session, started), prunedSessionIds: [] };
  }

  /**
   * Kill one session's process group and forget it; false when the id is unknown. Resolves once the
   * process is gone and its exit was reported (onExit has run), so callers can rely on its item.
   */
  async closeSession(sessionId: number): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (!session) return false;
    this.sessions.delete(sessionId);
    await endProcess(session.proc);
    return true;
  }

  /** Kill every session's process group (thread end, shutdown); resolves once all exits were reported. */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all([...all.map((s) => endProcess(s.proc)), ...this.pendingKills]);
  }

  private allocateId(): number {
    for (;;) {
      const id = 1000 + Math.floor(Math.random() * 99_000);
      if (!this.sessions.has(id)) return id;
    }
  }

  /**
   * Wait until the deadline, the process's end, or the abort. Output arriving meanwhile does not
   * end the wait: the model asked for this much time, and more output per call means fewer calls.
   */
  private async waitForOutput(session: Session, deadline: number, signal?: AbortSignal, satisfied?: () => boolean): Promise<void> {
    let postExitDeadline: number | undefined;
    for (;;) {
      if (session.proc.finished || signal?.aborted || satisfied?.()) return;
      const now = performance.now();
      let until = deadline;
      if (session.proc.exitStatus) {
        postExitDeadline ??= Math.min(deadline, now + POST_EXIT_OUTPUT_WAIT_MS);
        until = postExitDeadline;
      }
      if (now >= until) return;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          session.wakers.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, until - now);
        session.wakers.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  private collect(session: Session, started: number): Omit<UnifiedExecResult, 'prunedSessionIds'> {
    const totalBytes = session.pending.totalBytes;
    const output = session.pending.drain().toString('utf8');
    const status = session.proc.exitStatus;
    const base = {
      chunkId: newChunkId(),
      wallTimeMs: performance.now() - started,
      output,
      totalBytes,
      originalTokenCount: approxTokensFromBytes(Buffer.byteLength(output, 'utf8')),
      timedOut: false,
      command: session.command,
    };
    if (status) {
      this.sessions.delete(session.id);
      return { ...base, exitCode: mapExitCode(status, false) };
    }
    return { ...base, exitCode: null, sessionId: session.id };
  }

  /** When full, drop the least recently used session, exited ones first, never a recent one. */
  private pruneIfFull(): number | undefined {
    const max = this.options.maxSessions ?? MAX_LIVE_SESSIONS;
    if (this.sessions.size < max) return undefined;
    const byRecency = [...this.sessions.values()].sort((a, b) => b.lastUsed - a.lastUsed);
    const protectedIds = new Set(
      byRecency.slice(0, this.options.protectedRecentSessions ?? PROTECTED_RECENT_SESSIONS).map((s) => s.id),
    );
    const candidates = byRecency.reverse().filter((s) => !protectedIds.has(s.id));
    const victim = candidates.find((s) => s.proc.exitStatus !== null) ?? candidates[0];
    if (!victim) return undefined;
    this.sessions.delete(victim.id);
    const kill = victim.proc.terminate().finally(() => this.pendingKills.delete(kill));
    this.pendingKills.add(kill);
    return victim.id;
  }
}

async function endProcess(proc: LiveProcess): Promise<void> {
  await proc.terminate();
  await proc.done;
  // onExit listeners were attached to `done` first; let them run before the caller continues.
  await Promise.resolve();
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** argv as a shell would need it typed (for error messages). */
function displayArgv(argv: string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}
