// Sandboxes started ahead of the command they will run. Starting bubblewrap (namespaces, a few
// dozen mounts, the seccomp filter) costs ~6-8 ms here, more than the short commands models run
// most (`cat`, `ls`, `git status`). Two copies of each sandbox wait for the next commands, each a
// small bash launcher that waits on fd 4. The next command whose sandbox would be the same (same
// key: every set-up argument and the filter file) is written to the oldest copy's pipe as a
// script: change directory, set the environment, `exec` the command. The command then starts at
// the cost of one exec.
//
// When they start: once a sandboxed command has finished, its sandbox is wanted
// (wantWarmSandbox), and the copies start when rig's next model request has gone out (core wires
// startWantedWarmSandboxes to that moment), or REFILL_FALLBACK_MS later if none does; a command
// still running after a while gets them started then (fillWarmSandbox). Starting a copy forks rig,
// blocking its main thread for ~1-1.5 ms, and bubblewrap's set-up competes with the command for
// the cores: started beside the command, as they were first, they slowed it and delayed noticing
// its end. Measured back to back with the mock answering in 20 ms (`npm run bench`, steps): a
// sandboxed `true` step 8.9 -> 6.9-7.5 ms over the command run bare. With a mock that answers at
// once there is no waiting to hide the start in, and the step costs the same as before (~10-12 ms).
// Two copies, because a copy takes longer to start than a quick command and its step: a command
// that follows another at once (`cat` after `ls`) finds the second one ready.
//
// What the command sees is what it would see in a sandbox started for it: the same mounts,
// namespaces and filter; the same argv, working directory and environment (bash's own exported
// variables are unset, SHLVL is set so that `exec` leaves it as given); stdin /dev/null. What
// cannot be reproduced exactly falls back to a fresh sandbox: stdin wanted, variable names bash
// cannot export or treats specially, a program that is not an absolute executable path, a
// missing directory, a script too large for one exec. The one visible difference: bash sets
// `_` on exec, so a command's very first `$_` reads the shell's path instead of the `_` rig
// was started with.
//
// A copy is stale once a path it bound is a different file (deleted and made again on the host):
// its mount still shows the old one, so it is discarded, not used. Idle copies do not keep rig
// alive, die with it (--die-with-parent, and SIGKILL on exit) and are dropped after two minutes.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants as fsConstants, statSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { PreparedWrapper } from './live-process.js';
import { signalProcessGroup } from './process-groups.js';

/** How long an unused copy waits before it is dropped. */
const WARM_IDLE_MS = 120_000;
/** A finished command's sandbox is topped up this long after at the latest, when no model request went out first. */
const REFILL_FALLBACK_MS = 20;
/** Copies kept waiting per key. */
const COPIES_PER_KEY = 2;
/** Keys kept at once: a session mostly runs commands of one sandbox, sometimes of two (an escalated one). */
const MAX_KEYS = 2;
/** The script is one exec's arguments and environment: above this, exec could fail where a fresh spawn would too, differently. */
const MAX_SCRIPT_BYTES = 96 * 1024;
/** The descriptor the launcher reads its script from. */
const SCRIPT_FD = 4;
const LAUNCHER_SHELL = '/bin/bash';
// The script comes as its length on a line, then the script. Node's stdio pipes are socket pairs,
// so /dev/fd/4 cannot be opened (ENXIO), and `read -d ''` takes a socket a byte per syscall (~2 ms
// for a 4 KB script); `read -N` takes it in blocks. A script cut short (rig died while writing) is
// never run: its length must match.
const LAUNCHER = `read -r n <&${SCRIPT_FD} && read -r -N "$n" s <&${SCRIPT_FD} && [ "\${#s}" = "$n" ] || exit 125; exec ${SCRIPT_FD}<&-; eval "$s"`;

/** Names bash will not export as given: read-only, or with a meaning of their own on assignment. */
const BASH_SPECIAL = new Set([
  'EUID', 'UID', 'PPID', 'SHELLOPTS', 'POSIXLY_CORRECT', 'DIRSTACK', 'EPOCHREALTIME', 'EPOCHSECONDS',
  'FUNCNAME', 'GROUPS', 'HISTCMD', 'LINENO', 'RANDOM', 'SECONDS', 'SRANDOM', 'COMP_WORDBREAKS', 'OPTIND',
  'OPTERR',
]);
/** BASH_ENV is read only when bash starts, so exporting it in the running launcher is plain. */
const exportable = (name: string): boolean =>
  IDENTIFIER.test(name) && !BASH_SPECIAL.has(name) && (name === 'BASH_ENV' || !name.startsWith('BASH'));
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLAIN_LEVEL = /^(0|[1-9][0-9]{0,2})$/;

interface WarmCopy {
  key: string;
  child: ChildProcess;
  /** dev:ino of each bound path when the copy started ('' for one that did not exist). */
  identities: string[];
  boundPaths: readonly string[];
  idleTimer: NodeJS.Timeout;
  onExit: () => void;
}

export interface WarmSandboxStats {
  /** Copies started. */
  started: number;
  /** Commands that ran in a copy. */
  used: number;
  /** Copies thrown away: stale, dead, idle too long, or pushed out by another key. */
  discarded: number;
  /** Why the last command that could have used a copy did not, if it did not. */
  lastMiss?: string;
  /** What set off the last top-up of copies (a model request, the fallback, a long command). */
  lastRefill?: string;
}

/** By key, oldest first. */
const waiting = new Map<string, WarmCopy[]>();
/** Keys whose copies are being started, one per turn of the event loop. */
const filling = new Set<string>();
/** Keys whose copies are to be topped up when rig next waits on a model. */
const wanted = new Map<string, PreparedWrapper>();
let fallback: NodeJS.Timeout | undefined;
const stats: WarmSandboxStats = { started: 0, used: 0, discarded: 0 };
let exitHookInstalled = false;

export function warmSandboxStats(): Readonly<WarmSandboxStats> {
  return { ...stats };
}

/** Off with RIG_WARM_SANDBOX=0 (read each time, so a test or a debugging user can flip it). */
export function warmSandboxEnabled(): boolean {
  return process.env['RIG_WARM_SANDBOX'] !== '0';
}

/** What one command needs from a copy. */
export interface WarmCommand {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string | undefined>;
}

/**
 * The copy waiting for `prepared`'s key, now running `command`, or undefined (then spawn a fresh
 * sandbox; `warmSandboxStats().lastMiss` says why). The caller owns the child from here.
 */
export function takeWarmSandbox(prepared: PreparedWrapper, command: WarmCommand): ChildProcess | undefined {
  if (!warmSandboxEnabled()) return miss('turned off (RIG_WARM_SANDBOX=0)');
  if (waitingFor(prepared.key) === 0) return miss('no copy of this sandbox was waiting');
  const script = launchScript(command);
  if (typeof script !== 'string') return miss(script.reason);
  let copy: WarmCopy | undefined;
  let reason = '';
  while ((copy = takeOldest(prepared.key))) {
    clearTimeout(copy.idleTimer);
    if (copy.child.exitCode !== null || copy.child.signalCode !== null) reason = 'the waiting copy had exited';
    else if (!sameFiles(copy)) reason = 'a path the waiting copy bound was replaced since it started';
    else break;
    discard(copy);
  }
  if (!copy) return miss(reason);
  const child = copy.child;
  child.removeListener('exit', copy.onExit);
  const input = child.stdio[SCRIPT_FD] as Writable;
  // EPIPE if the copy died a moment ago: its exit then reports as the command's.
  input.on('error', () => {});
  input.end(script);
  child.ref();
  (child.stdout as Readable & { ref?: () => void }).ref?.();
  (child.stderr as Readable & { ref?: () => void }).ref?.();
  stats.used++;
  delete stats.lastMiss;
  return child;
}

function takeOldest(key: string): WarmCopy | undefined {
  const copies = waiting.get(key);
  const copy = copies?.shift();
  if (copies?.length === 0) waiting.delete(key);
  return copy;
}

/** Removes `copy` from the waiting ones; false when it was not waiting. */
function forget(copy: WarmCopy): boolean {
  const copies = waiting.get(copy.key);
  const at = copies?.indexOf(copy) ?? -1;
  if (at < 0) return false;
  copies!.splice(at, 1);
  if (copies!.length === 0) waiting.delete(copy.key);
  return true;
}

const waitingFor = (key: string): number => waiting.get(key)?.length ?? 0;

/**
 * Asks for `prepared`'s copies to be topped up once rig next waits on a model (a command has just
 * finished; see startWantedWarmSandboxes), or after REFILL_FALLBACK_MS if no model request comes.
 */
export function wantWarmSandbox(prepared: PreparedWrapper): void {
  if (!warmSandboxEnabled() || filling.has(prepared.key) || waitingFor(prepared.key) >= COPIES_PER_KEY) return;
  wanted.set(prepared.key, prepared);
  fallback ??= setTimeout(() => startWanted(`no model request within ${REFILL_FALLBACK_MS} ms`), REFILL_FALLBACK_MS).unref();
}

/**
 * Starts the copies asked for: called when a model request has gone out, the moment of a turn
 * when the main thread has nothing to do (each start blocks it for a fork) and the command that
 * will use the copy is a model answer away.
 */
export function startWantedWarmSandboxes(): void {
  startWanted('a model request went out');
}

function startWanted(why: string): void {
  clearTimeout(fallback);
  fallback = undefined;
  const prepared = [...wanted.values()];
  wanted.clear();
  for (const each of prepared) fillWarmSandbox(each, why);
}

/** Tops up `prepared`'s copies now (`why`, for warmSandboxStats): one at once, the next ones a turn of the event loop apart. */
export function fillWarmSandbox(prepared: PreparedWrapper, why: string): void {
  wanted.delete(prepared.key);
  if (!warmSandboxEnabled() || filling.has(prepared.key)) return;
  filling.add(prepared.key);
  stats.lastRefill = why;
  const fill = (): void => {
    if (startCopy(prepared) && waitingFor(prepared.key) < COPIES_PER_KEY) setImmediate(fill);
    else filling.delete(prepared.key);
  };
  fill();
}

/** Starts a copy now (tests, and the refill); true when one started. No-op when the key has its copies. */
export function startCopy(prepared: PreparedWrapper): boolean {
  if (!warmSandboxEnabled() || waitingFor(prepared.key) >= COPIES_PER_KEY) return false;
  if (!launcherPresent()) return false;
  let descriptors: number[];
  try {
    descriptors = prepared.openDescriptors();
  } catch {
    return false; // The command path reports an unusable filter; a copy just is not started.
  }
  const identities = prepared.boundPaths.map(identity);
  const argv = prepared.around([LAUNCHER_SHELL, '-c', LAUNCHER]);
  let child: ChildProcess;
  try {
    child = spawn(argv[0]!, argv.slice(1), {
      cwd: '/',
      env: {},
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', descriptors[0] ?? 'ignore', 'pipe'],
    });
  } catch {
    return false;
  } finally {
    for (const fd of descriptors) closeSync(fd);
  }
  child.on('error', () => {});
  if (child.pid === undefined) return false;
  stats.started++;
  installExitHook();
  child.unref();
  (child.stdout as Readable & { unref?: () => void }).unref?.();
  (child.stderr as Readable & { unref?: () => void }).unref?.();
  (child.stdio[SCRIPT_FD] as Writable & { unref?: () => void }).unref?.();
  const copy: WarmCopy = {
    key: prepared.key,
    child,
    identities,
    boundPaths: prepared.boundPaths,
    idleTimer: setTimeout(() => {
      if (forget(copy)) discard(copy);
    }, WARM_IDLE_MS).unref(),
    onExit: () => {
      if (!forget(copy)) return;
      clearTimeout(copy.idleTimer);
      stats.discarded++;
    },
  };
  child.once('exit', copy.onExit);
  const copies = waiting.get(copy.key);
  if (copies) {
    copies.push(copy);
    return true;
  }
  // A new key pushes out the one whose copies were started longest ago (Map order).
  for (const [key, others] of waiting) {
    if (waiting.size < MAX_KEYS) break;
    waiting.delete(key);
    for (const other of others) {
      clearTimeout(other.idleTimer);
      discard(other);
    }
  }
  waiting.set(copy.key, [copy]);
  return true;
}

/** Kill every waiting copy (tests; rig's exit does it itself). */
export function discardWarmSandboxes(): void {
  for (const copy of [...waiting.values()].flat()) {
    clearTimeout(copy.idleTimer);
    discard(copy);
  }
  waiting.clear();
  filling.clear();
  wanted.clear();
  clearTimeout(fallback);
  fallback = undefined;
}

/** Pids of the waiting copies (tests: they must be gone after rig exits). */
export function warmSandboxPids(): number[] {
  return [...waiting.values()].flat().map((copy) => copy.child.pid!);
}

function miss(reason: string): undefined {
  stats.lastMiss = reason;
  return undefined;
}

function discard(copy: WarmCopy): void {
  stats.discarded++;
  signalProcessGroup(copy.child.pid!, 'SIGKILL');
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const copy of [...waiting.values()].flat()) signalProcessGroup(copy.child.pid!, 'SIGKILL');
  });
}

let launcherFound: boolean | undefined;
/** Where there is no /bin/bash, no copies are started. */
function launcherPresent(): boolean {
  launcherFound ??= isExecutable(LAUNCHER_SHELL);
  return launcherFound;
}

function identity(path: string): string {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return '';
  }
}

function sameFiles(copy: WarmCopy): boolean {
  return copy.boundPaths.every((path, i) => identity(path) === copy.identities[i]);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, fsConstants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The script that turns the launcher into `command`, or why it cannot be done exactly. bash's
 * `exec` lowers SHLVL by one before it runs the program, so it is exported one higher; when SHLVL
 * is absent it is left unset and `exec` exports 0, which a bash command turns into 1, as it would
 * have from nothing (any other program would see the 0: a fresh sandbox then).
 */
export function launchScript(command: WarmCommand): string | { reason: string } {
  const program = command.argv[0];
  if (!program || !isAbsolute(program) || !isExecutable(program)) return { reason: 'the program is not an absolute path to an executable file' };
  if (command.argv.some((arg) => arg.includes('\0'))) return { reason: 'an argument holds a NUL byte' };
  if (!isAbsolute(command.cwd) || !isDirectory(command.cwd)) return { reason: 'the working directory is not an existing absolute directory' };
  const exports: string[] = [];
  let level: string | undefined;
  for (const [name, value] of Object.entries(command.env)) {
    if (value === undefined || name === '_') continue;
    if (name === 'SHLVL') {
      level = value;
      continue;
    }
    if (!exportable(name) || value.includes('\0')) return { reason: `the variable ${name} cannot be passed through bash exactly` };
    exports.push(`export ${name}=${quote(value)}`);
  }
  if (level === undefined) {
    if (basename(program) !== 'bash') return { reason: 'SHLVL is unset and the program is not bash' };
  } else if (!PLAIN_LEVEL.test(level) || Number(level) >= 998) {
    return { reason: `SHLVL=${JSON.stringify(level)} is not a plain level bash keeps as given` };
  }
  const lines = [
    `cd -P -- ${quote(command.cwd)} || exit 1`,
    'unset OLDPWD PWD SHLVL',
    // An uninstalled locale in LANG or LC_* makes bash warn when it is assigned; the command's own
    // shell warns (or not) as it would anyway, and the launcher's export of a plain name cannot fail.
    '{',
    ':',
    ...exports,
    ...(level === undefined ? [] : [`export SHLVL=${Number(level) + 1}`]),
    '} 2>/dev/null',
    `exec -- ${command.argv.map(quote).join(' ')}`,
    '',
  ];
  const script = lines.join('\n');
  const bytes = Buffer.byteLength(script);
  if (bytes > MAX_SCRIPT_BYTES) return { reason: 'the command and its environment are too large for one script' };
  // The launcher runs in the C locale, where `read -N` and `${#s}` count bytes.
  return `${bytes}\n${script}`;
}
