// DeepSeek-TUI's background shell tools over the thread's job table: exec_shell_wait / exec_wait
// and task_shell_wait (poll, incremental output), exec_shell_interact / exec_interact (type, then
// read what came back), exec_shell_cancel (one or all), task_shell_start (exec_shell with
// background on). Contracts and reply texts follow Hmbown/DeepSeek-TUI crates/tui/src/tools/shell.rs
// and tasks.rs @ 1ca495f; the wording of rig's own errors is rig's.
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { boolArg, fail, functionSpec, numberArg, ok, resolvePath, stringArg, type Args } from '../harness/common.js';
import { findJob, jobTable, killJob, pollJob, shellTaskId, startJob, takeUnread, writeJob, type Job } from './table.js';

const DEFAULT_WAIT_MS = 30_000;
const MIN_WAIT_MS = 1000;
const MAX_WAIT_MS = 600_000;
const DEFAULT_INTERACT_MS = 1000;

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

function taskIdArg(args: Args): string | undefined {
  return stringArg(args, 'task_id', 'id');
}

/** The original's "Task <id> not found" (the manager's error, passed through as the tool error). */
function notFound(id: string): ToolResult {
  return fail(`Task ${id} not found`);
}

/**
 * build_shell_delta_tool_result: the new output, or a line for the status when there is none.
 * The exit code is printed as the original's Rust debug form of an optional code.
 */
function deltaResult(job: Job, output: string): ToolResult {
  const failed = job.done && !job.killed && job.exitCode !== 0;
  const success = !failed && !job.killed;
  if (output !== '') return { output, success };
  if (!job.done) return ok('Background task running (no new output).');
  if (job.killed) return fail('Command killed (no new output).');
  if (failed) return fail(`Command failed (exit code: ${job.exitCode === null ? 'None' : `Some(${job.exitCode})`})`);
  return ok('(no new output)');
}

/** jobs.deepseek_wait: exec_shell_wait, exec_wait (wait defaults true) and task_shell_wait (false). */
export function createDeepseekWaitTool(tool: ResolvedTool): ToolSpec {
  const waitByDefault = tool.options['wait_default'] !== false;
  return functionSpec(
    tool,
    {
      description: 'Wait for a background shell task and return incremental output.',
      parameters: { type: 'object', properties: { task_id: { type: 'string' } }, required: ['task_id'] },
      parallelSafe: true,
    },
    async (args, ctx) => {
      const id = taskIdArg(args);
      if (id === undefined) return fail('Missing required field: task_id');
      const job = findJob(ctx, id);
      if (!job) return notFound(id);
      const wait = boolArg(args, 'wait') ?? waitByDefault;
      const waitMs = wait ? clamp(numberArg(args, 'timeout_ms') ?? DEFAULT_WAIT_MS, MIN_WAIT_MS, MAX_WAIT_MS) : 0;
      await pollJob(ctx, job, waitMs);
      const result = deltaResult(job, takeUnread(job));
      // Turn cancellation stops the wait; the task runs on.
      if (wait && ctx.signal.aborted && !job.done) {
        return { ...result, output: `Wait canceled; background shell task ${id} is still running.\n\n${String(result.output)}` };
      }
      return result;
    },
  );
}

/** jobs.deepseek_interact: exec_shell_interact / exec_interact. */
export function createDeepseekInteractTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Send input to a background shell task and return incremental output.',
      parameters: { type: 'object', properties: { task_id: { type: 'string' } }, required: ['task_id'] },
      parallelSafe: false,
    },
    async (args, ctx) => {
      const id = taskIdArg(args);
      if (id === undefined) return fail('Missing required field: task_id');
      const job = findJob(ctx, id);
      if (!job) return notFound(id);
      const input = stringArg(args, 'input', 'stdin', 'data') ?? '';
      const closeStdin = boolArg(args, 'close_stdin') === true;
      const waitMs = Math.max(0, numberArg(args, 'timeout_ms') ?? DEFAULT_INTERACT_MS);
      if (input !== '' || closeStdin) {
        // rig's job terminals have no separate stdin to close: end-of-input is Ctrl-D on the terminal.
        const error = await writeJob(ctx, job, input + (closeStdin ? '\u0004' : ''), Math.min(waitMs, 250));
        if (error) return fail(error);
      }
      // The original returns as soon as any new output (or the end) is there.
      if (job.unread.totalBytes === 0) await pollJob(ctx, job, waitMs, /[\s\S]/);
      return deltaResult(job, takeUnread(job));
    },
  );
}

/** jobs.deepseek_cancel: exec_shell_cancel, one task or all running ones. */
export function createDeepseekCancelTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Cancel a running background shell task by task_id, or all of them with all=true.',
      parameters: { type: 'object', properties: { task_id: { type: 'string' }, all: { type: 'boolean' } } },
      parallelSafe: false,
    },
    async (args, ctx: ToolContext) => {
      if (boolArg(args, 'all') === true) {
        const running: Job[] = [];
        for (const job of jobTable(ctx).values()) {
          await pollJob(ctx, job, 0);
          if (!job.done) running.push(job);
        }
        if (running.length === 0) return ok('No running background shell jobs.');
        await Promise.all(running.map((job) => killJob(ctx, job)));
        const ids = running.map((job) => job.id);
        return ok(`Canceled ${ids.length} background shell job${ids.length === 1 ? '' : 's'}: ${ids.join(', ')}`);
      }
      const id = taskIdArg(args);
      if (id === undefined) return fail('Missing required field: task_id');
      const job = findJob(ctx, id);
      if (!job) return notFound(id);
      await killJob(ctx, job);
      return ok(`Canceled background shell job: ${id}`);
    },
  );
}

/** jobs.deepseek_start: task_shell_start, a background exec_shell. */
export function createDeepseekStartTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Start a long-running shell command in the background and return a shell task_id immediately.',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      parallelSafe: false,
      runsCommands: true,
    },
    async (args, ctx) => {
      const command = stringArg(args, 'command');
      if (command === undefined || command.trim() === '') return fail('Missing required field: command');
      const dir = stringArg(args, 'cwd');
      const cwd = dir ? resolvePath(ctx, dir) : ctx.cwd;
      const timeoutMs = clamp(numberArg(args, 'timeout_ms') ?? 120_000, MIN_WAIT_MS, MAX_WAIT_MS);
      const tty = boolArg(args, 'tty') === true;
      const start = await startJob(ctx, { command, cwd, timeoutMs, ...(tty ? { tty } : {}) }, shellTaskId);
      if ('finished' in start) {
        const outcome = start.finished;
        if (outcome.declined) return fail(outcome.declined);
        if (outcome.exitCode === 0) return ok(outcome.output === '' ? '(no output)' : outcome.output);
        return fail(`Command failed (exit code: ${outcome.exitCode === null ? 'None' : `Some(${outcome.exitCode})`})\n\nSTDOUT:\n${outcome.output}\n\nSTDERR:\n`);
      }
      const stdin = stringArg(args, 'stdin');
      if (stdin !== undefined && stdin !== '') {
        const error = await writeJob(ctx, start.started, stdin, 250);
        if (error) return fail(error);
      }
      return ok(`Background task started: ${start.started.id}`);
    },
  );
}
