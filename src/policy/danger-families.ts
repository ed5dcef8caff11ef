// The dangerous families: commands that always go to a person (a prompt under every approval
// policy, `never` included; only --yolo skips it). Recursive or forced deletion, forced pushes and
// remote ref deletion or mirroring, git clean, filesystem formatting, raw writes to devices, fork
// bombs. Each check also answers for words known only at run time: a word that could turn the
// command into a family member counts as one.

import { isLiteral, literal, mayBeOptionLike, type ShellWord } from './shell-word.js';
import { shlexSplit } from './shlex.js';

/** What makes each kind of command dangerous, phrased for the model. */
export const DANGEROUS_REASONS = {
  rmForce: 'rm -f style commands are not permitted. Use a safer approach',
  rmRecursive: 'recursive deletion (rm -r) always needs approval: delete the files you mean by name, or ask the user',
  rmUnknown: 'rm with an argument known only at run time (it could be -r or -f) always needs approval',
  findDelete: 'find -delete removes every match without asking, so it always needs approval',
  findUnknown: 'find with an argument known only at run time (it could be -delete or -exec) always needs approval',
  forcePush: 'forced git pushes are not permitted. Push without --force, or ask the user to push',
  remoteRefDelete: 'deleting or mirroring remote refs (push --delete, :branch, --mirror, --prune, send-pack) always needs approval',
  gitUnknown: 'a git command whose subcommand or push arguments are known only at run time always needs approval',
  gitClean: 'git clean deletes untracked files for good, so it always needs approval (git clean -n shows what it would delete)',
  formatFilesystem: 'formatting or wiping filesystems is not permitted',
  rawDeviceWrite: 'writing raw data to a device is not permitted',
  forkBomb: 'fork bombs are not permitted',
  unknownProgram: 'the program to run is known only at run time (a variable or a substitution), so the command always needs approval',
  unknownCode: 'it runs shell code rig cannot read (from a variable, a pipe, a terminal or a substitution), so it always needs approval',
  unreadable: 'rig could not read this script with certainty, so it always needs approval',
  tooDeep: 'it nests commands deeper than rig reads, so it always needs approval',
} as const;

export const FORK_BOMB = /([A-Za-z_:][A-Za-z0-9_:]*)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&[^}]*\}/;

/** How a family check looks inside: another command (one level deeper), or a script. */
export interface Inside {
  command(words: ShellWord[]): string | undefined;
  script(text: string): string | undefined;
}

export interface Invocation {
  /** `words[0]` is the program. */
  words: readonly ShellWord[];
  /** Environment assignments in front of it (`A=1 git push`, `env A=1 git push`). */
  assignments: readonly { name: string; value: ShellWord }[];
}

type FamilyCheck = (invocation: Invocation, inside: Inside) => string | undefined;

const OPTION_CHARS = /[A-Za-z0-9=_-]/;

/** `name` abbreviates `option` (getopt_long takes any unique prefix), or is it. */
function abbreviates(name: string, option: string): boolean {
  return name !== '' && option.startsWith(name);
}

function rm({ words }: Invocation): string | undefined {
  let recursive = false;
  let unknown = false;
  for (const word of words.slice(1)) {
    if (!isLiteral(word)) {
      if (mayBeOptionLike(word, OPTION_CHARS)) unknown = true;
      continue;
    }
    const arg = word.value;
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0]!;
      if (abbreviates(name, 'force') || abbreviates(name, 'no-preserve-root')) return DANGEROUS_REASONS.rmForce;
      if (abbreviates(name, 'recursive')) recursive = true;
    } else if (arg.startsWith('-') && arg.length > 1) {
      if (arg.includes('f')) return DANGEROUS_REASONS.rmForce;
      if (/[rR]/.test(arg)) recursive = true;
    }
  }
  if (recursive) return DANGEROUS_REASONS.rmRecursive;
  return unknown ? DANGEROUS_REASONS.rmUnknown : undefined;
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
// Primaries (and find's own options) whose next word is their value, never an action.
const FIND_VALUE_PRIMARIES = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-type', '-xtype',
  '-user', '-group', '-uid', '-gid', '-perm', '-size', '-mtime', '-atime', '-ctime', '-mmin', '-amin', '-cmin', '-newer', '-anewer',
  '-cnewer', '-samefile', '-inum', '-links', '-maxdepth', '-mindepth', '-fstype', '-used', '-context', '-printf', '-fprint',
  '-fprint0', '-fls', '-regextype', '-files0-from', '-D',
]);
const FIND_ACTION_CHARS = /[a-z0-9-]/;

function find({ words }: Invocation, inside: Inside): string | undefined {
  const args = words.slice(1);
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!isLiteral(word)) {
      if (mayBeOptionLike(word, FIND_ACTION_CHARS)) return DANGEROUS_REASONS.findUnknown;
      continue;
    }
    const arg = word.value;
    if (arg === '-delete') return DANGEROUS_REASONS.findDelete;
    if (FIND_EXEC.has(arg)) {
      const inner: ShellWord[] = [];
      for (i++; i < args.length; i++) {
        const part = args[i]!;
        if (isLiteral(part) && (part.value === ';' || part.value === '+')) break;
        inner.push(isLiteral(part) && part.value.includes('{}') ? foundPath(part.value) : part);
      }
      const reason = inside.command(inner);
      if (reason !== undefined) return reason;
      continue;
    }
    if (FIND_VALUE_PRIMARIES.has(arg) || /^-newer[aBcmt][aBcmt]$/.test(arg)) {
      const value = args[++i];
      // A value that may split puts its extra words where actions go.
      if (value && !isLiteral(value) && value.splits && mayBeOptionLike(value, FIND_ACTION_CHARS)) return DANGEROUS_REASONS.findUnknown;
    }
  }
  return undefined;
}

/** `{}` in an -exec command: the path of a match, which starts with a starting point (never `-`). */
function foundPath(text: string): ShellWord {
  const before = text.slice(0, text.indexOf('{}'));
  return { text, value: null, prefix: before === '' ? './' : before, suffix: '', splits: false };
}

function dd({ words }: Invocation): string | undefined {
  for (const word of words.slice(1)) {
    if (isLiteral(word)) {
      if (/^of=\/dev\/(?!null$|zero$|stdout$|stderr$|tty$|fd\/)/.test(word.value)) return DANGEROUS_REASONS.rawDeviceWrite;
      continue;
    }
    const start = word.prefix;
    if (start === '' || 'of=/dev/'.startsWith(start) || start.startsWith('of=/dev/')) return DANGEROUS_REASONS.rawDeviceWrite;
  }
  return undefined;
}

const format: FamilyCheck = () => DANGEROUS_REASONS.formatFilesystem;

// git's global options that take the next word as their value.
const GIT_GLOBAL_VALUE = new Set(['-C', '-c', '--config-env', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--attr-source']);

interface GitConfigPair {
  key: string;
  value: ShellWord | null;
}

function git({ words, assignments }: Invocation, inside: Inside): string | undefined {
  const args = words.slice(1);
  const config: GitConfigPair[] = [];
  let index = -1;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!isLiteral(word)) return DANGEROUS_REASONS.gitUnknown;
    const arg = word.value;
    if (arg === '-c' || arg === '--config-env') {
      config.push(configPair(args[i + 1], arg === '--config-env'));
      i++;
    } else if (arg.startsWith('-c') && !arg.startsWith('--')) {
      config.push(configPair(literal(arg.slice(2)), false));
    } else if (arg.startsWith('--config-env=')) {
      config.push(configPair(literal(arg.slice('--config-env='.length)), true));
    } else if (GIT_GLOBAL_VALUE.has(arg)) {
      i++;
    } else if (!arg.startsWith('-')) {
      index = i;
      break;
    }
  }
  if (index < 0) return undefined;
  const sub = (args[index] as ShellWord & { value: string }).value;
  const rest = args.slice(index + 1);
  // A config entry whose key is known only at run time could be anything (an alias, a push refspec).
  if (config.some((pair) => pair.key === '*')) return DANGEROUS_REASONS.gitUnknown;
  // With help.autocorrect a mistyped subcommand runs the command it resembles.
  if (sub !== 'push' && config.some((pair) => pair.key === 'help.autocorrect')) {
    const reason = pushDanger(rest);
    if (reason !== undefined) return reason;
  }
  switch (sub) {
    case 'push':
      if (config.some((pair) => /^remote\..+\.(push|mirror)$/.test(pair.key))) return DANGEROUS_REASONS.forcePush;
      if (assignments.some((assignment) => /^GIT_(CONFIG|DIR$)/.test(assignment.name))) return DANGEROUS_REASONS.gitUnknown;
      return pushDanger(rest);
    case 'send-pack':
      return DANGEROUS_REASONS.remoteRefDelete;
    case 'clean':
      return cleanDanger(rest);
  }
  // An alias given on the command line (`-c alias.x=...`) runs what it stands for.
  const alias = config.find((pair) => pair.key === `alias.${sub.toLowerCase()}`);
  if (!alias) return undefined;
  if (alias.value === null || !isLiteral(alias.value)) return DANGEROUS_REASONS.gitUnknown;
  const expansion = alias.value.value;
  if (expansion.startsWith('!')) return inside.script(expansion.slice(1));
  const split = shlexSplit(expansion);
  if (split === null) return DANGEROUS_REASONS.gitUnknown;
  if (split[0] === sub) return undefined;
  return inside.command([words[0]!, ...args.slice(0, index), ...split.map((part) => literal(part)), ...rest]);
}

/** `-c key=value`: key lower-cased as git compares it; the value unknown for --config-env (it names a variable). */
function configPair(word: ShellWord | undefined, fromEnvironment: boolean): GitConfigPair {
  if (!word) return { key: '', value: null };
  const text = word.value ?? word.prefix;
  const eq = text.indexOf('=');
  const rawKey = eq < 0 ? text : text.slice(0, eq);
  // Section and variable names are case-insensitive; a subsection keeps its case.
  const first = rawKey.indexOf('.');
  const last = rawKey.lastIndexOf('.');
  const key = first < 0 ? rawKey.toLowerCase() : `${rawKey.slice(0, first).toLowerCase()}${rawKey.slice(first, last)}${rawKey.slice(last).toLowerCase()}`;
  if (word.value === null && eq < 0) return { key: '*', value: null };
  return { key, value: fromEnvironment || word.value === null ? null : literal(text.slice(eq + 1)) };
}

const PUSH_FORCE = ['force', 'force-with-lease', 'force-if-includes'];
const PUSH_REMOTE_WRITE = ['mirror', 'delete', 'prune'];
const PUSH_LONG_VALUE = new Set(['push-option', 'repo', 'receive-pack', 'exec']);

function pushDanger(args: readonly ShellWord[]): string | undefined {
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!isLiteral(word)) {
      if (word.splits || word.prefix === '' || /^[-+:]/.test(word.prefix)) return DANGEROUS_REASONS.gitUnknown;
      continue;
    }
    const arg = word.value;
    if (options && arg === '--') {
      options = false;
      continue;
    }
    if (options && arg.startsWith('--')) {
      const [name, value] = [arg.slice(2).split('=')[0]!, arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined];
      // git takes unique prefixes of long options; a prefix of a dangerous option counts as it.
      const matches = (option: string) => abbreviates(name, option) || name.startsWith(option);
      if (PUSH_FORCE.some(matches)) return DANGEROUS_REASONS.forcePush;
      if (PUSH_REMOTE_WRITE.some(matches)) return DANGEROUS_REASONS.remoteRefDelete;
      if (value === undefined && PUSH_LONG_VALUE.has(name)) i++;
      continue;
    }
    if (options && arg.startsWith('-') && arg.length > 1) {
      for (let k = 1; k < arg.length; k++) {
        const flag = arg[k]!;
        if (flag === 'f') return DANGEROUS_REASONS.forcePush;
        if (flag === 'd') return DANGEROUS_REASONS.remoteRefDelete;
        if (flag === 'o') {
          if (k === arg.length - 1) i++;
          break;
        }
      }
      continue;
    }
    if (arg.startsWith('+')) return DANGEROUS_REASONS.forcePush;
    if (arg.startsWith(':')) return DANGEROUS_REASONS.remoteRefDelete;
  }
  return undefined;
}

function cleanDanger(args: readonly ShellWord[]): string | undefined {
  for (const word of args) {
    // Only a literal dry run keeps git clean from deleting.
    if (!isLiteral(word)) continue;
    const arg = word.value;
    if (arg === '--') break;
    if (arg === '--dry-run' || (/^-[A-Za-z]+$/.test(arg) && arg.includes('n'))) return undefined;
  }
  return DANGEROUS_REASONS.gitClean;
}

const FAMILIES: Record<string, FamilyCheck> = {
  rm,
  find,
  dd,
  git,
  wipefs: format,
  mke2fs: format,
  mkswap: format,
  blkdiscard: format,
};

export function isFamily(name: string): boolean {
  return name in FAMILIES || /^mkfs(\..+)?$/.test(name);
}

/** Why this invocation of `name` is dangerous, or undefined. */
export function familyDanger(name: string, invocation: Invocation, inside: Inside): string | undefined {
  if (/^mkfs(\..+)?$/.test(name)) return DANGEROUS_REASONS.formatFilesystem;
  return FAMILIES[name]?.(invocation, inside);
}
