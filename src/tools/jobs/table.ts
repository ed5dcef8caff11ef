// Background jobs: the thread's long-running commands, started through the orchestrator (policy ->
// approval -> sandbox, like any command) as unified-exec sessions that outlive the call. Every
// harness's job tools (Claude's Bash run_in_background + TaskOutput/TaskStop, DeepSeek's exec_*
// and task_shell_*) share this one table per thread, so an id one tool returned works in another.
// A job's output is kept as a bounded head and tail: a chatty dev server cannot grow memory.
import { randomBytes } from 'node:crypto';
import { HeadTailBuffer } from '../../exec/head-tail-buffer.js';
import type { ExecOutcome, ExecRequest, ToolContext } from '../spec.js';

const TABLE_KEY = 'jobs.table';
/** Output kept per job for readers that want all of it (head and tail of it past this). */
export const JOB_OUTPUT_MAX_BYTES = 256 * 1024;
/** How long a start waits before handing the command to the background. */
export const JOB_START_YIELD_MS = 1000;

export interface Job {
  id: string;
  sessionId: number;
  command: string;
  cwd: string;
  tty: boolean;
  startedAt: number;
  /** All output so far, bounded. */
  output: HeadTailBuffer;
  /** Output no reader has taken yet, bounded. */
  unread: HeadTailBuffer;
  done: boolean;
  exitCode: number | null;
  killed: boolean;
}

export function jobTable(ctx: ToolContext): Map<string, Job> {
  let table = ctx.threadState.get(TABLE_KEY) as Map<string, Job> | undefined;
  if (!table) {
    table = new Map();
    ctx.threadState.set(TABLE_KEY, table);
  }
  return table;
}

export function findJob(ctx: ToolContext, id: string): Job | undefined {
  return jobTable(ctx).get(id);
}

export type StartOutcome = { started: Job } | { finished: ExecOutcome };

/**
 * Start a command as a background job. A command that ends within the start's short wait is not
 * a job: its outcome comes back as a finished command.
 */
export async function startJob(
  ctx: ToolContext,
  request: Omit<ExecRequest, 'yieldTimeMs' | 'background'>,
  newId: (sessionId: number) => string,
): Promise<StartOutcome> {
  const outcome = await ctx.caps.exec({ ...request, yieldTimeMs: JOB_START_YIELD_MS, background: true });
  if (outcome.declined || outcome.sessionId === undefined) return { finished: outcome };
  const job: Job = {
    id: newId(outcome.sessionId),
    sessionId: outcome.sessionId,
    command: request.displayCommand ?? request.command,
    cwd: request.cwd,
    tty: request.tty === true,
    startedAt: Date.now(),
    output: new HeadTailBuffer(JOB_OUTPUT_MAX_BYTES),
    unread: new HeadTailBuffer(JOB_OUTPUT_MAX_BYTES),
    done: false,
    exitCode: null,
    killed: false,
  };
  absorb(job, outcome);
  jobTable(ctx).set(job.id, job);
  return { started: job };
}

/** DeepSeek-TUI's ids: `shell_` and eight hex digits. */
export function shellTaskId(): string {
  return `shell_${randomBytes(4).toString('hex')}`;
}

function absorb(job: Job, outcome: ExecOutcome): void {
  if (outcome.output !== '') {
    const bytes = Buffer.from(outcome.output, 'utf8');
    job.output.push(bytes);
    job.unread.push(bytes);
  }
  if (outcome.sessionId === undefined) {
    job.done = true;
    job.exitCode = outcome.exitCode;
  }
}

/**
 * Bring a job up to date: wait up to `waitMs` for it to end (or for `until` to match its new
 * output), then take what it printed. Without readSession (an engine without unified exec) this
 * falls back to a write_stdin poll.
 */
export async function pollJob(ctx: ToolContext, job: Job, waitMs: number, until?: RegExp): Promise<void> {
  if (job.done) return;
  let outcome: ExecOutcome;
  try {
    outcome = ctx.caps.readSession
      ? await ctx.caps.readSession(job.sessionId, { waitMs, ...(until ? { until } : {}) })
      : await ctx.caps.writeStdin(job.sessionId, '', waitMs);
  } catch {
    // The session is gone (pruned, or the engine closed it): the job has ended without a code.
    job.done = true;
    return;
  }
  absorb(job, outcome);
}

/** Take the output no reader has seen yet. */
export function takeUnread(job: Job): string {
  return job.unread.drain().toString('utf8');
}

/** Kill the job's process group (not just a Ctrl-C: a job without a terminal has no stdin). */
export async function killJob(ctx: ToolContext, job: Job): Promise<void> {
  if (job.done) return;
  await pollJob(ctx, job, 0);
  if (job.done) return;
  if (ctx.caps.closeSession) {
    await ctx.caps.closeSession(job.sessionId);
  } else if (job.tty) {
    await ctx.caps.writeStdin(job.sessionId, '\u0003', 1000).catch(() => undefined);
  }
  job.done = true;
  job.killed = true;
}

/** Type into a job that has a terminal; returns an error text when it cannot take input. */
export async function writeJob(ctx: ToolContext, job: Job, chars: string, waitMs: number): Promise<string | undefined> {
  if (job.done) return undefined;
  if (!job.tty) return `stdin is not available for task ${job.id}: start it with tty=true to send input`;
  let outcome: ExecOutcome;
  try {
    outcome = await ctx.caps.writeStdin(job.sessionId, chars, waitMs);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  absorb(job, outcome);
  return undefined;
}
