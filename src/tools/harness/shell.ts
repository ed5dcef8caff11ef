// shell.*: every harness's shell tool, run through the orchestrator (caps.exec) so exec policy,
// approvals and the sandbox apply. Each style reads the timeout in its original's documented unit
// and renders output the way its original does; background tasks are per-thread.
import { CapabilityOptionError, type ResolvedTool } from '../../harness/profile.js';
import type { ContentPart } from '../../protocol/index.js';
import type { ExecOutcome, ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { findJob, jobTable, killJob, pollJob, shellTaskId, startJob, takeUnread, type Job } from '../jobs/table.js';
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

/** A tool output in parts: the first (the note) is the one a profile's error_template wraps. */
function parts(...texts: string[]): ContentPart[] {
  return texts.filter((text) => text !== '').map((text) => ({ type: 'input_text' as const, text }));
}

// Kimi CLI's ToolResultBuilder (MoonshotAI/kimi-cli src/kimi_cli/tools/utils.py @ 4a550ef): at most
// 50,000 characters, lines cut at 2,000 with a `[...truncated]` marker, and the note says so.
const KIMI_MAX_CHARS = 50_000;
const KIMI_MAX_LINE = 2000;
const KIMI_MARKER = '[...truncated]';
const KIMI_TRUNCATED_NOTE = 'Output is truncated to fit in the message.';

function kimiBuffer(output: string): { text: string; truncated: boolean } {
  let text = '';
  let truncated = false;
  for (const line of output.split(/(?<=\n)/)) {
    const remaining = KIMI_MAX_CHARS - text.length;
    if (remaining <= 0) {
      truncated = true;
      break;
    }
    const limit = Math.min(remaining, KIMI_MAX_LINE);
    if (line.length > limit) {
      const ending = /[\r\n]+$/.exec(line)?.[0] ?? '';
      const end = KIMI_MARKER + ending;
      text += line.slice(0, Math.max(limit, end.length) - end.length) + end;
      truncated = true;
    } else {
      text += line;
    }
  }
  return { text, truncated };
}

function kimiNote(message: string, truncated: boolean, success: boolean): string {
  // builder.ok() ends the message with a period; builder.error() leaves it as written.
  const base = success && message !== '' && !message.endsWith('.') ? `${message}.` : message;
  if (!truncated) return base;
  return base === '' ? KIMI_TRUNCATED_NOTE : `${base} ${KIMI_TRUNCATED_NOTE}`;
}

// opencode's bash keeps the tail of long output (Truncate.MAX_LINES / MAX_BYTES:
// anomalyco/opencode packages/opencode/src/tool/truncate.ts @ 0a3427d).
const OPENCODE_MAX_LINES = 2000;
const OPENCODE_MAX_BYTES = 50 * 1024;

function opencodeTail(output: string): string {
  const lines = output.split('\n');
  if (lines.length <= OPENCODE_MAX_LINES && Buffer.byteLength(output) <= OPENCODE_MAX_BYTES) return output;
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < OPENCODE_MAX_LINES; i--) {
    const line = lines[i] ?? '';
    const size = Buffer.byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > OPENCODE_MAX_BYTES) break;
    kept.unshift(line);
    bytes += size;
  }
  // The original also saves the whole output to a file and names it; rig keeps no such file.
  return `...output truncated...\n\n${kept.join('\n')}`;
}

function render(style: Style, command: string, args: Args, outcome: ExecOutcome, timeoutMs: number, limit: number): ToolResult {
  const output = truncateMiddle(outcome.output, limit);
  const code = outcome.exitCode;
  const success = code === 0 && !outcome.timedOut;
  const timeoutNote = outcome.timedOut ? `Command timed out after ${timeoutMs} ms` : '';
  switch (style) {
    case 'claude':
    case 'zcode': {
      // Claude Code reports a failed command as `Exit code N` then the output (issue 11; zcode's
      // alias handler does the same, reference/harnesses.md §5.3). The profile sends it unwrapped.
      const trimmed = output.replace(/^\s*\n/, '').trimEnd();
      if (success) return ok(trimmed === '' ? '(Bash completed with no output)' : trimmed);
      const lines = [code !== null && !outcome.timedOut ? `Exit code ${code}` : '', trimmed, timeoutNote];
      return { output: lines.filter((line) => line !== '').join('\n'), success: false };
    }
    case 'kimi':
    case 'kimi-cli': {
      // Kimi CLI's Shell (src/kimi_cli/tools/shell/__init__.py @ 4a550ef) returns a message and the
      // output; tool_result_to_message (src/kimi_cli/soul/message.py) puts the message first, as
      // `<system>message</system>` on success and `<system>ERROR: message</system>` on failure (the
      // profile's error_template wraps the first part, so the note is not wrapped twice).
      const buffer = kimiBuffer(outcome.output);
      if (outcome.timedOut) {
        return { output: parts(kimiNote(`Command killed by timeout (${Math.round(timeoutMs / 1000)}s)`, buffer.truncated, false), buffer.text), success: false };
      }
      if (success) return ok(parts(`<system>${kimiNote('Command executed successfully.', buffer.truncated, true)}</system>`, buffer.text));
      return { output: parts(kimiNote(`Command failed with exit code: ${code}.`, buffer.truncated, false), buffer.text), success: false };
    }
    case 'opencode': {
      // opencode's bash (anomalyco/opencode packages/opencode/src/tool/bash.ts, the Effect rewrite
      // of the 1.x line; shell.ts @ 0498793 keeps the same wording under its later name): the
      // output or `(no output)`, a `<bash_metadata>` block only for a timeout, and no exit-code
      // line. A non-zero exit is an ordinary result there, not a tool error.
      let text = opencodeTail(outcome.output);
      if (text === '') text = '(no output)';
      if (outcome.timedOut) {
        text +=
          `\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout ${timeoutMs} ms. ` +
          'If this command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value in milliseconds.\n</bash_metadata>';
      }
      return ok(text);
    }
    case 'pi': {
      // pi's bash (badlogic/pi-mono packages/coding-agent/src/core/tools/bash.ts @ 83378aa): the
      // output or `(no output)`, then `Command exited with code N`; a timeout names the seconds asked for.
      if (outcome.timedOut) {
        const seconds = numberArg(args, 'timeout') ?? Math.round(timeoutMs / 1000);
        return { output: `${output === '' ? '' : `${output}\n\n`}Command timed out after ${seconds} seconds`, success: false };
      }
      const text = output === '' ? '(no output)' : output;
      if (!success) return { output: `${text}\n\nCommand exited with code ${code}`, success: false };
      return ok(text);
    }
    case 'qwen': {
      // Qwen Code's run_shell_command (QwenLM/qwen-code packages/core/src/tools/shell.ts @ 0103af5):
      // every field on its own line; Directory is the argument as given. rig's orchestrator does not
      // report the signal or the process group, so those say `(none)`. Like the original, a failed
      // command is an ordinary result.
      if (outcome.timedOut) {
        const tail = outcome.output.trim() !== '' ? ` Below is the output before it timed out:\n${output}` : ' There was no output before it timed out.';
        return ok(`Command timed out after ${timeoutMs}ms before it could complete.${tail}`);
      }
      const directory = stringArg(args, 'directory');
      const lines = [
        `Command: ${command}`,
        `Directory: ${directory ? directory : '(root)'}`,
        `Output: ${output === '' ? '(empty)' : output}`,
        'Error: (none)',
        `Exit Code: ${code ?? '(none)'}`,
        'Signal: (none)',
        'Process Group PGID: (none)',
      ];
      return ok(lines.join('\n'));
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
      runsCommands: true,
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
        // The job runs until it ends, is stopped, or its thread ends; timeoutMs bounds foreground waits only.
        const start = await startJob(ctx, { command, cwd, timeoutMs, ...escalation }, (sessionId) =>
          style === 'deepseek' ? shellTaskId() : `bash_${sessionId}`,
        );
        if ('finished' in start) {
          if (start.finished.declined) return fail(start.finished.declined);
          return render(style, command, args, start.finished, timeoutMs, outputLimit);
        }
        // DeepSeek-TUI's exec_shell (crates/tui/src/tools/shell.rs @ 1ca495f) answers a background start so.
        if (style === 'deepseek') return ok(`Background task started: ${start.started.id}`);
        return ok(`Command running in background with ID: ${start.started.id}`);
      }
      const outcome = await ctx.caps.exec({ command, cwd, timeoutMs, ...escalation });
      if (outcome.declined) return fail(outcome.declined);
      return render(style, command, args, outcome, timeoutMs, outputLimit);
    },
  );
}

function taskStatus(job: Job): string {
  if (job.killed) return 'killed';
  return job.done ? 'completed' : 'running';
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
      const job = findJob(ctx, id);
      if (!job) return fail(`No background task found with ID: ${id}`);
      const block = boolArg(args, 'block') ?? blockByDefault;
      const timeout = numberArg(args, 'timeout') ?? (unit === 's' ? 30 : 30_000);
      await pollJob(ctx, job, block ? timeout * (unit === 's' ? 1000 : 1) : 0);
      // The task's whole output (bounded) each time, as the original reads its output file.
      takeUnread(job);
      const text = [
        `<retrieval_status>${job.done ? 'complete' : 'not_ready'}</retrieval_status>`,
        `<task_id>${job.id}</task_id>`,
        '<task_type>local_bash</task_type>',
        `<status>${taskStatus(job)}</status>`,
        job.done ? `<exit_code>${job.exitCode ?? 'none'}</exit_code>` : '',
        `<output>\n${job.output.toString()}</output>`,
      ];
      return ok(text.filter((line) => line !== '').join('\n'));
    },
  );
}

/** shell.task_stop: stops a background task (kills its process group). */
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
      const job = findJob(ctx, id);
      if (!job) return fail(`No background task found with ID: ${id}`);
      await killJob(ctx, job);
      return ok(JSON.stringify({ message: `Successfully stopped task: ${id} (${job.command})`, task_id: id, task_type: 'local_bash', command: job.command }));
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
      // A job that ended since the last look is listed as ended.
      for (const job of jobTable(ctx).values()) await pollJob(ctx, job, 0);
      const list = [...jobTable(ctx).values()].filter((job) => !activeOnly || !job.done).slice(0, limit);
      const blocks = list.map((task) => [`task_id: ${task.id}`, `status: ${taskStatus(task)}`, 'kind: process', `command: ${task.command}`].join('\n'));
      return ok([`background_tasks: ${list.length}`, ...blocks].join('\n\n'));
    },
  );
}
