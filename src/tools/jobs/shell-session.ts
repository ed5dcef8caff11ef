// little-coder's ShellSession / ShellSessionCwd / ShellSessionReset: one persistent shell per
// thread whose working directory and exported variables carry over from call to call, as
// little-coder's Terminal-Bench backend gives them (itayinbarr/little-coder
// .pi/extensions/shell-session @ 4d97dd8 and its TB adapter's output format: ANSI stripped,
// duplicate lines collapsed, 200-line head/tail cap, `[exit=N cwd=… timed_out=…]` footer).
// Each call is one command through the orchestrator (policy, approval and sandbox judge the
// model's command text, not the state-carrying wrapper); the state lives in the thread.
import { randomBytes } from 'node:crypto';
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolContext, ToolSpec } from '../spec.js';
import { fail, functionSpec, numberArg, ok, stringArg } from '../harness/common.js';

const STATE_KEY = 'jobs.shellSession';
const SESSION_NAME = 'default';
const DEFAULT_TIMEOUT_S = 30;
const MIN_TIMEOUT_S = 5;
const MAX_TIMEOUT_S = 600;
const MAX_LINES = 200;

interface SessionState {
  cwd: string;
  /** `export -p` of the previous call, base64 (one line, no quoting to get wrong). */
  exports?: string;
}

function state(ctx: ToolContext): SessionState {
  let current = ctx.threadState.get(STATE_KEY) as SessionState | undefined;
  if (!current) {
    current = { cwd: ctx.cwd };
    ctx.threadState.set(STATE_KEY, current);
  }
  return current;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The wrapper: restore the exports and cwd, run the command, report code, cwd and exports after a sentinel. */
export function sessionScript(session: SessionState, command: string, sentinel: string): string {
  const lines: string[] = [];
  if (session.exports) lines.push(`eval "$(printf %s ${quote(session.exports)} | base64 -d)" 2>/dev/null`);
  lines.push(
    `cd -- ${quote(session.cwd)} 2>/dev/null`,
    `{ ${command}`,
    '}',
    '__rig_rc=$?',
    `printf '\\n${sentinel}:%d:%s\\n' "$__rig_rc" "$(pwd)"`,
    'export -p | base64 -w0',
    'exit $__rig_rc',
  );
  return lines.join('\n');
}

const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;

/** little-coder's tool text: cleaned output then the footer. */
export function formatSessionOutput(raw: string, code: number, cwd: string, timedOut: boolean): string {
  const lines = raw.replace(ANSI, '').replace(/\r/g, '').split('\n');
  const deduped: string[] = [];
  let last: string | undefined;
  let repeats = 0;
  const flush = (): void => {
    if (repeats > 0) deduped.push(`  [... ${repeats} duplicate line(s) collapsed ...]`);
    repeats = 0;
  };
  for (const line of lines) {
    if (line === last) {
      repeats++;
      continue;
    }
    flush();
    deduped.push(line);
    last = line;
  }
  flush();
  let kept = deduped;
  let truncated = false;
  if (deduped.length > MAX_LINES) {
    const head = MAX_LINES / 2;
    const tail = MAX_LINES / 4;
    kept = [...deduped.slice(0, head), `  [... ${deduped.length - head - tail} lines truncated ...]`, ...deduped.slice(-tail)];
    truncated = true;
  }
  const body = kept.join('\n');
  const bits = [`exit=${code}`, `cwd=${cwd}`, `timed_out=${timedOut ? 'true' : 'false'}`];
  if (truncated) bits.push('output_truncated=true');
  const footer = `[${bits.join(' ')}]`;
  return body ? `${body}\n${footer}` : footer;
}

/** shell.session: ShellSession. */
export function createShellSessionTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Run a command in a persistent bash session.',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      parallelSafe: false,
      runsCommands: true,
    },
    async (args, ctx) => {
      const command = (stringArg(args, 'command') ?? '').trim();
      if (command === '') return fail('Error: command is required');
      const timeoutS = Math.max(MIN_TIMEOUT_S, Math.min(numberArg(args, 'timeout') ?? DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S));
      const session = state(ctx);
      const sentinel = `__RIG_SESSION_END_${randomBytes(4).toString('hex')}__`;
      const script = sessionScript(session, command, sentinel);
      const outcome = await ctx.caps.exec({
        command: script,
        argv: ['bash', '-c', script],
        // The script changes into the session's directory itself; spawning there fails if it is gone.
        cwd: ctx.cwd,
        timeoutMs: timeoutS * 1000,
        displayCommand: command,
        judgedArgv: ['bash', '-c', command],
      });
      if (outcome.declined) return fail(outcome.declined);
      const at = outcome.output.lastIndexOf(`\n${sentinel}:`);
      if (at === -1) {
        // Timed out, or the command ended the shell itself (`exit`): the state stays as it was.
        return ok(formatSessionOutput(outcome.output.trim(), outcome.exitCode ?? -1, session.cwd, outcome.timedOut));
      }
      const [status = '', exports = ''] = outcome.output.slice(at + sentinel.length + 2).split('\n');
      const colon = status.indexOf(':');
      const code = Number.parseInt(status.slice(0, colon), 10);
      const cwd = status.slice(colon + 1);
      if (cwd !== '') session.cwd = cwd;
      if (exports.trim() !== '') session.exports = exports.trim();
      return ok(formatSessionOutput(outcome.output.slice(0, at).replace(/^[\n\r ]+/, '').replace(/\n$/, ''), Number.isNaN(code) ? -1 : code, session.cwd, false));
    },
  );
}

/** shell.session_cwd: ShellSessionCwd (what `pwd` in the session prints, without running a process). */
export function createShellSessionCwdTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Print the current working directory of the shell session.', parameters: { type: 'object', properties: {} }, parallelSafe: true },
    async (_args, ctx) => {
      const cwd = state(ctx).cwd;
      return ok(formatSessionOutput(cwd, 0, cwd, false));
    },
  );
}

/** shell.session_reset: ShellSessionReset (back to the thread's directory and environment). */
export function createShellSessionResetTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Kill and restart the bash session.', parameters: { type: 'object', properties: {} }, parallelSafe: false },
    async (_args, ctx) => {
      ctx.threadState.set(STATE_KEY, { cwd: ctx.cwd } satisfies SessionState);
      return ok(`Session '${SESSION_NAME}' unstuck and reinitialized.`);
    },
  );
}
