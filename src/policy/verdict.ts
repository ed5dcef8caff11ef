// The classifier: reads a command the way the shell will run it — through wrappers (sudo, env,
// timeout, xargs, find -exec, ...), shells (`bash -c`, `sh` fed by a heredoc, herestring or pipe,
// `eval`, `trap`, git aliases) up to MAX_WRAPPER_DEPTH levels — and gives a verdict: known safe
// (read-only and fully understood), dangerous (a family that always asks, or a command that could
// be one for all rig can tell), or neither. A word that is not a literal is never safe, and where
// it could make the command dangerous it counts as dangerous.

import path from 'node:path';
import { DANGEROUS_REASONS, FORK_BOMB, familyDanger, isFamily, type Inside } from './danger-families.js';
import type { RepoSite } from './git-repo.js';
import { hasSafeRule, isSafeInvocation, isTrustedProgram, resolvesToTrustedProgram, type SafetyPlatform } from './safe-commands.js';
import type { CommandInput, ScriptReader, ShellCommand } from './script-syntax.js';
import { isLiteral, literal, literalValues, programName, unknownWord, type ShellWord } from './shell-word.js';
import { innerCommand, isWrapper } from './wrappers.js';

/** How many wrappers (sudo, env, nested shells, ...) are looked through; deeper counts as dangerous. */
export const MAX_WRAPPER_DEPTH = 8;

/** What the classifiers know about where the command runs. Every field is optional; without one the answer is the cautious one. */
export interface CommandSite {
  /** Directory the command starts in. Read-only git commands are known safe only with it. */
  cwd?: string;
  /** The command gets a terminal (exec_command with tty): a bare shell would read the model's keystrokes. */
  tty?: boolean;
  /** The command's environment (HOME, CDPATH, GIT_DIR, ...). Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Whether a sandboxed command could write this path. Without it every path counts as writable. */
  canWrite?: (absPath: string) => boolean;
  /** The shells the session itself runs commands with; only these (and bare names or system paths) count as shells for "known safe". */
  trustedShells?: readonly string[];
}

export interface ClassifyOptions extends SafetyPlatform, CommandSite {}

export interface Verdict {
  /** Read-only and fully understood: may run without asking under `untrusted`. */
  readonly safe: boolean;
  /** Why the command is, or may be, in a dangerous family (always asks), phrased for the model. */
  readonly danger?: string;
}

/** A verdict for a `shell -c script` whose script is plain, with one verdict per plain command. */
export interface ScriptVerdict extends Verdict {
  readonly parts?: readonly Verdict[];
}

/** Thrown when a script needs the tree-sitter parser and the reader has none. */
export class ParserNeeded extends Error {
  override name = 'ParserNeeded';
}

type Stdin = CommandInput | 'empty' | undefined;

interface State {
  readonly options: ClassifyOptions;
  readonly reader: ScriptReader;
  /** Whether to work out "known safe" at all (it may read the file system). */
  readonly wantSafe: boolean;
  readonly depth: number;
  /** Directories the command may start in; null when unknown. */
  readonly cwds: readonly string[] | null;
}

const SHELL_NAME = /^(bash|sh|zsh|dash|ksh|mksh|ash|rbash|yash|posh|lksh|csh|tcsh|fish)(\d[\d.]*)?$/;
const SAFE_SHELLS = new Set(['bash', 'zsh', 'sh']);
const UNKNOWN = { safe: false } as const;
const danger = (reason: string): Verdict => ({ safe: false, danger: reason });

/** Classifies an argv run directly (no shell around it). */
export function classifyArgv(argv: readonly string[], reader: ScriptReader, options: ClassifyOptions, wantSafe = true): ScriptVerdict {
  // One classification asks about the same directories several times (PATH, git): ask the sandbox once each.
  const canWrite = options.canWrite;
  const seen = new Map<string, boolean>();
  const memo = canWrite && ((p: string) => seen.get(p) ?? seen.set(p, canWrite(p)).get(p)!);
  const site: ClassifyOptions = memo ? { ...options, canWrite: memo } : options;
  const state: State = { options: site, reader, wantSafe, depth: 0, cwds: options.cwd ? [options.cwd] : null };
  const stdin: Stdin = options.tty === false ? 'empty' : undefined;
  return invocation(argv.map((word) => literal(word)), [], stdin, state);
}

function deeper(state: State): State {
  return { ...state, depth: state.depth + 1 };
}

function invocation(words: readonly ShellWord[], assignments: ShellCommand['assignments'], stdin: Stdin, state: State): ScriptVerdict {
  if (state.depth > MAX_WRAPPER_DEPTH) return danger(DANGEROUS_REASONS.tooDeep);
  const first = words[0];
  if (first === undefined) return UNKNOWN;
  const name = programName(first);
  if (name === null) return danger(DANGEROUS_REASONS.unknownProgram);
  const trusted = isLiteral(first) && isTrustedProgram(first.value, state.options.trustedShells);
  if (SHELL_NAME.test(name)) return shell(name, words, assignments, stdin, state, trusted);
  switch (name) {
    case 'eval': {
      const values = literalValues(words.slice(1));
      return values === null ? danger(DANGEROUS_REASONS.unknownCode) : noSafe(script(values.join(' '), stdin, deeper(state)));
    }
    case 'source':
    case '.':
      return sourced(words[1], stdin, state);
    case 'trap':
      return trap(words.slice(1), stdin, state);
    case 'alias':
      return alias(words.slice(1), state);
  }
  if (isWrapper(name)) return wrapper(name, words, assignments, stdin, state);
  if (isFamily(name)) {
    const reason = familyDanger(name, { words, assignments }, inside(stdin, deeper(state)));
    if (reason !== undefined) return danger(reason);
  } else if (!trusted || !hasSafeRule(name)) {
    const found = dangerFurtherOn(words, stdin, state);
    if (found) return found;
  }
  return { safe: trusted && knownSafe(words, assignments, state) };
}

/** A family check's view inside: commands and scripts one level deeper, with the same input. */
function inside(stdin: Stdin, state: State): Inside {
  return {
    command: (words) => invocation(words, [], stdin, state).danger,
    script: (text) => script(text, stdin, state).danger,
  };
}

function noSafe(verdict: Verdict): Verdict {
  return verdict.danger === undefined ? UNKNOWN : danger(verdict.danger);
}

function knownSafe(words: readonly ShellWord[], assignments: ShellCommand['assignments'], state: State): boolean {
  if (!state.wantSafe || assignments.length > 0) return false;
  const values = literalValues(words);
  if (values === null) return false;
  const { options } = state;
  const repo: RepoSite = { env: options.env ?? process.env, ...(options.canWrite ? { canWrite: options.canWrite } : {}) };
  return isSafeInvocation(values, { ...(options.platform ? { platform: options.platform } : {}), cwds: state.cwds, tty: options.tty ?? true, repo });
}

// Programs whose job is to run the command in their arguments (with options rig does not model).
const RUNS_ITS_ARGUMENTS = new Set([
  'strace', 'ltrace', 'valgrind', 'gdb', 'firejail', 'proot', 'fakeroot', 'fakechroot', 'eatmydata', 'unbuffer', 'chronic',
  'faketime', 'torsocks', 'proxychains', 'proxychains4', 'xvfb-run', 'dbus-run-session', 'systemd-run', 'sg', 'pkexec',
  'caffeinate', 'catchsegv', 'perf', 'parallel', 'rlwrap', 'ts', 'pv',
]);

/**
 * An unknown program may run its arguments (strace, docker run, ssh, ...): a later argument
 * naming a shell, a wrapper or a dangerous family is classified as a command of its own. For
 * programs that exist to run a command, an argument known only at run time could be that command.
 */
function dangerFurtherOn(words: readonly ShellWord[], stdin: Stdin, state: State): Verdict | undefined {
  const program = words[0] ? programName(words[0]) : null;
  const runsArguments = program !== null && RUNS_ITS_ARGUMENTS.has(program);
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (!isLiteral(word)) {
      if (runsArguments) return danger(DANGEROUS_REASONS.unknownProgram);
      continue;
    }
    const name = path.basename(word.value);
    if (!SHELL_NAME.test(name) && !isWrapper(name) && !isFamily(name)) continue;
    const verdict = invocation(words.slice(i), [], stdin, deeper(state));
    if (verdict.danger !== undefined) return danger(verdict.danger);
  }
  return undefined;
}

function wrapper(name: string, words: readonly ShellWord[], assignments: ShellCommand['assignments'], stdin: Stdin, state: State): Verdict {
  const inner = innerCommand(name, words);
  switch (inner.kind) {
    case 'command':
      // xargs gives the commands it runs /dev/null as input.
      return noSafe(invocation(inner.words, [...assignments, ...inner.assignments], name === 'xargs' ? 'empty' : stdin, deeper(state)));
    case 'script':
      return isLiteral(inner.script) ? noSafe(script(inner.script.value, stdin, deeper(state))) : danger(DANGEROUS_REASONS.unknownCode);
    case 'none':
      return UNKNOWN;
    case 'unknown':
      return dangerFurtherOn(words, stdin, state) ?? danger(DANGEROUS_REASONS.unknownProgram);
  }
}

type ShellMode = { kind: 'command'; script: ShellWord } | { kind: 'stdin' } | { kind: 'file'; path: ShellWord } | { kind: 'unknown' };

/** Reads a shell's options: `-c` (also in clusters like -lc, -ec), `-s`, `-o opt`, `--rcfile f`, then its operands. */
function shellMode(args: readonly ShellWord[]): ShellMode {
  let command = false;
  let fromStdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (!isLiteral(word)) {
      if (word.prefix === '' || /^[-+]/.test(word.prefix)) return { kind: 'unknown' };
      break;
    }
    const arg = word.value;
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (!/^[-+]./.test(arg)) break;
    if (arg.startsWith('--')) {
      if (arg === '--rcfile' || arg === '--init-file') i++;
      continue;
    }
    const flags = arg.slice(1);
    if (arg.startsWith('-') && flags.includes('c')) command = true;
    if (arg.startsWith('-') && flags.includes('s')) fromStdin = true;
    // -o and -O take an option name as the next word, once per occurrence.
    i += [...flags].filter((flag) => flag === 'o' || flag === 'O').length;
  }
  const operands = args.slice(i);
  if (command) return operands[0] ? { kind: 'command', script: operands[0] } : { kind: 'unknown' };
  if (fromStdin || operands.length === 0) return { kind: 'stdin' };
  return { kind: 'file', path: operands[0]! };
}

function shell(name: string, words: readonly ShellWord[], assignments: ShellCommand['assignments'], stdin: Stdin, state: State, trusted: boolean): ScriptVerdict {
  const mode = shellMode(words.slice(1));
  switch (mode.kind) {
    case 'command': {
      if (!isLiteral(mode.script)) return danger(DANGEROUS_REASONS.unknownCode);
      const verdict = script(mode.script.value, stdin, deeper(state));
      // Known safe only in the form Codex accepts: `bash|zsh|sh -c|-lc SCRIPT` with a real shell.
      const flag = words[1]?.value;
      const qualifies =
        trusted && SAFE_SHELLS.has(name) && words.length === 3 && (flag === '-c' || flag === '-lc') && assignments.length === 0 && shellResolves(words[0]!, name, flag, state);
      if (qualifies) return verdict;
      return { ...noSafe(verdict), ...(verdict.parts ? { parts: verdict.parts.map((part) => ({ ...part, safe: false })) } : {}) };
    }
    case 'stdin':
      return noSafe(programFrom(stdin, state));
    case 'file':
      return scriptFile(mode.path, stdin, state);
    case 'unknown':
      return danger(DANGEROUS_REASONS.unknownCode);
  }
}

/**
 * A bare shell name must also be found on PATH where no command could have put one; and a login
 * shell (`-lc`) or zsh (which always reads ~/.zshenv) runs startup files from HOME, so HOME must
 * not be writable by commands either.
 */
function shellResolves(word: ShellWord, name: string, flag: string, state: State): boolean {
  if (!state.wantSafe || !isLiteral(word)) return false;
  const { options } = state;
  const env = options.env ?? process.env;
  const repo: RepoSite = { env, ...(options.canWrite ? { canWrite: options.canWrite } : {}) };
  if (!resolvesToTrustedProgram(word.value, repo, options.trustedShells)) return false;
  if (name !== 'zsh' && flag !== '-lc') return true;
  const homes = [env['HOME'], env['ZDOTDIR']].filter((dir): dir is string => dir !== undefined && dir !== '');
  return options.canWrite === undefined || homes.every((dir) => !options.canWrite!(path.join(dir, '.rig-write-probe')));
}

const READS_INPUT = /^\/(dev\/(stdin|fd\/0|tty)|proc\/(self|thread-self|\d+)\/fd\/0)$/;

/** `bash FILE` / `source FILE`: a file rig does not read runs (not dangerous by itself), unless the "file" is the input. */
function scriptFile(file: ShellWord, stdin: Stdin, state: State): Verdict {
  if (!isLiteral(file)) return danger(DANGEROUS_REASONS.unknownCode);
  if (READS_INPUT.test(file.value)) return noSafe(programFrom(stdin, state));
  if (file.value.startsWith('/dev/') || file.value.startsWith('/proc/')) return danger(DANGEROUS_REASONS.unknownCode);
  return UNKNOWN;
}

function sourced(file: ShellWord | undefined, stdin: Stdin, state: State): Verdict {
  return file === undefined ? UNKNOWN : scriptFile(file, stdin, state);
}

/** The program a shell reads from its input. */
function programFrom(stdin: Stdin, state: State): Verdict {
  if (stdin === 'empty') return UNKNOWN;
  if (stdin === undefined) return danger(DANGEROUS_REASONS.unknownCode);
  switch (stdin.kind) {
    case 'text':
      return stdin.text === null ? danger(DANGEROUS_REASONS.unknownCode) : script(stdin.text, stdin, deeper(state));
    case 'pipe': {
      const text = stdin.from ? producedText(stdin.from) : null;
      return text === null ? danger(DANGEROUS_REASONS.unknownCode) : script(text, 'empty', deeper(state));
    }
    case 'file':
      return scriptFile(stdin.path, undefined, state);
    case 'unknown':
      return danger(DANGEROUS_REASONS.unknownCode);
  }
}

/** What a command writes to a pipe, when that is certain: literal echo/printf, or cat of a heredoc. */
function producedText(command: ShellCommand): string | null {
  const values = literalValues(command.words);
  if (values === null || command.assignments.length > 0) return null;
  const [program, ...args] = values;
  if (program === 'echo') {
    let newline = true;
    while (args[0] !== undefined && /^-[neE]+$/.test(args[0])) {
      if (args[0].includes('e')) return null;
      if (args[0].includes('n')) newline = false;
      args.shift();
    }
    // dash's echo expands backslash escapes where bash's does not: only backslash-free text is certain.
    if (args.some((arg) => arg.includes('\\'))) return null;
    return args.join(' ') + (newline ? '\n' : '');
  }
  if (program === 'printf' && args.length === 1 && !/[%\\]/.test(args[0]!)) return args[0]!;
  if (program === 'cat' && args.length === 0 && command.stdin?.kind === 'text') return command.stdin.text;
  return null;
}

function trap(args: readonly ShellWord[], stdin: Stdin, state: State): Verdict {
  const rest = args[0] && isLiteral(args[0]) && args[0].value === '--' ? args.slice(1) : args;
  const action = rest[0];
  if (action === undefined) return UNKNOWN;
  if (!isLiteral(action)) return danger(DANGEROUS_REASONS.unknownCode);
  if (action.value.startsWith('-')) return UNKNOWN;
  return noSafe(script(action.value, stdin, deeper(state)));
}

function alias(args: readonly ShellWord[], state: State): Verdict {
  for (const word of args) {
    if (!isLiteral(word)) return danger(DANGEROUS_REASONS.unknownCode);
    const eq = word.value.indexOf('=');
    if (eq < 0) continue;
    const verdict = script(word.value.slice(eq + 1), undefined, deeper(state));
    if (verdict.danger !== undefined) return danger(verdict.danger);
  }
  return UNKNOWN;
}

/**
 * A script: every command in it is classified (with `stdin` for those the script does not
 * redirect); known safe when it is plain and every command is, following `cd` for the commands after it.
 */
function script(text: string, stdin: Stdin, state: State): ScriptVerdict {
  if (state.depth > MAX_WRAPPER_DEPTH) return danger(DANGEROUS_REASONS.tooDeep);
  if (FORK_BOMB.test(text)) return danger(DANGEROUS_REASONS.forkBomb);
  const syntax = state.reader.read(text);
  if (syntax === null) throw new ParserNeeded('this script needs the bash parser');
  const plain = syntax.plainArgv !== null && syntax.opaque === undefined && syntax.commands.length > 0;
  let cwds = state.cwds;
  const parts: Verdict[] = [];
  let found: string | undefined;
  for (const command of syntax.commands) {
    const verdict = invocation(command.words, command.assignments, command.stdin ?? stdin, { ...state, cwds });
    parts.push(verdict);
    found ??= verdict.danger;
    if (plain) cwds = afterCd(command, cwds, state.options.env ?? process.env);
  }
  found ??= lexicalDanger(text, syntax.heredocRows ?? [], state);
  found ??= syntax.opaque !== undefined ? DANGEROUS_REASONS.unreadable : undefined;
  const safe = plain && parts.every((part) => part.safe);
  return { safe, ...(found !== undefined ? { danger: found } : {}), ...(plain ? { parts } : {}) };
}

/**
 * A second look that does not trust the parser: each stretch of the text between separators, with
 * quotes and backslashes dropped, read as a command (words holding `$` or a backquote count as
 * unknown). A dangerous-family command found this way counts even where the parse saw a string:
 * tree-sitter misreads some heredocs and continuations, and bash turns strings into code in
 * arithmetic (`x='a[$(rm -rf y)]'; : $((x))`). It only ever adds a danger, and only a family's
 * own (not "unknown program", which text in strings would raise all the time). Heredoc bodies are
 * skipped: they are data, unless fed to a shell, which reads them itself.
 */
function lexicalDanger(text: string, heredocRows: readonly number[], state: State): string | undefined {
  const data = new Set(heredocRows);
  const code = text
    .split('\n')
    .filter((_, row) => !data.has(row))
    .join('\n')
    .replace(/\\\n/g, '');
  for (const segment of code.split(/[;&|()\n`{}]|\$\(/)) {
    const words = segment.split(/[ \t]+/).map((word) => word.replace(/['"\\]/g, '')).filter((word) => word !== '');
    while (words.length > 0 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!) || LEADING_KEYWORDS.has(words[0]!))) words.shift();
    const name = words[0] === undefined ? undefined : path.basename(words[0]);
    if (name === undefined || !(isFamily(name) || isWrapper(name))) continue;
    const read = words.map((word) => (/[$`]/.test(word) ? unknownWord(word, false) : literal(word)));
    const reason = invocation(read, [], 'empty', deeper(state)).danger;
    if (reason !== undefined && FAMILY_REASONS.has(reason)) return reason;
  }
  return undefined;
}

const LEADING_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'time', 'coproc', 'exec', 'command', 'builtin']);
const FAMILY_REASONS = new Set<string>(
  Object.entries(DANGEROUS_REASONS)
    .filter(([key]) => !['unknownProgram', 'unknownCode', 'unreadable', 'tooDeep'].includes(key))
    .map(([, reason]) => reason),
);

/** Where the next command may start after this one, if it is a `cd` (it may fail, so the old place stays possible). */
function afterCd(command: ShellCommand, cwds: readonly string[] | null, env: Readonly<Record<string, string | undefined>>): readonly string[] | null {
  const name = command.words[0];
  if (cwds === null || name === undefined || !isLiteral(name) || name.value !== 'cd') return cwds;
  const values = literalValues(command.words);
  if (values === null) return null;
  let i = 1;
  while (i < values.length && /^-[LPe@]+$/.test(values[i]!)) i++;
  if (values[i] === '--') i++;
  const operands = values.slice(i);
  const target = operands.length === 0 ? env['HOME'] : operands[0]!;
  if (target === undefined || target === '-' || target.startsWith('~')) return null;
  if (!target.startsWith('/') && env['CDPATH'] && !/^\.\.?(\/|$)/.test(target)) return null;
  return [...new Set([...cwds, ...cwds.map((cwd) => path.resolve(cwd, target))])];
}
