// Slash commands: the TUI's own (/help, /copy, /reflow, /quit) and the session's (from the port).
// A line that starts with `/word` is never sent to the model: a command it names runs, anything
// else gets "unknown command".
import type { SlashCommandSpec } from './session-port.js';
import type { Line } from './text/styled.js';
import { textWidth } from './text/width.js';
import { wrap } from './text/wrap.js';
import { theme } from './view/theme.js';

export const LOCAL_COMMANDS: readonly SlashCommandSpec[] = [
  { name: 'help', description: 'list the commands and keys' },
  { name: 'copy', description: 'copy the last answer to the clipboard (OSC 52)' },
  { name: 'reflow', description: 'redraw the whole transcript at the current width (clears the scrollback)' },
  { name: 'quit', description: 'leave rig (Ctrl+D on an empty prompt does too)' },
];

/** The session's commands and the TUI's own (the session's win a name both have), by name. */
export function allCommands(own: readonly SlashCommandSpec[]): SlashCommandSpec[] {
  const names = new Set(own.map((spec) => spec.name));
  return [...own, ...LOCAL_COMMANDS.filter((spec) => !names.has(spec.name))].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** `/name args` -> its parts; undefined when the text is not a command line. */
export function parseCommandLine(text: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1]!.toLowerCase(), args: (match[2] ?? '').trim() };
}

/** Whether Enter should treat the text as a command (and never send it to the model). */
export function looksLikeCommand(text: string): boolean {
  // "/etc/hosts is wrong" is a message (the word goes on with a slash); " /help" is sent as text.
  return /^\/[A-Za-z][\w-]*(\s|$)/.test(text);
}

const KEYS: [string, string][] = [
  ['Enter', 'send (while a turn runs: steer it at the next tool boundary)'],
  ['Tab', 'while a turn runs: queue for after the turn'],
  ['Shift+Enter, Alt+Enter, Ctrl+J', 'new line (or end the line with \\)'],
  ['Esc', 'interrupt the turn · Esc Esc: edit the previous message'],
  ['Up / Down, Ctrl+R', 'input history, search it'],
  ['@path', 'mention a file (images are attached)'],
  ['Alt+Up', 'edit the last queued message'],
  ['Ctrl+T', 'the full transcript'],
  ['Ctrl+C', 'clear the input; twice to quit · Ctrl+D on an empty input quits'],
];

export function renderHelp(commands: readonly SlashCommandSpec[], width: number): Line[] {
  const nameWidth = Math.min(18, Math.max(...commands.map((spec) => textWidth(spec.name) + 1)));
  const out: Line[] = [[{ text: 'Commands', style: theme.bold }]];
  for (const spec of commands) {
    const name = `/${spec.name}`;
    out.push(
      ...wrap([{ text: `${spec.args ? `${spec.args}  ` : ''}${spec.description}`, style: theme.dim }], {
        width,
        mode: 'history',
        first: [{ text: '  ' }, { text: name, style: theme.accent }, { text: ' '.repeat(Math.max(1, nameWidth - textWidth(name) + 2)) }],
        rest: [{ text: ' '.repeat(nameWidth + 4) }],
      }),
    );
  }
  out.push([], [{ text: 'Keys', style: theme.bold }]);
  for (const [key, what] of KEYS) out.push(...wrap([{ text: what, style: theme.dim }], { width, mode: 'history', first: [{ text: '  ' }, { text: key, style: theme.key }, { text: '  ' }], rest: [{ text: '    ' }] }));
  return out;
}
