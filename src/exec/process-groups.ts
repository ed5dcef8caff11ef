// Every child we start leads its own process group, so one signal reaches the whole tree a command
// builds (pipelines, `&` jobs, test runners' workers). The registry remembers each group until it is
// known to be empty, so that rig can take everything down with it when it exits.

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Remember a process group so `killAllProcessGroups` can reach it. */
export function registerProcessGroup(pgid: number): void {
  // Groups whose last members were still zombies when their command finished are forgotten here,
  // once reaped: the set stays small and never names a group id the kernel could hand out again.
  for (const known of liveGroups) {
    if (!isProcessGroupAlive(known)) liveGroups.delete(known);
  }
  liveGroups.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // 'exit' handlers must be synchronous; SIGKILL is the only signal that needs no follow-up.
    process.once('exit', () => killAllProcessGroups('SIGKILL'));
  }
}

/**
 * Forget a group once it is empty. A group id is the leader's pid, which the kernel may reuse once
 * the group is gone; keeping dead ids around would risk signalling an unrelated process later.
 */
export function forgetProcessGroupIfEmpty(pgid: number): void {
  if (!isProcessGroupAlive(pgid)) liveGroups.delete(pgid);
}

/** Ids of the groups currently tracked (tests and diagnostics). */
export function trackedProcessGroups(): number[] {
  return [...liveGroups];
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

/**
 * SIGTERM the whole group, wait up to `graceMs` for it to empty, then SIGKILL what is left.
 * Resolves once the group is gone or SIGKILL was sent.
 */
export async function terminateProcessGroup(pgid: number, graceMs = 250): Promise<void> {
  if (!signalProcessGroup(pgid, 'SIGTERM')) {
    liveGroups.delete(pgid);
    return;
  }
  // A stopped process cannot act on SIGTERM until it is continued.
  signalProcessGroup(pgid, 'SIGCONT');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
    if (!isProcessGroupAlive(pgid)) {
      liveGroups.delete(pgid);
      return;
    }
  }
  signalProcessGroup(pgid, 'SIGKILL');
}

/** Kill every tracked group at once (for process exit); synchronous. */
export function killAllProcessGroups(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const pgid of liveGroups) {
    signalProcessGroup(pgid, signal);
    if (signal === 'SIGKILL') liveGroups.delete(pgid);
  }
}
