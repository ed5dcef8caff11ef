// One writer per thread. Two `rig exec resume <id>` at once interleaved their records, and the next
// resume sent both tasks' calls mixed, with duplicate call ids. A writer holds `<rollout>.lock`,
// created exclusively, holding the owner's pid, the pid's start time (so a reused pid is not
// mistaken for the owner) and its command line. A lock whose owner is gone is stale and taken over.
// Readers (listings, `rig sessions show`, replays) never look at the lock.
import fs from 'node:fs';
import os from 'node:os';

export interface LockOwner {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot) on Linux; absent elsewhere. */
  startTime?: string;
  host: string;
  command: string;
  since: string;
}

export class ThreadLockedError extends Error {
  override name = 'ThreadLockedError';
  constructor(
    message: string,
    readonly owner: LockOwner,
  ) {
    super(message);
  }
}

function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function ownerAlive(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return true; // another machine sharing RIG_HOME: cannot tell, assume alive
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = processStartTime(owner.pid);
  return owner.startTime === undefined || now === undefined || now === owner.startTime;
}

function readOwner(lockFile: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' ? owner : undefined;
  } catch {
    return undefined;
  }
}

function describeCommand(): string {
  const text = ['rig', ...process.argv.slice(2)].join(' ');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Whether a live process holds the writer lock of the rollout at `rolloutPath` (this one included). */
export function threadLockHeld(rolloutPath: string): boolean {
  const owner = readOwner(`${rolloutPath}.lock`);
  return owner !== undefined && ownerAlive(owner);
}

export interface ThreadLock {
  readonly file: string;
  release(): void;
}

/**
 * Takes the writer lock of the rollout at `rolloutPath`. Throws ThreadLockedError naming the
 * process that holds it; takes over a lock whose process is gone (or unreadable: a crash mid-write).
 */
export function lockThread(rolloutPath: string, threadId: string): ThreadLock {
  const file = `${rolloutPath}.lock`;
  const startTime = processStartTime(process.pid);
  const me: LockOwner = {
    pid: process.pid,
    ...(startTime !== undefined ? { startTime } : {}),
    host: os.hostname(),
    command: describeCommand(),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeSync(fd, JSON.stringify(me));
      } finally {
        fs.closeSync(fd);
      }
      return makeLock(file, me);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new Error(`cannot create the lock file ${file} (${code ?? String(error)}); check that RIG_HOME is writable`);
      }
    }
    const owner = readOwner(file);
    if (owner !== undefined && ownerAlive(owner)) {
      throw new ThreadLockedError(
        `thread ${threadId} is in use by another rig process: pid ${owner.pid} (${owner.command}), since ${owner.since}. ` +
          `Wait for it to finish or stop it (kill ${owner.pid}); reading the thread (rig sessions list/show) still works. ` +
          `If that process is gone, remove ${file}.`,
        owner,
      );
    }
    // Stale: its owner died (SIGKILL, power loss). Remove it unless someone replaced it meanwhile.
    try {
      const again = readOwner(file);
      if (again === undefined || (again.pid === owner?.pid && again.since === owner?.since)) fs.unlinkSync(file);
    } catch {
      // Someone else removed it first; try again.
    }
  }
  throw new Error(`could not take the lock ${file}: other processes keep taking it`);
}

const held = new Set<string>();
let exitHookInstalled = false;

function makeLock(file: string, me: LockOwner): ThreadLock {
  held.add(file);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A process that exits without closing its session (an uncaught error) still lets go.
    process.once('exit', () => {
      for (const lock of held) removeIfMine(lock, me.pid);
    });
  }
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      held.delete(file);
      removeIfMine(file, me.pid);
    },
  };
}

function removeIfMine(file: string, pid: number): void {
  if (readOwner(file)?.pid !== pid) return;
  try {
    fs.unlinkSync(file);
  } catch {
    // Already gone.
  }
}
