// The watchdog: one small `sh` per rig process, started with the first command, that outlives rig
// only to clean up after it. rig tells it through a pipe which process groups and markers are live;
// when the pipe reaches end-of-file — rig exited, crashed or was SIGKILLed, the kernel closes the
// pipe in every case — it signals those groups and every process carrying a live marker.
//
// Why not a parent-death signal per command: Node cannot call prctl before exec, so it would take a
// wrapper process per command (`setpriv --pdeathsig`, ~1.1 ms each, measured), and it reaches only
// the direct child: a pipeline's other members, `&` jobs, `setsid` children and tmux servers would
// still be orphaned. A PID namespace would catch them all, but unprivileged it needs a user
// namespace, which changes what "danger-full-access" means (no sudo, foreign uids unmapped).
// Sandboxed commands additionally get bwrap's --die-with-parent and their own PID namespace.
import { spawn, type ChildProcess } from 'node:child_process';
import type { ProcessMarker } from './process-groups.js';

// POSIX sh only: it must start in a millisecond and run wherever rig runs.
const SCRIPT = `
trap '' INT HUP TERM QUIT TSTP
groups=' '
markers=' '
while IFS= read -r line; do
  case $line in
    '+g '*) groups="$groups\${line#+g } " ;;
    '-g '*) g=" \${line#-g } "; case $groups in *"$g"*) groups="\${groups%%"$g"*} \${groups#*"$g"}" ;; esac ;;
    '+m '*) markers="$markers\${line#+m } " ;;
    '-m '*) m=" \${line#-m } "; case $markers in *"$m"*) markers="\${markers%%"$m"*} \${markers#*"$m"}" ;; esac ;;
  esac
done
sweep() {
  for g in $groups; do kill -$1 "-$g" 2>/dev/null; done
  for m in $markers; do
    for f in $(grep -lxzF -e "$m" /proc/[0-9]*/environ 2>/dev/null); do
      p=\${f#/proc/}; p=\${p%/environ}
      [ "$p" = "$$" ] || kill -$1 "$p" 2>/dev/null
    done
  done
}
case "$groups$markers" in *[0-9a-zA-Z]*) ;; *) exit 0 ;; esac
sweep TERM
sleep 0.3 2>/dev/null || sleep 1
sweep KILL
`;

let child: ChildProcess | undefined;
let failed = false;
/** Markers of live scopes: sent once the watchdog runs (it starts with the first process group). */
const liveMarkers = new Set<string>();

/** Starts the watchdog unless it runs already (or cannot run here); true when it runs. */
export function startWatchdog(): boolean {
  if (child) return true;
  if (failed || process.platform === 'win32') return false;
  try {
    child = spawn('/bin/sh', ['-c', SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    failed = true;
    return false;
  }
  child.on('error', () => {
    failed = true;
  });
  // Neither the watchdog nor its pipe may keep rig's event loop alive.
  child.unref();
  const stdin = child.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null;
  stdin?.on('error', () => {
    failed = true;
  });
  stdin?.unref?.();
  for (const entry of liveMarkers) write(`+m ${entry}`);
  return true;
}

function write(line: string): void {
  if (!failed) child?.stdin?.write(`${line}\n`);
}

export function watchGroupInWatchdog(pgid: number): void {
  if (startWatchdog()) write(`+g ${pgid}`);
}

export function forgetGroupInWatchdog(pgid: number): void {
  write(`-g ${pgid}`);
}

function markerEntry(marker: ProcessMarker): string | undefined {
  const entry = `${marker.name}=${marker.value}`;
  // Thread ids and the like; anything with whitespace could not travel one per line.
  return /^[\w.:=-]+$/.test(entry) ? entry : undefined;
}

export function watchMarkerInWatchdog(marker: ProcessMarker): void {
  const entry = markerEntry(marker);
  if (entry === undefined) return;
  liveMarkers.add(entry);
  write(`+m ${entry}`);
}

export function forgetMarkerInWatchdog(marker: ProcessMarker): void {
  const entry = markerEntry(marker);
  if (entry === undefined || !liveMarkers.delete(entry)) return;
  write(`-m ${entry}`);
}

/** The watchdog's pid once started (tests). */
export function watchdogPid(): number | undefined {
  return child?.pid;
}
