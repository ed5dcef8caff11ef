// Every child we start leads its own process group, so one signal reaches the whole tree a command
// builds (pipelines, `&` jobs, test runners' workers). A ProcessScope remembers the groups one owner
// (a thread) started until each is known to be empty, so closing or interrupting that owner takes
// down its processes and nobody else's. Processes that left their group (`setsid`, a tmux server,
// a daemon) are found by the marker variable they inherited, and the watchdog takes everything down
// if rig itself dies without cleaning up.
import { closeSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import { forgetGroupInWatchdog, forgetMarkerInWatchdog, startWatchdog, watchGroupInWatchdog, watchMarkerInWatchdog } from './watchdog.js';

/** An environment entry every process of a scope inherits, e.g. RIG_PROCESS_SCOPE=<token>. */
export interface ProcessMarker {
  name: string;
  value: string;
}

const openScopes = new Set<ProcessScope>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous; SIGKILL is the only signal that needs no follow-up.
  process.once('exit', () => {
    for (const scope of openScopes) scope.killAll('SIGKILL');
  });
}

/** True while at least one process (zombies included) is in the group. */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // EPERM means a process exists but belongs to someone else: still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Send a signal to every process in the group; false when the group is already gone. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

const GROUP_POLL_MS = 10;
export const DEFAULT_GROUP_GRACE_MS = 250;

/**
 * SIGTERM the whole group, wait up to `graceMs` for it to empty, then SIGKILL what is left.
 * Resolves once the group is gone or SIGKILL was sent.
 */
export async function terminateProcessGroup(pgid: number, graceMs = DEFAULT_GROUP_GRACE_MS): Promise<void> {
  if (!signalProcessGroup(pgid, 'SIGTERM')) return;
  // A stopped process cannot act on SIGTERM until it is continued.
  signalProcessGroup(pgid, 'SIGCONT');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
    if (!isProcessGroupAlive(pgid)) return;
  }
  signalProcessGroup(pgid, 'SIGKILL');
}

/**
 * The processes one owner started. Group ids are forgotten once their group is empty: an id is the
 * leader's pid, which the kernel may hand out again, and a stale one could signal a stranger.
 */
export class ProcessScope {
  private readonly groups = new Set<number>();
  private closed = false;
  /** Whether anything was ever started here: if not, nothing can have escaped (no /proc sweep). */
  private started = false;

  constructor(readonly marker?: ProcessMarker) {
    openScopes.add(this);
    if (marker) watchMarkerInWatchdog(marker);
  }

  /**
   * Call before starting a process for this owner. The child may run before its spawner learns its
   * pid (spawn returns after exec); if rig is killed in that window, the watchdog must already be
   * running and know the marker, or nothing would take the command down.
   */
  arm(): void {
    installExitHook();
    startWatchdog();
  }

  /** Remember a process group started for this owner. */
  register(pgid: number): void {
    // Groups whose last members were still zombies when their command finished are forgotten here,
    // once reaped: the set stays small.
    for (const known of this.groups) {
      if (!isProcessGroupAlive(known)) this.forget(known);
    }
    this.groups.add(pgid);
    this.started = true;
    installExitHook();
    watchGroupInWatchdog(pgid);
    // A process started while the owner was closing would outlive it: take it down at once.
    if (this.closed) void terminateProcessGroup(pgid);
  }

  /** Forget a group once it is empty. */
  forgetIfEmpty(pgid: number): void {
    if (!isProcessGroupAlive(pgid)) this.forget(pgid);
  }

  private forget(pgid: number): void {
    if (this.groups.delete(pgid)) forgetGroupInWatchdog(pgid);
  }

  /** Ids of the groups currently tracked. */
  get trackedGroups(): number[] {
    return [...this.groups];
  }

  owns(pgid: number): boolean {
    return this.groups.has(pgid);
  }

  /** Signal every tracked group at once (process exit); synchronous. */
  killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
    for (const pgid of this.groups) {
      signalProcessGroup(pgid, signal);
      if (signal === 'SIGKILL') this.forget(pgid);
    }
  }

  /**
   * Take down everything this owner started: each tracked group (SIGTERM, then SIGKILL after the
   * grace), then any process that escaped its group but still carries the marker. The scope stays
   * usable; a later `close` sweeps again.
   */
  async terminateAll(graceMs = DEFAULT_GROUP_GRACE_MS): Promise<void> {
    const groups = [...this.groups];
    await Promise.all(groups.map((pgid) => terminateProcessGroup(pgid, graceMs)));
    for (const pgid of groups) this.forgetIfEmpty(pgid);
    if (this.marker && this.started) await terminateMarked(this.marker, graceMs);
  }

  /** terminateAll, then stop tracking: the owner is gone. */
  async close(graceMs = DEFAULT_GROUP_GRACE_MS): Promise<void> {
    this.closed = true;
    await this.terminateAll(graceMs);
    // What could not be confirmed gone is SIGKILLed already; forget it so the set cannot go stale.
    for (const pgid of [...this.groups]) this.forget(pgid);
    openScopes.delete(this);
    if (this.marker) forgetMarkerInWatchdog(this.marker);
  }
}

/** The scope of processes started without an owner (one-off tools, tests). */
export const processWideScope = new ProcessScope();

/**
 * Pids (other than ours) whose initial environment holds the marker entry. Linux only: elsewhere
 * there is no /proc to read, and the empty list means "nothing found".
 */
export function processesWithMarker(marker: ProcessMarker): number[] {
  const entry = Buffer.from(`${marker.name}=${marker.value}`);
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const environ = readEnviron(name);
    if (environ && hasEntry(environ, entry)) found.push(pid);
  }
  return found;
}

const environBuffer = Buffer.allocUnsafe(1 << 16);

/**
 * A process's initial environment, or undefined when it is not ours (EACCES) or gone. One reused
 * buffer and no fstat: this runs over every process on the machine when a thread closes.
 */
function readEnviron(pid: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/environ`, 'r');
    const length = readSync(fd, environBuffer, 0, environBuffer.length, 0);
    if (length < environBuffer.length) return environBuffer.subarray(0, length);
    return readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function hasEntry(environ: Buffer, entry: Buffer): boolean {
  let start = 0;
  while (start < environ.length) {
    let end = environ.indexOf(0, start);
    if (end < 0) end = environ.length;
    if (end - start === entry.length && environ.compare(entry, 0, entry.length, start, end) === 0) return true;
    start = end + 1;
  }
  return false;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return true;
  }
}

/** SIGTERM every marked process, wait for them, SIGKILL the rest. */
async function terminateMarked(marker: ProcessMarker, graceMs: number): Promise<void> {
  const pids = processesWithMarker(marker);
  if (pids.length === 0) return;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + graceMs;
  const alive = () => pids.filter((pid) => isAlive(pid) && !isZombie(pid));
  while (Date.now() < deadline && alive().length > 0) {
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
  }
  for (const pid of alive()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
