// Runs one hook handler: a real child process in its own process group, the event's JSON on
// stdin, stdout and stderr captured apart (bounded), killed with its group on timeout or abort.
import { spawn } from 'node:child_process';
import { processWideScope, terminateProcessGroup, type ProcessScope } from '../exec/index.js';

/** Per stream; past this the rest of the output is dropped (a hook's answer is small). */
const MAX_CAPTURE_BYTES = 1024 * 1024;

export interface CommandRunResult {
  /** Unix seconds. */
  startedAt: number;
  completedAt: number;
  durationMs: number;
  /** Undefined when the process died by a signal or never ran. */
  exitCode?: number;
  stdout: string;
  stderr: string;
  /** Spawn failure, timeout or abort: the run failed without an answer. */
  error?: string;
}

export interface RunCommandOptions {
  command: string;
  stdin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutSec: number;
  shell?: string;
  signal?: AbortSignal;
  /**
   * Who owns the hook's processes (a thread's scope, so closing the thread takes down what its
   * hooks left running); default: the scope of processes without an owner, killed when rig exits.
   */
  scope?: ProcessScope;
}

function capture(stream: NodeJS.ReadableStream | null): { text: () => string } {
  const chunks: Buffer[] = [];
  let size = 0;
  stream?.on('data', (chunk: Buffer) => {
    if (size >= MAX_CAPTURE_BYTES) return;
    const room = MAX_CAPTURE_BYTES - size;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(chunk.length, room);
  });
  return { text: () => Buffer.concat(chunks).toString('utf8') };
}

export function runHookCommand(options: RunCommandOptions): Promise<CommandRunResult> {
  const startedMs = Date.now();
  const started = performance.now();
  const finish = (fields: Omit<CommandRunResult, 'startedAt' | 'completedAt' | 'durationMs'>): CommandRunResult => ({
    startedAt: Math.floor(startedMs / 1000),
    completedAt: Math.floor(Date.now() / 1000),
    durationMs: Math.round(performance.now() - started),
    ...fields,
  });
  const shell = options.shell ?? (options.env['SHELL'] || '/bin/sh');
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve(finish({ stdout: '', stderr: '', error: 'hook cancelled before it started' }));
      return;
    }
    let child;
    try {
      child = spawn(shell, ['-lc', options.command], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (error) {
      resolve(finish({ stdout: '', stderr: '', error: `failed to start hook: ${(error as Error).message}` }));
      return;
    }
    const pid = child.pid;
    const scope = options.scope ?? processWideScope;
    if (pid !== undefined) scope.register(pid);
    const out = capture(child.stdout);
    const err = capture(child.stderr);
    let failure: string | undefined;
    let settled = false;
    const kill = (why: string) => {
      if (failure !== undefined) return;
      failure = why;
      if (pid !== undefined) void terminateProcessGroup(pid);
    };
    const timer = setTimeout(() => kill(`hook timed out after ${options.timeoutSec}s`), options.timeoutSec * 1000);
    const onAbort = () => kill('hook cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(finish({ stdout: '', stderr: '', error: `failed to start hook: ${error.message}` }));
    });
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Children a hook leaves running on purpose (a notifier sent to the background) may stay;
      // their scope still takes them down when it closes, or when rig exits.
      if (pid !== undefined) scope.forgetIfEmpty(pid);
      resolve(
        finish({
          stdout: failure ? '' : out.text(),
          stderr: failure ? '' : err.text(),
          ...(code !== null && failure === undefined ? { exitCode: code } : {}),
          ...(failure !== undefined ? { error: failure } : {}),
        }),
      );
    });
    // A hook that never reads stdin must not fail the run (EPIPE).
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.stdin);
  });
}
