// The tracker's watching half: one inotify watch per folder (fs.watch), barriers that prove every
// earlier event was delivered, and the flood limit. It knows nothing of baselines or changes: it
// reports touched paths to its owner and says when it stopped, so the owner can scan instead.
import fs from 'node:fs';
import path from 'node:path';

/** A barrier not seen within this long means the watches cannot be trusted: scan instead. */
const BARRIER_TIMEOUT_MS = 5_000;
/** Barriers that can be in flight at once without creating a file (two per running command). */
const BARRIER_FILES = 4;
/**
 * Watching stops and commands are scanned instead when folder events come faster than rig can
 * take them. libuv reads the inotify queue until it is empty before it serves anything else, so a
 * command that renames in a tight loop (tens of thousands a second) kept rig's event loop busy
 * with events forever: the model's stream and every timer starved. Two signs, either enough: this
 * many events in one second, or one unbroken run of events (no turn of the event loop between
 * them) lasting STARVED_MS with at least STARVED_EVENTS in it: on a loaded machine rig takes
 * fewer events a second, and starves all the same. A scan gives the same answers.
 */
export const FLOOD_EVENTS_PER_SECOND = 100_000;
const STARVED_MS = 500;
const STARVED_EVENTS = 5_000;
/** Events between two looks at the clock (a clock read each time would be much of a callback's cost). */
const STARVE_CHECK_EVERY = 256;

const BARRIER_KEY = '\0barrier';

interface BarrierFile {
  name: string;
  fd: number;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed or never valid: nothing left to release.
  }
}

/** Called for each event in a watched folder; `name` is undefined when inotify did not say which entry. */
export type FolderEventHandler = (dir: string, name: string | undefined) => void;

/**
 * Why watching stopped while the tracker still had work: `flood`, a command made events faster
 * than the limit; `unreliable`, a barrier went unseen or a folder could not be watched.
 */
export type WatchStopReason = 'flood' | 'unreliable';

export class FolderWatches {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly barrierWaiters = new Map<string, (seen: boolean) => void>();
  private barrierCount = 0;
  /** Folder events seen in the current one-second bucket, and when that bucket began. */
  private floodCount = 0;
  private floodSince = 0;
  /** The current run of events: since when, how many, and whether the event loop has turned since. */
  private runSince = 0;
  private runEvents = 0;
  private inRun = false;
  /** Barrier files made before the watch began, not in use by a barrier now (see barrier()). */
  private idleBarrierFiles: BarrierFile[] = [];
  private readonly barrierFiles: BarrierFile[] = [];
  private watching = false;
  private lastStopped: { reason: WatchStopReason; at: number } | undefined;

  constructor(
    private readonly barrierDir: string,
    private readonly onEvent: FolderEventHandler,
    private readonly floodEventsPerSecond: number = FLOOD_EVENTS_PER_SECOND,
    /** The clock a stop is dated by (lastStop); the flood signs always use the real one. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  get active(): boolean {
    return this.watching;
  }

  /** The latest stop for a reason (not closing, not never having begun), and when (by the clock given). */
  get lastStop(): { reason: WatchStopReason; at: number } | undefined {
    return this.lastStopped;
  }

  /** Watches every folder in `dirs`; throws (with everything released) where watching is not possible. */
  start(dirs: Iterable<string>): void {
    try {
      fs.mkdirSync(this.barrierDir, { recursive: true });
      // Made before the folder is watched, so their creation is never reported: from then on a
      // barrier's one-byte write is the only event each of them produces.
      for (let i = 0; i < BARRIER_FILES; i++) {
        const name = `p${i}`;
        this.barrierFiles.push({ name, fd: fs.openSync(path.join(this.barrierDir, name), 'w') });
      }
      this.idleBarrierFiles = [...this.barrierFiles];
      this.watchDir(this.barrierDir, true);
      for (const dir of dirs) this.watchDir(dir, false);
      this.floodCount = 0;
      this.floodSince = performance.now();

      this.watching = true;
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  has(dir: string): boolean {
    return this.watchers.has(dir);
  }

  /**
   * While the tracker opens, one folder more as the scan lists it. Throws where it cannot be
   * watched, with every watch released and no stop reason, as start does: the tracker then scans
   * from the beginning, which is not a fallback to tell anyone about.
   */
  extend(dir: string): void {
    if (!this.watching || this.watchers.has(dir)) return;
    try {
      this.watchDir(dir, false);
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  /** Adds watches for folders that appeared; on failure every watch stops (the owner scans). */
  add(dirs: Iterable<string>): void {
    if (!this.watching) return;
    try {
      for (const dir of dirs) if (!this.watchers.has(dir)) this.watchDir(dir, false);
    } catch {
      this.stop('unreliable');
    }
  }

  remove(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  /**
   * Closes every watch, for `reason` when the tracker falls back to scanning. A barrier still
   * waiting is answered "not seen" at once, not at its timeout.
   */
  stop(reason?: WatchStopReason): void {
    if (this.watching && reason) this.lastStopped = { reason, at: this.now() };
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.watching = false;

    for (const file of this.barrierFiles.splice(0)) closeQuietly(file.fd);
    this.idleBarrierFiles = [];
    for (const wake of [...this.barrierWaiters.values()]) wake(false);
  }

  /**
   * Resolves true once every change made before the call has been delivered by the watches: the
   * barrier's own event is queued after them (one inotify queue per process, read in order).
   *
   * A barrier runs before and after every command, so the common case is cheap: a one-byte write
   * to an idle file made before the watch began (microseconds, no file created). Its name is not
   * reused until its event was seen, so inotify never merges two barriers' events into one. More
   * barriers at once than there are such files (parallel commands) create a file of a unique name.
   */
  barrier(): Promise<boolean> {
    if (!this.watching) return Promise.resolve(false);
    const file = this.idleBarrierFiles.pop();
    const name = file?.name ?? `b${++this.barrierCount}`;
    return new Promise((resolve) => {
      const settle = (seen: boolean): void => {
        clearTimeout(timer);
        this.barrierWaiters.delete(name);
        if (file && seen) this.idleBarrierFiles.push(file);
        resolve(seen);
      };
      const timer = setTimeout(() => settle(false), BARRIER_TIMEOUT_MS);
      if (file) {
        this.barrierWaiters.set(name, settle);
        try {
          fs.writeSync(file.fd, 'x', 0);
        } catch {
          settle(false);
        }
        return;
      }
      this.barrierWaiters.set(name, (seen) => {
        settle(seen);
        fs.unlink(path.join(this.barrierDir, name), () => {});
      });
      fs.writeFile(path.join(this.barrierDir, name), '', (error) => {
        if (error) settle(false);
      });
    });
  }

  private watchDir(dir: string, barrier: boolean): void {
    const watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
      if (barrier) {
        if (name) this.barrierWaiters.get(name.toString())?.(true);
        return;
      }
      if (this.flooded()) {
        this.stop('flood');
        return;
      }
      this.onEvent(dir, name ? name.toString() : undefined);
    });
    watcher.on('error', () => {
      // A watched folder that disappears ends its watch; its removal was reported to the parent.
      watcher.close();
      this.watchers.delete(dir);
    });
    this.watchers.set(barrier ? BARRIER_KEY : dir, watcher);
  }

  private flooded(): boolean {
    if (!this.inRun) {
      // setImmediate runs right after the poll phase: until then, every event is one run.
      this.inRun = true;
      this.runSince = performance.now();
      this.runEvents = 0;
      setImmediate(() => (this.inRun = false));
    }
    if (++this.runEvents % STARVE_CHECK_EVERY === 0 && this.runEvents >= STARVED_EVENTS && performance.now() - this.runSince > STARVED_MS) return true;
    if (++this.floodCount < this.floodEventsPerSecond) return false;
    const now = performance.now();
    const flooded = now - this.floodSince < 1000;
    this.floodCount = 0;
    this.floodSince = now;
    return flooded;
  }


}
