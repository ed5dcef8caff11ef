// terminal.tmux: Terminus 2's keystroke protocol on a real tmux session. Each call runs one
// script through the orchestrator (caps.exec), so policy and sandbox see it like any command;
// the session name and the last captured buffer are per thread.
import { createHash } from 'node:crypto';
import {
  capTerminalOutput,
  terminusCompletionCheck,
  terminusTimeoutMs,
  terminusWarningsPrefix,
  type TerminusCommand,
} from '../../harness/text-actions/terminus-2.js';
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolContext, ToolSpec } from '../spec.js';
import { asArgs, fail, functionSpec, ok } from './common.js';

const BUFFER_KEY = 'harness.terminal.buffer';
const MARK = '__RIG_TMUX_SCREEN__';
const SPECIAL_KEYS = new Set(['C-c', 'C-d', 'C-z', 'C-l', 'Enter', 'Escape', 'Tab', 'Up', 'Down', 'Left', 'Right']);

/** tmux talks to its server over a unix socket, which the sandbox's syscall filter refuses. */
const SOCKET_DENIED = /error connecting to \S+ \(Operation not permitted\)/;
export const SANDBOX_BLOCKS_TMUX =
  'The terminal cannot start: tmux needs a unix socket to its server, and the sandbox blocks sockets. ' +
  'Run rig with -s danger-full-access (or --yolo) to use the Terminus 2 harness.';

export function tmuxSessionName(threadId: string): string {
  return `rig-t2-${createHash('sha256').update(threadId).digest('hex').slice(0, 12)}`;
}

/**
 * Each thread's terminal has a tmux server of its own (`tmux -L <session>`), not the user's default
 * one: a thread's end kills the process groups it started, the server included, and that must not
 * take the user's tmux sessions or another thread's terminal with it.
 */
export function tmuxArgv(session: string, ...args: string[]): string[] {
  return ['tmux', '-L', session, '-f', '/dev/null', ...args];
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The bash script that sends the keystrokes, waits, and prints the history then the screen. */
export function tmuxScript(session: string, cwd: string, commands: TerminusCommand[]): string {
  const s = quote(session);
  const tmux = `tmux -L ${s} -f /dev/null`;
  const lines = [
    'set -e',
    `if ! ${tmux} has-session -t ${s} 2>/dev/null; then`,
    `  ${tmux} new-session -d -s ${s} -x 160 -y 40 -c ${quote(cwd)} "env PAGER=less GIT_PAGER=less PS1='\\\\u@rig:\\\\w\\\\$ ' bash --norc --noprofile"`,
    `  ${tmux} set-option -t ${s} history-limit 50000 >/dev/null`,
    // A new shell needs a moment to draw its prompt; wait for it (up to 5 s) so the first screen shows it.
    `  for _ in $(seq 50); do [ -n "$(${tmux} capture-pane -p -t ${s} | tr -d '[:space:]')" ] && break; sleep 0.1; done`,
    'fi',
    'keys=$(mktemp)',
  ];
  for (const command of commands) {
    if (SPECIAL_KEYS.has(command.keystrokes)) {
      lines.push(`${tmux} send-keys -t ${s} ${command.keystrokes}`);
    } else {
      const encoded = Buffer.from(command.keystrokes).toString('base64');
      // Paste buffers are global to the tmux server: one per session, or two threads' keys cross.
      const buffer = quote(`rig-keys-${session}`);
      lines.push(`printf %s ${quote(encoded)} | base64 -d > "$keys"`, `${tmux} load-buffer -b ${buffer} "$keys"`, `${tmux} paste-buffer -d -b ${buffer} -t ${s}`);
    }
    lines.push(`sleep ${command.duration}`);
  }
  lines.push(
    // Plain rm, with `--`: the exec policy asks before `rm -f`, and before an rm whose unknown
    // argument (a variable) could turn out to be an option.
    'rm -- "$keys"',
    `${tmux} capture-pane -p -J -S - -t ${s}`, `echo ${MARK}`, `${tmux} capture-pane -p -t ${s}`);
  return lines.join('\n');
}

/**
 * The shell text the keystrokes amount to, for the policy and for a person asked to approve: the
 * driver script only moves bytes, what runs is what the shell in the pane reads. Keys that end or
 * abandon a line count as a line end, so nothing typed escapes judgement by being cancelled later.
 */
export function typedShellText(commands: TerminusCommand[]): string {
  let text = '';
  for (const command of commands) {
    if (!SPECIAL_KEYS.has(command.keystrokes)) text += command.keystrokes;
    else if (command.keystrokes === 'Enter' || command.keystrokes === 'C-c' || command.keystrokes === 'C-d') text += '\n';
    else if (command.keystrokes === 'Tab') text += ' ';
  }
  return text;
}

/** What the model sees: the new part of the history, or the screen when history was rewritten. */
export function terminalObservation(previous: string | undefined, buffer: string, screen: string): string {
  const trimmedBuffer = buffer.replace(/\s+$/, '');
  const trimmedPrevious = previous?.replace(/\s+$/, '');
  if (trimmedPrevious !== undefined && trimmedPrevious !== '' && trimmedBuffer.startsWith(trimmedPrevious)) {
    const added = trimmedBuffer.slice(trimmedPrevious.length).replace(/^\n/, '');
    return capTerminalOutput(`New Terminal Output:\n${added}`);
  }
  return capTerminalOutput(`Current Terminal Screen:\n${screen.replace(/\s+$/, '')}`);
}

function parseCommands(raw: unknown): TerminusCommand[] | string {
  if (!Array.isArray(raw)) return "Field 'commands' must be an array";
  const out: TerminusCommand[] = [];
  for (const [index, entry] of raw.entries()) {
    const command = asArgs(entry);
    if (typeof command['keystrokes'] !== 'string') return `Command ${index + 1} is missing a 'keystrokes' string`;
    const duration = typeof command['duration'] === 'number' && Number.isFinite(command['duration']) ? command['duration'] : 1;
    out.push({ keystrokes: command['keystrokes'], duration: Math.min(Math.max(duration, 0), 60) });
  }
  return out;
}

export function createTmuxTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Send keystrokes to the terminal and return what changed.',
      parameters: {
        type: 'object',
        properties: {
          commands: {
            type: 'array',
            items: { type: 'object', properties: { keystrokes: { type: 'string' }, duration: { type: 'number' } }, required: ['keystrokes'] },
          },
        },
        required: ['commands'],
      },
      parallelSafe: false,
      runsCommands: true,
    },
    async (args, ctx: ToolContext) => {
      const commands = parseCommands(args['commands']);
      if (typeof commands === 'string') return fail(commands);
      const session = tmuxSessionName(ctx.threadId);
      const timeoutMs = terminusTimeoutMs(commands) + 3_000;
      const script = tmuxScript(session, ctx.cwd, commands);
      const outcome = await ctx.caps.exec({
        command: script,
        argv: ['bash', '-c', script],
        cwd: ctx.cwd,
        timeoutMs,
        displayCommand: commands.map((command) => command.keystrokes).join(''),
        judgedArgv: ['bash', '-c', typedShellText(commands)],
      });
      if (outcome.declined) return fail(outcome.declined);
      if (outcome.exitCode !== 0 && SOCKET_DENIED.test(outcome.output)) return fail(SANDBOX_BLOCKS_TMUX);
      if (outcome.exitCode !== 0) return fail(`The terminal driver failed (exit ${outcome.exitCode ?? 'none'}${outcome.timedOut ? ', timed out' : ''}):\n${outcome.output}`);
      const at = outcome.output.lastIndexOf(`${MARK}\n`);
      const buffer = at === -1 ? outcome.output : outcome.output.slice(0, at);
      const screen = at === -1 ? outcome.output : outcome.output.slice(at + MARK.length + 1);
      const previous = ctx.threadState.get(BUFFER_KEY) as string | undefined;
      ctx.threadState.set(BUFFER_KEY, buffer);
      const observation = terminalObservation(previous, buffer, screen);
      // The text-protocol driver asks for Terminus 2's completion check and passes parse warnings.
      if (args['confirm_completion'] === true) return ok(terminusCompletionCheck(observation));
      const warnings = Array.isArray(args['warnings']) ? args['warnings'].filter((warning): warning is string => typeof warning === 'string') : [];
      return ok(terminusWarningsPrefix(warnings) + observation);
    },
  );
}
