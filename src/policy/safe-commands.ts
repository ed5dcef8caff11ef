// "Known safe" commands: read-only invocations that may run without asking
// under the `untrusted` approval policy. Anything not recognised here is not
// safe; the lists follow the reference (safety.md §6) exactly.

import path from 'node:path';
import { extractShellScript, type BashParser } from './bash.js';

const ALWAYS_SAFE = new Set([
  'cat', 'cd', 'cut', 'echo', 'expr', 'false', 'grep', 'head', 'id', 'ls', 'nl', 'paste', 'pwd', 'rev',
  'seq', 'stat', 'tail', 'tr', 'true', 'uname', 'uniq', 'wc', 'which', 'whoami',
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

const GIT_GLOBAL_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--config-env', '--exec-path', '--git-dir', '--namespace', '--super-prefix', '--work-tree']);
const GIT_UNSAFE_GLOBAL_FLAGS = new Set(['-p', '--paginate']);
const GIT_READ_ONLY_SUBCOMMANDS = new Set(['status', 'log', 'diff', 'show', 'branch']);
const GIT_READ_ONLY_BRANCH_FLAGS = new Set(['--list', '-l', '--show-current', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose']);

export interface SafetyPlatform {
  /** Defaults to process.platform; `numfmt` and `tac` are only known on Linux. */
  platform?: NodeJS.Platform;
}

/** The program name a command runs, as the classifiers compare it (`/usr/bin/git` → `git`). */
export function executableName(program: string): string {
  return path.basename(program);
}

/** Whether this argv, run directly (no shell), is a known read-only command. */
export function isSafeToCallWithExec(argv: readonly string[], options: SafetyPlatform = {}): boolean {
  const program = argv[0];
  if (program === undefined) return false;
  const name = executableName(program);
  const args = argv.slice(1);
  if (ALWAYS_SAFE.has(name)) return true;
  if (LINUX_ONLY_SAFE.has(name)) return (options.platform ?? process.platform) === 'linux';
  switch (name) {
    case 'base64':
      return !args.some((arg) => arg === '-o' || arg === '--output' || arg.startsWith('--output=') || (arg.startsWith('-o') && arg !== '-o'));
    case 'find':
      return !argv.some((arg) => UNSAFE_FIND_OPTIONS.has(arg));
    case 'rg':
      return !argv.some(
        (arg) => UNSAFE_RG_FLAGS.has(arg) || UNSAFE_RG_OPTIONS_WITH_VALUE.some((option) => arg === option || arg.startsWith(`${option}=`)),
      );
    case 'sed':
      return argv.length <= 4 && argv[1] === '-n' && isSedPrintRange(argv[2]);
    case 'git':
      return isReadOnlyGit(args);
    default:
      return false;
  }
}

/**
 * Known safe: the argv itself is safe, or it is `bash|zsh|sh -c|-lc <script>` whose script is only
 * plain commands joined by `&&`, `||`, `;`, `|`, each of them safe. Without a parser, shell scripts are
 * never safe (use classifyCommand to load the parser only when needed).
 */
export function isKnownSafeCommand(argv: readonly string[], bash: BashParser | null, options: SafetyPlatform = {}): boolean {
  const normalized = argv.map((word) => (word === 'zsh' ? 'bash' : word));
  if (isSafeToCallWithExec(normalized, options)) return true;
  const shell = extractShellScript(normalized);
  if (shell === null || bash === null) return false;
  const commands = bash.parsePlainCommands(shell.script);
  return commands !== null && commands.length > 0 && commands.every((command) => isSafeToCallWithExec(command, options));
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

function isUnsafeGitGlobalOption(arg: string): boolean {
  if (GIT_UNSAFE_GLOBAL_FLAGS.has(arg) || GIT_GLOBAL_OPTIONS_WITH_VALUE.has(arg)) return true;
  if ((arg.startsWith('-C') || arg.startsWith('-c')) && arg.length > 2 && !arg.startsWith('--')) return true;
  return [...GIT_GLOBAL_OPTIONS_WITH_VALUE].some((option) => option.startsWith('--') && arg.startsWith(`${option}=`));
}

function isUnsafeGitSubcommandOption(arg: string): boolean {
  return arg === '--output' || arg.startsWith('--output=') || arg === '--ext-diff' || arg === '--textconv' || arg === '--exec' || arg.startsWith('--exec=');
}

function isReadOnlyGit(args: readonly string[]): boolean {
  const sub = findGitSubcommand(args);
  if (!sub || !GIT_READ_ONLY_SUBCOMMANDS.has(sub.name)) return false;
  if (args.slice(0, sub.index).some(isUnsafeGitGlobalOption)) return false;
  const subArgs = args.slice(sub.index + 1);
  if (subArgs.some(isUnsafeGitSubcommandOption)) return false;
  if (sub.name === 'branch') {
    // Anything but listing flags could create, rename or delete a branch.
    return subArgs.every((arg) => GIT_READ_ONLY_BRANCH_FLAGS.has(arg) || arg.startsWith('--format='));
  }
  return true;
}
