// shell.*: every harness's shell tool, run through the orchestrator (caps.exec) so exec policy,
// approvals and the sandbox apply. Each style reads the timeout in its original's documented unit
// and renders output the way its original does; background tasks are per-thread.
import { CapabilityOptionError, type ResolvedTool } from '../../harness/profile.js';
import type { ExecOutcome, ToolContext, ToolResult, ToolSpec } from '../spec.js';
import {
  type Args,
  boolArg,
  fail,
  functionSpec,
  numberArg,
  numberOption,
  ok,
  resolvePath,
  stringArg,
  styleOption,
  truncateMiddle,
} from './common.js';

const STYLES = ['claude', 'zcode', 'kimi', 'kimi-cli', 'opencode', 'pi', 'qwen', 'deepseek', 'mini-swe-agent', 'swe-agent'] as const;
type Style = (typeof STYLES)[number];

interface ShellRules {
  timeoutArg: string;
  cwdArg?: string;
  backgroundArg?: string;
}

const ARGS: Record<Style, ShellRules> = {
  claude: { timeoutArg: 'timeout', backgroundArg: 'run_in_background' },
  zcode: { timeoutArg: 'timeout', backgroundArg: 'run_in_background' },
  kimi: { timeoutArg: 'timeout', cwdArg: 'cwd', backgroundArg: 'run_in_background' },
  'kimi-cli': { timeoutArg: 'timeout' },
  opencode: { timeoutArg: 'timeout', cwdArg: 'workdir' },
  pi: { timeoutArg: 'timeout' },
  qwen: { timeoutArg: 'timeout', cwdArg: 'directory', backgroundArg: 'is_background' },
  deepseek: { timeoutArg: 'timeout_ms', cwdArg: 'cwd', backgroundArg: 'background' },
  'mini-swe-agent': { timeoutArg: 'timeout' },
  'swe-agent': { timeoutArg: 'timeout' },
};

const TASKS_KEY = 'harness.backgroundTasks';

interface BackgroundTask {
  id: string;
  sessionId: number;
  command: string;
  output: string;
  done: boolean;
  exitCode: number | null;
}

function tasks(ctx: ToolContext): Map<string, BackgroundTask> {
  let map = ctx.threadState.get(TASKS_KEY) as Map<string, BackgroundTask> | undefined;
  if (!map) {
    map = new Map();
    ctx.threadState.set(TASKS_KEY, map);
  }
  return map;
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}s`;
}

function render(style: Style, command: string, cwd: string, outcome: ExecOutcome, timeoutMs: number, limit: number): ToolResult {
  const output = truncateMiddle(outcome.output, limit);
  const code = outcome.exitCode;
  const success = code === 0 && !outcome.timedOut;
  const timeoutNote = outcome.timedOut ? `Command timed out after ${timeoutMs} ms` : '';
  switch (style) {
    case 'claude':
    case 'zcode': {
      const trimmed = output.replace(/^\s*\n/, '').trimEnd();
      if (success) return ok(trimmed === '' ? '(Bash completed with no output)' : trimmed);
      const parts = [style === 'zcode' && code !== null ? `Exit code ${code}` : '', trimmed, timeoutNote];
      if (style === 'claude' && code !== null && !outcome.timedOut) parts.push(`Exit code ${code}`);
      return { output: parts.filter((part) => part !== '').join('\n'), success: false };
    }
    case 'kimi':
    case 'kimi-cli': {
      if (outcome.timedOut) return { output: `${output}<system>ERROR: Command killed by timeout (${formatSeconds(timeoutMs)})</system>`, success: false };
      if (success) return ok(output === '' ? 'Command executed successfully.' : output);
      return { output: `${output}<system>ERROR: Command failed with exit code: ${code}.</system>`, success: false };
    }
    case 'opencode':
    case 'pi': {
      let text = output === '' ? '(no output)' : output;
      if (outcome.timedOut) text = `${text.trimEnd()}\n\nCommand timed out after ${formatSeconds(timeoutMs)}`;
      else if (!success) text = `${text.trimEnd()}\n\nCommand exited with code ${code}`;
      return { output: text, success };
    }
    case 'qwen': {
      const lines = [
        `Command: ${command}`,
        `Directory: ${cwd}`,
        `Output: ${output === '' ? '(empty)' : output}`,
        `Error: ${outcome.timedOut ? timeoutNote : '(none)'}`,
        `Exit Code: ${code ?? '(none)'}`,
      ];
      return { output: lines.join('\n'), success };
    }
    case 'deepseek': {
      if (success) return ok(output === '' ? '(no output)' : output);
      return { output: `Command failed (exit code: ${code ?? 'none'})${timeoutNote ? `; ${timeoutNote}` : ''}\n${output}`, success: false };
    }
    case 'mini-swe-agent':
      if (outcome.timedOut) {
        return { output: `The last command <command>${command}</command> timed out and has been killed.\nThe output of the command was:\n<output>\n${output}</output>\nPlease try another command and make sure to avoid those requiring interactive input.`, success: false };
      }
      return { output: miniSweObservation(code, outcome.output), success };
    case 'swe-agent':
      if (outcome.timedOut || code === 124) {
        return { output: `The command '${command}' was cancelled because it took more than ${Math.round(timeoutMs / 1000)} seconds. Please try a different command that completes more quickly.`, success: false };
      }
      return { output: output.replace(/^bash: line \d+: /gm, 'bash: '), success };
  }
}

/** mini-swe-agent's observation: return code and output, long output as head and tail (10,000 chars). */
export function miniSweObservation(code: number | null, output: string): string {
  const head = `<returncode>${code ?? -1}</returncode>\n`;
  if (output.length < 10_000) return `${head}<output>\n${output}</output>`;
  const elided = output.length - 10_000;
  return (
    `${head}<warning>\nThe output was too long and has been shortened. Use commands that print less (head, tail, grep).\n</warning>\n` +
    `<output_head>\n${output.slice(0, 5000)}\n</output_head>\n<elided_chars>\n${elided} characters elided\n</elided_chars>\n` +
    `<output_tail>\n${output.slice(-5000)}\n</output_tail>`
  );
}

export function createBashTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, STYLES, 'claude');
  const unit = tool.options['timeout_unit'] ?? 'ms';
  if (unit !== 'ms' && unit !== 's') throw new CapabilityOptionError('options.timeout_unit', 'must be "ms" or "s"');
  const defaultTimeoutMs = numberOption(tool, 'default_timeout_ms', 120_000);
  const maxTimeoutMs = numberOption(tool, 'max_timeout_ms', 600_000);
  const maxBackgroundMs = numberOption(tool, 'max_background_timeout_ms', maxTimeoutMs);
  const outputLimit = numberOption(tool, 'output_limit_bytes', 30_000);
  const rules = ARGS[style];
  return functionSpec(
    tool,
    {
      description: 'Run a shell command.',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      parallelSafe: false,
    },
    async (args: Args, ctx: ToolContext) => {
      const command = stringArg(args, 'command');
      if (command === undefined || command.trim() === '') return fail('Command cannot be empty.');
      const background = rules.backgroundArg ? boolArg(args, rules.backgroundArg) === true : false;
      const requested = numberArg(args, rules.timeoutArg);
      const cap = background ? maxBackgroundMs : maxTimeoutMs;
      // Kimi's disable_timeout lifts the limit to the longest its documentation allows.
      const timeoutMs =
        boolArg(args, 'disable_timeout') === true
          ? maxBackgroundMs
          : Math.min(requested !== undefined && requested > 0 ? requested * (unit === 's' ? 1000 : 1) : defaultTimeoutMs, cap);
      // Claude's dangerouslyDisableSandbox asks to run outside the sandbox; the orchestrator decides.
      const escalation =
        boolArg(args, 'dangerouslyDisableSandbox') === true
          ? { escalation: { justification: stringArg(args, 'description') ?? 'The model asked to run this command outside the sandbox.' } }
          : {};
      const dirArg = rules.cwdArg ? stringArg(args, rules.cwdArg) : undefined;
      const cwd = dirArg ? resolvePath(ctx, dirArg) : ctx.cwd;
      if (background) {
        const outcome = await ctx.caps.exec({ command, cwd, timeoutMs, yieldTimeMs: 1000, ...escalation });
        if (outcome.declined) return fail(outcome.declined);
        if (outcome.sessionId === undefined) {
          return render(style, command, cwd, outcome, timeoutMs, outputLimit);
        }
        const id = `bash_${outcome.sessionId}`;
        tasks(ctx).set(id, { id, sessionId: outcome.sessionId, command, output: outcome.output, done: false, exitCode: null });
        return ok(`Command running in background with ID: ${id}`);
      }
      const outcome = await ctx.caps.exec({ command, cwd, timeoutMs, ...escalation });
      if (outcome.declined) return fail(outcome.declined);
      return render(style, command, cwd, outcome, timeoutMs, outputLimit);
    },
  );
}

function taskStatus(task: BackgroundTask): string {
  return task.done ? 'completed' : 'running';
}

async function poll(ctx: ToolContext, task: BackgroundTask, waitMs: number): Promise<void> {
  if (task.done) return;
  const outcome = await ctx.caps.writeStdin(task.sessionId, '', Math.max(waitMs, 100));
  task.output += outcome.output;
  if (outcome.sessionId === undefined || outcome.exitCode !== null) {
    task.done = true;
    task.exitCode = outcome.exitCode;
  }
}

/** shell.task_output: TaskOutput (Claude: timeout in ms, block defaults true; Kimi: seconds, false). */
export function createTaskOutputTool(tool: ResolvedTool): ToolSpec {
  const unit = tool.options['timeout_unit'] ?? 'ms';
  const blockByDefault = tool.options['style'] !== 'kimi';
  return functionSpec(
    tool,
    {
      description: 'Read the output of a background task.',
      parameters: { type: 'object', properties: { task_id: { type: 'string' } }, required: ['task_id'] },
      parallelSafe: true,
    },
    async (args, ctx) => {
      const id = stringArg(args, 'task_id') ?? '';
      const task = tasks(ctx).get(id);
      if (!task) return fail(`No background task found with ID: ${id}`);
      const block = boolArg(args, 'block') ?? blockByDefault;
      const timeout = numberArg(args, 'timeout') ?? (unit === 's' ? 30 : 30_000);
      await poll(ctx, task, block ? timeout * (unit === 's' ? 1000 : 1) : 100);
      const text = [
        `<retrieval_status>${task.done ? 'complete' : 'not_ready'}</retrieval_status>`,
        `<task_id>${task.id}</task_id>`,
        '<task_type>local_bash</task_type>',
        `<status>${taskStatus(task)}</status>`,
        task.done ? `<exit_code>${task.exitCode ?? 'none'}</exit_code>` : '',
        `<output>\n${task.output}</output>`,
      ];
      return ok(text.filter((line) => line !== '').join('\n'));
    },
  );
}

/** shell.task_stop: interrupts a background task (Ctrl-C to its session). */
export function createTaskStopTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Stop a background task.',
      parameters: { type: 'object', properties: { task_id: { type: 'string' } }, required: ['task_id'] },
      parallelSafe: false,
    },
    async (args, ctx) => {
      const id = stringArg(args, 'task_id', 'shell_id') ?? '';
      const task = tasks(ctx).get(id);
      if (!task) return fail(`No background task found with ID: ${id}`);
      if (!task.done) {
        const outcome = await ctx.caps.writeStdin(task.sessionId, '\u0003', 1000);
        task.output += outcome.output;
        task.done = true;
        task.exitCode = outcome.exitCode;
      }
      return ok(JSON.stringify({ message: `Successfully stopped task: ${id} (${task.command})`, task_id: id, task_type: 'local_bash', command: task.command }));
    },
  );
}

/** shell.task_list: the thread's background tasks. */
export function createTaskListTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'List background tasks.',
      parameters: { type: 'object', properties: {} },
      parallelSafe: true,
    },
    async (args, ctx) => {
      const activeOnly = boolArg(args, 'active_only') ?? true;
      const limit = Math.min(Math.max(Math.trunc(numberArg(args, 'limit') ?? 20), 1), 100);
      const list = [...tasks(ctx).values()].filter((task) => !activeOnly || !task.done).slice(0, limit);
      const blocks = list.map((task) => [`task_id: ${task.id}`, `status: ${taskStatus(task)}`, 'kind: process', `command: ${task.command}`].join('\n'));
      return ok([`background_tasks: ${list.length}`, ...blocks].join('\n\n'));
    },
  );
}
