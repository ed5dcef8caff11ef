// Programs that run another program (sudo, env, timeout, nice, xargs, ...): where in their
// arguments the inner command starts, after their own options. Each is described by its options
// (which take a value, how long options abbreviate) so a value is never mistaken for the command
// and a command is never mistaken for a value. Anything the description cannot account for makes
// the inner command unknown, which the classifier treats as possibly dangerous.

import { isLiteral, literal, unknownWord, type ShellWord } from './shell-word.js';
import { shlexSplit } from './shlex.js';

export type Inner =
  /** The wrapper runs these words as a command (with these extra environment assignments). */
  | { kind: 'command'; words: ShellWord[]; assignments: { name: string; value: ShellWord }[] }
  /** The wrapper runs this text as a shell script. */
  | { kind: 'script'; script: ShellWord }
  /** The wrapper runs nothing (prints, lists, or fails on its usage). */
  | { kind: 'none' }
  /** Its arguments could not be read with certainty. */
  | { kind: 'unknown' };

interface WrapperSpec {
  /** Short options taking a value (attached, or the next word). */
  shortValue?: string;
  /** Short options whose value can only be attached (`-e[EOF]`). */
  shortOptional?: string;
  /** Long options (without `--`) taking a value; `=value` or the next word. */
  longValue?: readonly string[];
  /** Long options that take no value, or only an attached `=value`. */
  longFlags?: readonly string[];
  /** Words after the options and before the command (timeout's duration, taskset's mask, flock's file). */
  positionals?: number;
  /** Options after which nothing is run (`command -v`, `sudo -l`, `sudo -e`). */
  noRun?: readonly string[];
  /** Option whose value is a shell script (`su -c`, `flock -c`, `script -c`). */
  scriptOption?: { short?: string; long?: readonly string[] };
  /** With no command after the options, this runs instead (xargs runs echo). */
  defaultCommand?: string;
}

const SPECS: Record<string, WrapperSpec> = {
  sudo: {
    shortValue: 'aCDghpRrTtUu',
    longValue: ['auth-type', 'chdir', 'chroot', 'close-from', 'command-timeout', 'group', 'host', 'other-user', 'prompt', 'role', 'type', 'user'],
    longFlags: ['askpass', 'background', 'bell', 'edit', 'help', 'list', 'login', 'non-interactive', 'preserve-env', 'preserve-groups', 'remove-timestamp', 'reset-timestamp', 'set-home', 'shell', 'stdin', 'validate', 'version'],
    noRun: ['-e', '--edit', '-l', '--list', '-v', '--validate', '-k', '-K', '-V', '--version', '-h', '--help'],
  },
  doas: { shortValue: 'Cu' },
  nice: { shortValue: 'n', longValue: ['adjustment'], longFlags: ['help', 'version'] },
  nohup: { longFlags: ['help', 'version'] },
  timeout: { shortValue: 'ks', longValue: ['kill-after', 'signal'], longFlags: ['foreground', 'preserve-status', 'verbose', 'help', 'version'], positionals: 1 },
  stdbuf: { shortValue: 'eio', longValue: ['error', 'input', 'output'], longFlags: ['help', 'version'] },
  time: { shortValue: 'fo', longValue: ['format', 'output'], longFlags: ['append', 'portability', 'quiet', 'verbose', 'help', 'version'] },
  command: { noRun: ['-v', '-V'] },
  builtin: {},
  exec: { shortValue: 'a' },
  setsid: { longFlags: ['ctty', 'fork', 'wait', 'help', 'version'] },
  ionice: { shortValue: 'cnPpu', longValue: ['class', 'classdata', 'pid', 'pgid', 'uid'], longFlags: ['ignore', 'help', 'version'], noRun: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  taskset: { longFlags: ['all-tasks', 'cpu-list', 'help', 'version'], noRun: ['-p', '--pid'], positionals: 1 },
  chrt: { shortValue: 'TPD', longValue: ['sched-runtime', 'sched-period', 'sched-deadline'], noRun: ['-p', '--pid', '-m', '--max'], positionals: 1 },
  flock: {
    shortValue: 'wE',
    longValue: ['timeout', 'wait', 'conflict-exit-code'],
    longFlags: ['shared', 'exclusive', 'unlock', 'nonblock', 'nb', 'close', 'no-fork', 'verbose', 'help', 'version'],
    positionals: 1,
    scriptOption: { short: 'c', long: ['command'] },
  },
  su: { shortValue: 'gGsw', longValue: ['group', 'supp-group', 'shell', 'whitelist-environment'], longFlags: ['login', 'preserve-environment', 'pty', 'help', 'version'], scriptOption: { short: 'c', long: ['command', 'session-command'] } },
  runuser: { shortValue: 'gGsuw', longValue: ['group', 'supp-group', 'shell', 'user', 'whitelist-environment'], longFlags: ['login', 'preserve-environment', 'pty', 'help', 'version'], scriptOption: { short: 'c', long: ['command', 'session-command'] } },
  script: { shortValue: 'EIOBTm', longValue: ['echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'logging-format', 'output-limit'], longFlags: ['append', 'return', 'flush', 'force', 'quiet', 'help', 'version'], scriptOption: { short: 'c', long: ['command'] } },
  chroot: { longValue: ['groups', 'userspec'], longFlags: ['skip-chdir', 'help', 'version'], positionals: 1 },
  unshare: { shortValue: 'SGRwl', longValue: ['setuid', 'setgid', 'root', 'wd', 'propagation', 'setgroups', 'map-user', 'map-group', 'map-users', 'map-groups', 'load-interp'] },
  nsenter: { shortValue: 'tSGrwmuinpUCT', longValue: ['target', 'setuid', 'setgid', 'root', 'wd', 'env'] },
  xargs: {
    shortValue: 'adEILnPs',
    shortOptional: 'eil',
    longValue: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
    longFlags: ['null', 'eof', 'replace', 'max-lines', 'interactive', 'no-run-if-empty', 'verbose', 'exit', 'show-limits', 'open-tty', 'help', 'version'],
    noRun: ['--show-limits', '--help', '--version'],
    defaultCommand: 'echo',
  },
};

export function isWrapper(name: string): boolean {
  return name in SPECS || name === 'env' || name === 'busybox' || name === 'coreutils' || name === 'watch';
}

/** The command (or script) a wrapper runs, from its arguments (`words[0]` is the wrapper). */
export function innerCommand(name: string, words: readonly ShellWord[]): Inner {
  switch (name) {
    case 'env':
      return envInner(words.slice(1));
    case 'busybox':
      return multiCall(words.slice(1));
    case 'coreutils': {
      const first = words[1];
      if (!first || !isLiteral(first)) return first ? { kind: 'unknown' } : { kind: 'none' };
      const program = /^--coreutils-prog=(.+)$/.exec(first.value)?.[1];
      return program ? { kind: 'command', words: [literal(program), ...words.slice(2)], assignments: [] } : { kind: 'none' };
    }
    case 'watch':
      return watchInner(words.slice(1));
  }
  const spec = SPECS[name];
  if (!spec) return { kind: 'unknown' };
  const parsed = parseOptions(spec, words.slice(1));
  if (parsed.kind !== 'command') return parsed;
  let rest = parsed.words;
  if (spec.defaultCommand !== undefined && rest.length === 0) rest = [literal(spec.defaultCommand)];
  if (name === 'xargs') {
    // The arguments it appends (or puts in place of -I's string) come from its input.
    rest = [...rest, unknownWord('<arguments read from input>')];
  }
  return { kind: 'command', words: rest, assignments: [] };
}

/** Skips the wrapper's own options; what remains after them (and its positionals) is the command. */
function parseOptions(spec: WrapperSpec, args: readonly ShellWord[]): Inner {
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (!isLiteral(word)) {
      // An option-shaped word known only at run time could consume the next word or end the options.
      if (word.prefix === '' || word.prefix.startsWith('-')) return { kind: 'unknown' };
      break;
    }
    const arg = word.value;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (spec.noRun?.includes(arg) || spec.noRun?.some((option) => option.startsWith('--') && arg.startsWith(`${option}=`))) return { kind: 'none' };
    if (arg.startsWith('--')) {
      const [name, value] = splitLong(arg);
      if (spec.scriptOption?.long?.includes(name)) {
        const script = value !== undefined ? literal(value) : args[i + 1];
        return script ? { kind: 'script', script } : { kind: 'none' };
      }
      const resolved = resolveLong(name, spec);
      if (resolved === undefined) return { kind: 'unknown' };
      if (resolved === 'value' && value === undefined) i++;
      continue;
    }
    // A short-option cluster: a value option takes the rest of the cluster, or the next word.
    const flags = arg.slice(1);
    if (/^\d+$/.test(flags)) continue; // nice -10
    for (let k = 0; k < flags.length; k++) {
      const flag = flags[k]!;
      if (spec.scriptOption?.short === flag) {
        const script = k + 1 < flags.length ? literal(flags.slice(k + 1)) : args[i + 1];
        return script ? { kind: 'script', script } : { kind: 'none' };
      }
      if (spec.noRun?.includes(`-${flag}`)) return { kind: 'none' };
      if (spec.shortOptional?.includes(flag)) break;
      if (spec.shortValue?.includes(flag)) {
        if (k === flags.length - 1) i++;
        break;
      }
    }
  }
  i += spec.positionals ?? 0;
  const rest = args.slice(i);
  if (spec.scriptOption && rest.length >= 2 && isLiteral(rest[0]!)) {
    // flock FILE -c SCRIPT: its -c may come after the file.
    const option = rest[0].value;
    if (option === `-${spec.scriptOption.short}` || spec.scriptOption.long?.some((long) => option === `--${long}`)) return { kind: 'script', script: rest[1]! };
  }
  return rest.length === 0 ? { kind: 'none' } : { kind: 'command', words: [...rest], assignments: [] };
}

function splitLong(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg.slice(2), undefined] : [arg.slice(2, eq), arg.slice(eq + 1)];
}

/** getopt_long accepts any unambiguous prefix of a long option; an unknown or ambiguous one is unreadable. */
function resolveLong(name: string, spec: WrapperSpec): 'value' | 'flag' | undefined {
  const values = spec.longValue ?? [];
  const flags = spec.longFlags ?? [];
  if (values.includes(name)) return 'value';
  if (flags.includes(name)) return 'flag';
  const matches = [...values.filter((option) => option.startsWith(name)).map(() => 'value' as const), ...flags.filter((option) => option.startsWith(name)).map(() => 'flag' as const)];
  if (name !== '' && matches.length > 0 && matches.every((kind) => kind === matches[0])) return matches[0];
  return undefined;
}

const ENV_VALUE_LONG = ['unset', 'chdir', 'split-string'];
const ENV_FLAG_LONG = ['ignore-environment', 'null', 'debug', 'list-signal-handling', 'default-signal', 'ignore-signal', 'block-signal', 'help', 'version'];

/** env [-i0v] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... [COMMAND [ARG]...]; -S splits its string into more arguments. */
function envInner(args: readonly ShellWord[]): Inner {
  const queue = [...args];
  const assignments: { name: string; value: ShellWord }[] = [];
  let options = true;
  while (queue.length > 0) {
    const word = queue[0]!;
    if (!isLiteral(word)) {
      // "NAME=$value" is still an assignment; anything that could turn out an option, an
      // assignment or the command is unreadable.
      const name = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word.prefix)?.[1];
      if (name !== undefined && !word.splits) {
        assignments.push({ name, value: unknownWord(word.text, false) });
        queue.shift();
        options = false;
        continue;
      }
      if (word.prefix === '' || word.prefix.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*$/.test(word.prefix)) return { kind: 'unknown' };
      return { kind: 'command', words: queue, assignments };
    }
    const arg = word.value;
    if (options && arg === '--') {
      queue.shift();
      options = false;
      continue;
    }
    if (options && arg.startsWith('--')) {
      const [name, value] = splitLong(arg);
      const full = [...ENV_VALUE_LONG, ...ENV_FLAG_LONG].filter((option) => name !== '' && option.startsWith(name));
      if (full.length !== 1 && !ENV_VALUE_LONG.includes(name) && !ENV_FLAG_LONG.includes(name)) return { kind: 'unknown' };
      const option = ENV_VALUE_LONG.includes(name) || ENV_FLAG_LONG.includes(name) ? name : full[0]!;
      queue.shift();
      if (ENV_VALUE_LONG.includes(option)) {
        const operand = value !== undefined ? literal(value) : queue.shift();
        if (option === 'split-string') {
          const split = splitString(operand);
          if (split === null) return { kind: 'unknown' };
          queue.unshift(...split);
        }
      }
      continue;
    }
    if (options && arg.startsWith('-') && arg !== '-') {
      queue.shift();
      const flags = arg.slice(1);
      for (let k = 0; k < flags.length; k++) {
        const flag = flags[k]!;
        if (flag !== 'u' && flag !== 'C' && flag !== 'S') continue;
        const operand = k + 1 < flags.length ? literal(flags.slice(k + 1)) : queue.shift();
        if (flag === 'S') {
          const split = splitString(operand);
          if (split === null) return { kind: 'unknown' };
          queue.unshift(...split);
        }
        break;
      }
      continue;
    }
    if (arg === '-') {
      queue.shift();
      continue;
    }
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(arg);
    if (assignment) {
      assignments.push({ name: assignment[1]!, value: literal(assignment[2]!) });
      queue.shift();
      options = false;
      continue;
    }
    return { kind: 'command', words: queue, assignments };
  }
  return { kind: 'none' };
}

/** env -S: its own quoting, plus `${VAR}` expansion (unknown to us). */
function splitString(operand: ShellWord | undefined): ShellWord[] | null {
  if (!operand || !isLiteral(operand)) return null;
  if (operand.value.includes('$') || operand.value.includes('\\')) return null;
  const words = shlexSplit(operand.value);
  return words === null ? null : words.map((word) => literal(word));
}

/** busybox APPLET args... (or `busybox --list` and friends, which run nothing). */
function multiCall(args: readonly ShellWord[]): Inner {
  const first = args[0];
  if (!first) return { kind: 'none' };
  if (!isLiteral(first)) return { kind: 'unknown' };
  if (first.value.startsWith('-')) return { kind: 'none' };
  return { kind: 'command', words: [...args], assignments: [] };
}

/** watch [options] COMMAND...: the words are joined and run by `sh -c`, unless -x/--exec. */
function watchInner(args: readonly ShellWord[]): Inner {
  let exec = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (!isLiteral(word)) return { kind: 'unknown' };
    const arg = word.value;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-')) break;
    if (arg === '-x' || arg === '--exec') exec = true;
    else if (arg === '-n' || arg === '--interval' || arg === '-q' || arg === '--equexit') i++;
    else if (!arg.startsWith('--') && /[nq]$/.test(arg)) i++;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return { kind: 'none' };
  if (exec) return { kind: 'command', words: [...rest], assignments: [] };
  if (rest.some((word) => !isLiteral(word))) return { kind: 'unknown' };
  return { kind: 'script', script: literal(rest.map((word) => word.value).join(' ')) };
}
