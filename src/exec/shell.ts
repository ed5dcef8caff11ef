// Which shell runs a command string, and with which flags. Detected once per process: the answer
// does not change while rig runs, and probing the filesystem on every tool call would be waste.
import { accessSync, constants as fsConstants } from 'node:fs';
import { basename } from 'node:path';

export type ShellKind = 'bash' | 'zsh' | 'sh';

export interface ShellInfo {
  /** Absolute path (or name looked up on PATH) of the shell binary. */
  path: string;
  kind: ShellKind;
}

const POSIX_FALLBACKS = ['/bin/bash', '/bin/sh'];

let cached: ShellInfo | undefined;

/**
 * The user's shell: `$SHELL` when it is bash, zsh or a POSIX sh (models write POSIX/bash syntax,
 * so fish or nushell would misread it), else /bin/bash, else /bin/sh. Cached after the first call.
 */
export function detectUserShell(env: Record<string, string | undefined> = process.env): ShellInfo {
  if (cached && env === process.env) return cached;
  const found = pickShell(env.SHELL);
  if (env === process.env) cached = found;
  return found;
}

function pickShell(shellVar: string | undefined): ShellInfo {
  if (shellVar) {
    const kind = shellKind(shellVar);
    if (kind && isExecutable(shellVar)) return { path: shellVar, kind };
  }
  for (const candidate of POSIX_FALLBACKS) {
    if (isExecutable(candidate)) return { path: candidate, kind: shellKind(candidate) ?? 'sh' };
  }
  return { path: '/bin/sh', kind: 'sh' };
}

/** The kind of a shell binary by its name, or undefined when it is not one rig drives. */
export function shellKind(shellPath: string): ShellKind | undefined {
  const name = basename(shellPath);
  if (name === 'bash') return 'bash';
  if (name === 'zsh') return 'zsh';
  if (name === 'sh' || name === 'dash' || name === 'ksh' || name === 'mksh' || name === 'ash') return 'sh';
  return undefined;
}

/** A shell named by the model or the config (`shell` argument): its path plus its kind. */
export function shellFromPath(shellPath: string): ShellInfo {
  return { path: shellPath, kind: shellKind(shellPath) ?? 'sh' };
}

/** `[shell, '-lc' | '-c', command]`. A login shell reads the user's profile first. */
export function buildShellArgv(shell: ShellInfo, command: string, login: boolean): string[] {
  return [shell.path, login ? '-lc' : '-c', command];
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Forget the cached detection (tests). */
export function resetShellCache(): void {
  cached = undefined;
}
