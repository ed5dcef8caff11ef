// Commands that always need a human (a prompt under every approval policy,
// `never` included; only --yolo skips it): forced removals per the reference (safety.md §6),
// plus forced git pushes, filesystem formatting, raw writes to block devices
// and fork bombs, which rig adds.

import path from 'node:path';
import type { BashParser } from './bash.js';
import { findGitSubcommand } from './safe-commands.js';

/** How many wrappers (sudo, env, trap, nested shells) are looked through. */
export const MAX_WRAPPER_DEPTH = 8;

const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh']);
const FORK_BOMB = /([A-Za-z_:][A-Za-z0-9_:]*)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&[^}]*\}/;

/** What makes each kind of command dangerous, phrased for the model. */
export const DANGEROUS_REASONS = {
  rmForce: 'rm -f style commands are not permitted. Use a safer approach',
  forcePush: 'forced git pushes are not permitted. Push without --force, or ask the user to push',
  formatFilesystem: 'formatting or wiping filesystems is not permitted',
  rawDeviceWrite: 'writing raw data to a device is not permitted',
  forkBomb: 'fork bombs are not permitted',
} as const;

/**
 * Why `argv` is dangerous, or undefined when it is not. Looks through `sudo`, `env`, `trap` and
 * `sh|bash|zsh -c` scripts (every literal command in them, when a parser is given), up to
 * MAX_WRAPPER_DEPTH levels.
 */
export function dangerousCommandReason(argv: readonly string[], bash: BashParser | null, depth = 0): string | undefined {
  if (depth > MAX_WRAPPER_DEPTH || argv.length === 0) return undefined;
  const name = path.basename(argv[0]!);
  const args = argv.slice(1);
  switch (name) {
    case 'rm':
      return rmHasForce(args) ? DANGEROUS_REASONS.rmForce : undefined;
    case 'sudo': {
      const inner = sudoCommand(args);
      return inner === undefined ? undefined : dangerousCommandReason(inner, bash, depth + 1);
    }
    case 'env': {
      const inner = envCommand(args);
      return inner === undefined ? undefined : dangerousCommandReason(inner, bash, depth + 1);
    }
    case 'trap': {
      const action = args[0] === '--' ? args[1] : args[0];
      if (action === undefined || action.startsWith('-')) return undefined;
      return dangerousScriptReason(action, bash, depth + 1);
    }
    case 'git':
      return gitPushIsForced(args) ? DANGEROUS_REASONS.forcePush : undefined;
    case 'dd':
      return args.some((arg) => /^of=\/dev\/(?!null$|zero$|stdout$|stderr$|tty$|fd\/)/.test(arg)) ? DANGEROUS_REASONS.rawDeviceWrite : undefined;
    default:
      if (/^mkfs(\..+)?$/.test(name) || name === 'mke2fs' || name === 'wipefs') return DANGEROUS_REASONS.formatFilesystem;
      if (SHELLS.has(name)) {
        const script = shellScriptArgument(args);
        return script === undefined ? undefined : dangerousScriptReason(script, bash, depth + 1);
      }
      return undefined;
  }
}

export function isDangerousCommand(argv: readonly string[], bash: BashParser | null): boolean {
  return dangerousCommandReason(argv, bash) !== undefined;
}

function dangerousScriptReason(script: string, bash: BashParser | null, depth: number): string | undefined {
  if (FORK_BOMB.test(script)) return DANGEROUS_REASONS.forkBomb;
  if (bash === null) return undefined;
  for (const command of bash.allCommands(script)) {
    const reason = dangerousCommandReason(command, bash, depth);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** `-f` inside any short-flag cluster, or `--force`, before `--`. */
function rmHasForce(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--force') return true;
    if (arg.startsWith('-') && !arg.startsWith('--') && arg.slice(1).includes('f')) return true;
  }
  return false;
}

const SUDO_LONG_OPTIONS_WITH_VALUE = new Set(['--auth-type', '--chdir', '--chroot', '--close-from', '--command-timeout', '--group', '--host', '--prompt', '--role', '--type', '--user']);
const SUDO_SHORT_OPTIONS_WITH_VALUE = new Set(['a', 'C', 'D', 'g', 'h', 'p', 'R', 'r', 'T', 't', 'u']);

function sudoCommand(args: readonly string[]): string[] | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return nonEmpty(args.slice(i + 1));
    if (arg === '-' || !arg.startsWith('-')) return nonEmpty(args.slice(i));
    if (SUDO_LONG_OPTIONS_WITH_VALUE.has(arg) || shortClusterEndsWithValueOption(arg)) i++;
  }
  return undefined;
}

/** `-u root` consumes the next word; `-uroot` and `-nu` ... only when the value option is last in the cluster. */
function shortClusterEndsWithValueOption(arg: string): boolean {
  if (arg.startsWith('--')) return false;
  const flags = arg.slice(1);
  for (let i = 0; i < flags.length; i++) {
    if (SUDO_SHORT_OPTIONS_WITH_VALUE.has(flags[i]!)) return i === flags.length - 1;
  }
  return false;
}

function envCommand(args: readonly string[]): string[] | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return nonEmpty(args.slice(i + 1));
    if (arg === '-u' || arg === '--unset' || arg === '-C' || arg === '--chdir' || arg === '-S' || arg === '--split-string') {
      if (arg === '-S' || arg === '--split-string') return undefined;
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) continue;
    return nonEmpty(args.slice(i));
  }
  return undefined;
}

function shellScriptArgument(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(arg)) return args[i + 1];
    if (!arg.startsWith('-')) return undefined;
  }
  return undefined;
}

function gitPushIsForced(args: readonly string[]): boolean {
  const sub = findGitSubcommand(args);
  if (!sub || sub.name !== 'push') return false;
  return args.slice(sub.index + 1).some(
    (arg) =>
      arg === '--force' ||
      arg.startsWith('--force-with-lease') ||
      (arg.startsWith('-') && !arg.startsWith('--') && arg.slice(1).includes('f')) ||
      (arg.startsWith('+') && arg.length > 1),
  );
}

function nonEmpty(words: string[]): string[] | undefined {
  return words.length > 0 ? words : undefined;
}
