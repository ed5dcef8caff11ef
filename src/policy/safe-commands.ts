// "Known safe" commands: read-only invocations that may run without asking under the `untrusted`
// approval policy. The lists follow the reference (safety.md §6); rig is stricter where a listed
// program can still write or run something: `uniq` writes its second operand, ripgrep's `-z`
// hides in short-option clusters, git obeys the configuration of whatever repository it finds
// (see git-repo.ts) and pages through `less` on a terminal, and a program counts only when it is
// found on PATH or in a system directory, never a binary of the same name elsewhere.

import fs from 'node:fs';
import path from 'node:path';
import { gitRunsOnlyItself, type RepoSite } from './git-repo.js';

const ALWAYS_SAFE = new Set([
  'cat', 'cd', 'cut', 'echo', 'expr', 'false', 'grep', 'head', 'id', 'ls', 'nl', 'paste', 'pwd', 'rev',
  'seq', 'stat', 'tail', 'tr', 'true', 'uname', 'wc', 'which', 'whoami',
]);
const LINUX_ONLY_SAFE = new Set(['numfmt', 'tac']);

const UNSAFE_FIND_OPTIONS = new Set([
  // run arbitrary commands
  '-exec', '-execdir', '-ok', '-okdir',
  // delete matches
  '-delete',
  // write path names to files
  '-fls', '-fprint', '-fprint0', '-fprintf',
]);

const UNSAFE_RG_OPTIONS_WITH_VALUE = ['--pre', '--hostname-bin'];
const UNSAFE_RG_FLAGS = new Set(['--search-zip', '-z']);
// ripgrep's short options that take a value: in a cluster, the rest is that value.
const RG_SHORT_WITH_VALUE = new Set([...'ABCEMTdefgjmrt']);

const GIT_GLOBAL_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--config-env', '--exec-path', '--git-dir', '--namespace', '--super-prefix', '--work-tree']);
/** Global options that change nothing about what git reads or runs. */
const GIT_HARMLESS_GLOBALS = new Set(['--no-pager', '-P', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--no-replace-objects', '--no-advice']);
const GIT_READ_ONLY_SUBCOMMANDS = new Set(['status', 'log', 'diff', 'show', 'branch']);
const GIT_READ_ONLY_BRANCH_FLAGS = new Set(['--list', '-l', '--show-current', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose']);
/** Subcommand options that write a file or run a program; git also takes any unique prefix of them. */
const GIT_UNSAFE_OPTIONS = ['output', 'ext-diff', 'textconv', 'exec', 'open-files-in-pager'];
/** Real options that happen to be prefixes of an unsafe one. */
const GIT_OPTIONS_NOT_ABBREVIATIONS = new Set(['text']);

/** Directories whose programs are the system's own (not writable by sandboxed commands). */
const SYSTEM_BIN_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin', '/usr/local/sbin', '/opt/homebrew/bin', '/run/current-system/sw/bin']);

export interface SafetyPlatform {
  /** Defaults to process.platform; `numfmt` and `tac` are only known on Linux. */
  platform?: NodeJS.Platform;
}

/** Where a command runs, for the checks that depend on it. */
export interface SafeSite extends SafetyPlatform {
  /** Directories the command may start in (several after a `cd` that may fail); null when unknown. */
  cwds: readonly string[] | null;
  /** The command runs on a terminal (a pager could then read the model's keystrokes). */
  tty: boolean;
  repo: RepoSite;
}

/** The program name a command runs, as the classifiers compare it (`/usr/bin/git` → `git`). */
export function executableName(program: string): string {
  return path.basename(program);
}

/**
 * Whether `program` names the real program of its name: a bare name (found on PATH, like every
 * command the user types), a path in a system directory, or one of the session's own shells.
 */
export function isTrustedProgram(program: string, trusted: readonly string[] = []): boolean {
  if (!program.includes('/')) return program !== '' && program !== '.' && program !== '..';
  if (trusted.includes(program)) return true;
  return path.posix.normalize(program) === program && SYSTEM_BIN_DIRS.has(path.posix.dirname(program));
}

/** Whether `name` has a known-safe rule (its arguments are then read by that rule, not searched for commands). */
export function hasSafeRule(name: string): boolean {
  return ALWAYS_SAFE.has(name) || LINUX_ONLY_SAFE.has(name) || ['uniq', 'base64', 'find', 'rg', 'sed', 'git'].includes(name);
}

/**
 * isTrustedProgram, and for a bare name also where PATH finds it: no directory searched before it
 * may be one a command could write (the model could put an `ls` there), nor relative (the cwd).
 * Checked only when the site says what is writable.
 */
export function resolvesToTrustedProgram(program: string, repo: RepoSite, trusted: readonly string[] = []): boolean {
  if (!isTrustedProgram(program, trusted)) return false;
  const canWrite = repo.canWrite;
  if (program.includes('/') || canWrite === undefined) return true;
  // Without PATH, shells search their built-in default.
  for (const dir of (repo.env['PATH'] || '/usr/local/bin:/usr/bin:/bin').split(':')) {
    if (dir === '' || !path.isAbsolute(dir)) return false;
    if (canWrite(path.join(dir, '.rig-write-probe')) && writableByUser(dir)) return false;
    if (isExecutable(path.join(dir, program))) return true;
  }
  return true;
}

/** The user's own permissions still apply without a sandbox (danger-full-access): /usr/bin stays root's. */
function writableByUser(dir: string): boolean {
  for (let current = dir; ; current = path.dirname(current)) {
    try {
      fs.accessSync(current, fs.constants.W_OK);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
    if (path.dirname(current) === current) return false;
  }
}

function isExecutable(file: string): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.isFile() && (stat.mode & 0o111) !== 0;
}

/** Whether this literal argv, run directly (no shell), is a known read-only command where it runs. */
export function isSafeInvocation(argv: readonly string[], site: SafeSite): boolean {
  const program = argv[0];
  if (program === undefined || !isTrustedProgram(program)) return false;
  const name = executableName(program);
  // The cheap checks on the words first; where PATH finds the program, and git's repository, last.
  const byWords = safeByWords(name, argv, site);
  if (byWords === false) return false;
  if (!resolvesToTrustedProgram(program, site.repo)) return false;
  return byWords === 'if-git-repository-runs-nothing' ? gitSafeWhereItRuns(site) : true;
}

function safeByWords(name: string, argv: readonly string[], site: SafeSite): boolean | 'if-git-repository-runs-nothing' {
  const args = argv.slice(1);
  if (ALWAYS_SAFE.has(name)) return true;
  if (LINUX_ONLY_SAFE.has(name)) return (site.platform ?? process.platform) === 'linux';
  switch (name) {
    case 'uniq':
      return uniqWritesNothing(args);
    case 'base64':
      return !args.some((arg) => /^--o(u(t(p(u(t)?)?)?)?)?(=|$)/.test(arg) || (/^-[^-]/.test(arg) && arg.includes('o')));
    case 'find':
      return !argv.some((arg) => UNSAFE_FIND_OPTIONS.has(arg));
    case 'rg':
      return !args.some((arg) => rgOptionIsUnsafe(arg));
    case 'sed':
      return argv.length <= 4 && argv[1] === '-n' && isSedPrintRange(argv[2]);
    case 'git':
      return isReadOnlyGit(args, site) ? 'if-git-repository-runs-nothing' : false;
    default:
      return false;
  }
}

/**
 * Compatibility form of isSafeInvocation for an argv on its own: git counts only with a `cwd`
 * (its repository decides what it runs) and `canWrite` (without it, everything counts as writable).
 */
export function isSafeToCallWithExec(
  argv: readonly string[],
  options: SafetyPlatform & { cwd?: string; tty?: boolean; env?: RepoSite['env']; canWrite?: RepoSite['canWrite'] } = {},
): boolean {
  const repo: RepoSite = { env: options.env ?? process.env, ...(options.canWrite ? { canWrite: options.canWrite } : {}) };
  return isSafeInvocation(argv, { ...options, cwds: options.cwd ? [options.cwd] : null, tty: options.tty ?? true, repo });
}

/** `uniq [OPTION]... [INPUT [OUTPUT]]`: a second operand is a file it writes. */
function uniqWritesNothing(args: readonly string[]): boolean {
  let operands = 0;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (options && arg === '--') {
      options = false;
    } else if (options && arg.startsWith('--')) {
      if (/^--(skip-fields|skip-chars|check-chars)$/.test(arg)) i++;
    } else if (options && arg.startsWith('-') && arg !== '-') {
      // -f N, -s N, -w N take a value (attached, or the next word).
      const value = /[fsw]/.exec(arg.slice(1));
      if (value && value.index === arg.length - 2) i++;
    } else {
      operands++;
    }
  }
  return operands <= 1;
}

function rgOptionIsUnsafe(arg: string): boolean {
  if (UNSAFE_RG_FLAGS.has(arg) || UNSAFE_RG_OPTIONS_WITH_VALUE.some((option) => arg === option || arg.startsWith(`${option}=`))) return true;
  if (!arg.startsWith('-') || arg.startsWith('--')) return false;
  for (const flag of arg.slice(1)) {
    if (flag === 'z') return true;
    if (RG_SHORT_WITH_VALUE.has(flag)) return false;
  }
  return false;
}

/** `N p` or `M,N p` as the script of `sed -n`. */
function isSedPrintRange(arg: string | undefined): boolean {
  return arg !== undefined && /^[0-9]+(,[0-9]+)?p$/.test(arg);
}

/** Where the git subcommand is, skipping global options (and the values of those that take one). */
export function findGitSubcommand(args: readonly string[]): { index: number; name: string } | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (GIT_GLOBAL_OPTIONS_WITH_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return { index: i, name: arg };
  }
  return undefined;
}

function isUnsafeGitSubcommandOption(arg: string): boolean {
  if (!arg.startsWith('--')) return false;
  const name = arg.slice(2).split('=')[0]!;
  if (GIT_OPTIONS_NOT_ABBREVIATIONS.has(name)) return false;
  return name !== '' && GIT_UNSAFE_OPTIONS.some((option) => option.startsWith(name));
}

function isReadOnlyGit(args: readonly string[], site: SafeSite): boolean {
  const sub = findGitSubcommand(args);
  if (!sub || !GIT_READ_ONLY_SUBCOMMANDS.has(sub.name)) return false;
  const globals = args.slice(0, sub.index);
  if (!globals.every((arg) => GIT_HARMLESS_GLOBALS.has(arg))) return false;
  // On a terminal git pages through less, which runs commands typed at it.
  if (site.tty && !globals.includes('--no-pager') && !globals.includes('-P')) return false;
  const subArgs = args.slice(sub.index + 1);
  if (subArgs.some(isUnsafeGitSubcommandOption)) return false;
  // Anything but listing flags could create, rename or delete a branch.
  return sub.name !== 'branch' || subArgs.every((arg) => GIT_READ_ONLY_BRANCH_FLAGS.has(arg) || arg.startsWith('--format='));
}

function gitSafeWhereItRuns(site: SafeSite): boolean {
  return site.cwds !== null && site.cwds.length > 0 && site.cwds.every((cwd) => gitRunsOnlyItself(cwd, site.repo));
}
