// A shell script as the classifiers read it: every simple command in it (wherever it sits:
// pipelines, subshells, substitutions, functions, loops), what feeds each command's standard input,
// and whether the script is "plain" (only words and quotes joined by `&&`, `||`, `;`, `|`).
//
// Most commands a model sends are a single plain line, so a cheap reader handles the subset of
// shell text whose reading is certain without a grammar (bare words of safe characters and the
// four operators); anything else goes to tree-sitter (bash.ts), loaded only then.

import { literal, type ShellWord } from './shell-word.js';

/** Where a command's standard input comes from, when the script says. */
export type CommandInput =
  /** A heredoc or herestring: its text, or null when it holds expansions. */
  | { kind: 'text'; text: string | null }
  /** The previous command of a pipeline (null when that is not a simple command). */
  | { kind: 'pipe'; from: ShellCommand | null }
  /** A `< file` redirect. */
  | { kind: 'file'; path: ShellWord }
  /** Another redirection of descriptor 0 (`<&3`, `0<>x`). */
  | { kind: 'unknown' };

export interface ShellCommand {
  readonly assignments: readonly { readonly name: string; readonly value: ShellWord }[];
  /** The command name and its arguments; empty for a command made only of assignments. */
  readonly words: readonly ShellWord[];
  /** Set when a pipe or a redirection feeds the command. */
  readonly stdin?: CommandInput;
}

export interface ScriptSyntax {
  /** Every simple command in the script, in source order. */
  readonly commands: readonly ShellCommand[];
  /**
   * The plain commands' argv (for exec-policy rules), when the script is only plain commands
   * joined by `&&`, `||`, `;`, `|`; null otherwise. Index i is `commands[i]`.
   */
  readonly plainArgv: readonly string[][] | null;
  /** For a script that is one command fed by a heredoc: that command's literal words (rules only). */
  readonly heredocPrefix: readonly string[] | null;
  /** Set when bash may read the script differently from rig (a syntax error, a construct rig does not model). */
  readonly opaque?: string;
  /** Lines (0-based) that are heredoc bodies: data, not commands, unless fed to a shell. */
  readonly heredocRows?: readonly number[];
}

/** Reads scripts: the cheap reader first, tree-sitter when one is at hand. */
export interface ScriptReader {
  /** The script's syntax, or null when only the full parser could read it and none was given. */
  read(script: string): ScriptSyntax | null;
}

const SIMPLE_WORD = /^[A-Za-z0-9_./,:=@%+-]+$/;
// Reserved words change how the rest of the line parses; leave those lines to the real parser.
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'in', 'function', 'select', 'time', 'coproc']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The cheap reader: accepts only text made of bare words over `[A-Za-z0-9_./,:=@%+-]`, blanks, and
 * the operators `&&`, `||`, `;`, `|` (and newlines as `;`). In that subset every shell splits words
 * exactly at blanks and operators, and nothing is expanded or quoted, so the result is certain.
 * Returns null for anything else (including a word starting with `=`, which zsh expands).
 */
export function readSimpleScript(script: string): ScriptSyntax | null {
  if (script.trim() === '') return { commands: [], plainArgv: [], heredocPrefix: null };
  const tokens = script.trimEnd().split(/(&&|\|\||[;|\n])/);
  const commands: ShellCommand[] = [];
  let pipedFrom: ShellCommand | undefined;
  for (let i = 0; i < tokens.length; i += 2) {
    const words = tokens[i]!.split(/[ \t]+/).filter((word) => word !== '');
    const operator = tokens[i + 1];
    if (words.length === 0) return null;
    if (words.some((word) => !SIMPLE_WORD.test(word) || word.startsWith('='))) return null;
    if (RESERVED.has(words[0]!)) return null;
    let start = 0;
    const assignments: { name: string; value: ShellWord }[] = [];
    while (start < words.length && ASSIGNMENT.test(words[start]!)) {
      const word = words[start++]!;
      const eq = word.indexOf('=');
      assignments.push({ name: word.slice(0, eq), value: literal(word.slice(eq + 1)) });
    }
    const command: ShellCommand = {
      assignments,
      words: words.slice(start).map((word) => literal(word)),
      ...(pipedFrom ? { stdin: { kind: 'pipe', from: pipedFrom } } : {}),
    };
    commands.push(command);
    pipedFrom = operator === '|' ? command : undefined;
  }
  const plainArgv = commands.every((command) => command.assignments.length === 0 && command.words.length > 0)
    ? commands.map((command) => command.words.map((word) => word.value!))
    : null;
  return { commands, plainArgv, heredocPrefix: null };
}
