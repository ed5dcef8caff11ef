// Finds the files a shell command wrote, without git. The tracker keeps a baseline: the content
// of every file under the writable roots (ignore rules applied), taken once when it opens. Around
// each command it learns which files changed, takes their old content from the baseline and their
// new content from disk, and moves the baseline on. So only changed files are read after the first
// scan, and a file the command did not write is never part of its checkpoint.
//
// Learning what changed: on Linux, inotify watches on every folder (fs.watch, one per folder) list
// the touched paths; a barrier file written into a watched folder of our own, and waited for,
// proves every earlier event was delivered (one inotify queue per process, read in order). Where
// watching is not possible (another OS, the watch limit reached) each command costs a stat scan of
// the roots instead: slower, same answers.
//
// The baseline is bounded: past `maxBaselineBytes` of kept content a file is tracked by its stat
// signature only, and a change to it is reported as not restorable (`cappedFiles` says how many,
// so the engine can tell the user once). Large files are reflink copies where the file system can
// clone (btrfs, XFS, APFS): they share blocks with the original and cost no space until one of
// them changes. Small files go to the pack: one file instead of thousands is what keeps opening
// fast, and their bytes are few.
import fs from 'node:fs';
import path from 'node:path';
import { ignoreRules, isIgnored, underIgnoredDir, type IgnoreRules } from './ignore.js';
import type { FileChange } from './model.js';
import { Baseline } from './baseline.js';
import { dedupe, sameContent, sigOf } from './content.js';

export { DEFAULT_MAX_BASELINE_BYTES, DEFAULT_MAX_FILE_BYTES } from './baseline.js';

/** Past this many touched paths in one command, a scan is cheaper (and inotify may overflow). */
const MAX_WATCHED_CHANGES = 4096;
/** A barrier not seen within this long means the watches cannot be trusted: scan instead. */
const BARRIER_TIMEOUT_MS = 5_000;
/** Barriers that can be in flight at once without creating a file (two per running command). */
const BARRIER_FILES = 4;
/**
 * Past this many folder events in one second, watching stops and commands are scanned instead.
 * libuv reads the inotify queue until it is empty before it serves anything else, so a command
 * that renames in a tight loop (tens of thousands a second) kept rig's event loop busy with
 * events forever: the model's stream and every timer starved. A scan gives the same answers.
 */
const FLOOD_EVENTS_PER_SECOND = 100_000;

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

export interface TrackerOptions {
  /** Absolute folders whose files are tracked (the writable roots; never / or /tmp). */
  roots: readonly string[];
  /** Folder for the tracker's baseline (inside the thread's checkpoint folder). */
  dir: string;
  ignore?: IgnoreRules;
  /** auto: watch where possible, else scan. */
  mode?: 'auto' | 'watch' | 'scan';
  /** Files larger than this are not kept; a change to one is reported as not restorable. */
  maxFileBytes?: number;
  /** Size past which a mostly stale baseline pack is compacted (default 64 MiB). */
  compactMinBytes?: number;
  /** Kept content at most (default 256 MiB); files beyond are tracked but cannot be restored. */
  maxBaselineBytes?: number;
  /** Clone large files where the file system supports it (default true). */
  reflink?: boolean;
}

export interface CommandWindow {
  readonly id: number;
  paths: Set<string>;
  overflow: boolean;
  createdDirs: string[];
}

export interface CommandChanges {
  changes: FileChange[];
  /** Folders the command created. */
  createdDirs: string[];
}

export class WorkspaceTracker {
  readonly roots: string[];
  private readonly ignore: IgnoreRules;
  private readonly baseline: Baseline;
  private readonly dirs = new Set<string>();
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly pending = new Set<string>();
  private readonly windows = new Set<CommandWindow>();
  private readonly barrierDir: string;
  private barrierWaiters = new Map<string, () => void>();
  private barrierCount = 0;
  /** Folder events seen in the current one-second bucket, and when that bucket began. */
  private floodCount = 0;
  private floodSince = 0;
  /** Barrier files made before the watch began, not in use by a barrier now (see barrier()). */
  private idleBarrierFiles: BarrierFile[] = [];
  private readonly barrierFiles: BarrierFile[] = [];
  private windowCount = 0;
  private watching = false;
  private closed = false;

  private constructor(options: TrackerOptions) {
    this.roots = options.roots.map((r) => path.resolve(r));
    this.barrierDir = path.join(options.dir, 'barrier');
    this.ignore = options.ignore ?? ignoreRules();
    this.ignore = { dirNames: this.ignore.dirNames, paths: [...this.ignore.paths, path.resolve(options.dir)] };
    this.baseline = new Baseline(path.join(options.dir, 'baseline'), options);
  }

  /** Scans the roots (the one full read of their files) and starts watching. */
  static async open(options: TrackerOptions): Promise<WorkspaceTracker> {
    const tracker = new WorkspaceTracker(options);
    tracker.baseline.clear();
    for (const root of tracker.roots) tracker.scanInto(root, (file, st) => tracker.baseline.put(file, tracker.baseline.read(file, st)));
    if ((options.mode ?? 'auto') !== 'scan') tracker.startWatching(options.mode === 'watch');
    return tracker;
  }

  /** 'watch' or 'scan': how commands are observed. */
  get mode(): 'watch' | 'scan' {
    return this.watching ? 'watch' : 'scan';
  }

  /** Bytes in the baseline pack (live and stale). */
  get baselineBytes(): number {
    return this.baseline.packBytes;
  }

  get fileCount(): number {
    return this.baseline.size;
  }

  /** Bytes of content kept against the baseline limit. */
  get keptBytes(): number {
    return this.baseline.keptBytes;
  }

  /** Files tracked by signature only because the baseline limit was reached. */
  get cappedFiles(): number {
    return this.baseline.cappedFiles;
  }

  /** Files kept as reflink clones. */
  get clonedFiles(): number {
    return this.baseline.clonedFiles;
  }

  /** Call before a command runs: settles changes made since the last command into the baseline. */
  async beginCommand(): Promise<CommandWindow> {
    this.assertOpen();
    if (this.watching && !(await this.barrier())) this.stopWatching();
    if (this.watching) {
      // Paths an open window (a command still running) touched are that command's to report.
      const claimed = (p: string) => [...this.windows].some((w) => w.paths.has(p));
      for (const p of [...this.pending]) {
        if (claimed(p)) continue;
        this.refresh(p);
        this.pending.delete(p);
      }
    } else if (this.windows.size === 0) {
      this.rescanAll(undefined);
    }
    this.baseline.compactIfWasteful();
    const window: CommandWindow = { id: ++this.windowCount, paths: new Set(), overflow: false, createdDirs: [] };
    this.windows.add(window);
    return window;
  }

  /** Call after the command ended: what it changed (old content from the baseline, new from disk). */
  async endCommand(window: CommandWindow): Promise<CommandChanges> {
    this.assertOpen();
    if (this.watching && !(await this.barrier())) this.stopWatching();
    this.windows.delete(window);
    const changes: FileChange[] = [];
    if (!this.watching || window.overflow) {
      this.rescanAll(changes, window);
    } else {
      for (const p of window.paths) {
        this.examine(p, changes, window);
        this.pending.delete(p);
      }
    }
    return { changes: dedupe(changes), createdDirs: window.createdDirs };
  }

  /** Stops watching; the baseline is dropped (it is only a cache of the current files). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopWatching();
    this.baseline.close();
    fs.rmSync(this.barrierDir, { recursive: true, force: true });
  }

  // ---- baseline ----

  /** Brings one path's baseline up to date without reporting a change. */
  private refresh(file: string): void {
    const st = fs.lstatSync(file, { bigint: true, throwIfNoEntry: false });
    if (st?.isDirectory()) {
      if (!this.dirs.has(file) && !this.ignoredPath(file, true)) {
        this.scanInto(file, (f, s) => this.baseline.put(f, this.baseline.read(f, s)));
        this.watchTree(file);
      }
      return;
    }
    if (!st || !(st.isFile() || st.isSymbolicLink())) {
      this.forgetUnder(file);
      return;
    }
    if (this.ignoredPath(file, false)) return;
    const prev = this.baseline.get(file);
    if (prev?.sig === sigOf(st)) return;
    this.baseline.put(file, this.baseline.read(file, st));
  }

  private forgetUnder(p: string): void {
    this.baseline.drop(p);
    const prefix = p + path.sep;
    for (const key of [...this.baseline.keys()]) if (key.startsWith(prefix)) this.baseline.drop(key);
    for (const dir of [...this.dirs]) {
      if (dir === p || dir.startsWith(prefix)) {
        this.dirs.delete(dir);
        this.watchers.get(dir)?.close();
        this.watchers.delete(dir);
      }
    }
  }

  /** Compares one path with its baseline; records a change and moves the baseline on. */
  private examine(file: string, changes: FileChange[], window: CommandWindow): void {
    const st = fs.lstatSync(file, { bigint: true, throwIfNoEntry: false });
    if (st?.isDirectory()) {
      if (this.dirs.has(file) || this.ignoredPath(file, true)) return;
      window.createdDirs.push(file);
      const inside: string[] = [];
      this.scanInto(file, (f) => inside.push(f), (d) => d !== file && window.createdDirs.push(d));
      this.watchTree(file);
      for (const f of inside) this.examine(f, changes, window);
      return;
    }
    if (!st || !(st.isFile() || st.isSymbolicLink())) {
      const prefix = file + path.sep;
      for (const [key, entry] of [...this.baseline]) {
        if (key === file || key.startsWith(prefix)) changes.push({ path: key, before: this.baseline.contentOf(entry), after: { kind: 'absent' } });
      }
      this.forgetUnder(file);
      return;
    }
    if (this.ignoredPath(file, false)) return;
    const prev = this.baseline.get(file);
    if (prev?.sig === sigOf(st)) return;
    const before = this.baseline.contentOf(prev);
    const next = this.baseline.read(file, st);
    const after = this.baseline.contentOf(next);
    this.baseline.put(file, next);
    if (!sameContent(before, after)) changes.push({ path: file, before, after });
  }

  private rescanAll(changes: FileChange[] | undefined, window?: CommandWindow): void {
    const seen = new Set<string>();
    const dirsBefore = new Set(this.dirs);
    for (const root of this.roots) {
      this.scanInto(
        root,
        (file, st) => {
          seen.add(file);
          const prev = this.baseline.get(file);
          if (prev?.sig === sigOf(st)) return;
          if (changes && window) this.examine(file, changes, window);
          else this.baseline.put(file, this.baseline.read(file, st));
        },
        (dir) => {
          if (window && !dirsBefore.has(dir)) window.createdDirs.push(dir);
        },
      );
    }
    for (const [file, entry] of [...this.baseline]) {
      if (seen.has(file)) continue;
      if (changes) changes.push({ path: file, before: this.baseline.contentOf(entry), after: { kind: 'absent' } });
      this.baseline.drop(file);
    }
  }

  private ignoredPath(p: string, isDir: boolean): boolean {
    if (isIgnored(this.ignore, p, isDir)) return true;
    const root = this.roots.find((r) => p === r || p.startsWith(r + path.sep));
    return root === undefined || underIgnoredDir(this.ignore, root, p);
  }

  /** Walks `top` (ignore rules applied), calling `onFile` for files and symlinks. */
  private scanInto(top: string, onFile: (file: string, st: fs.BigIntStats) => void, onDir?: (dir: string) => void): void {
    const stack = [top];
    while (stack.length > 0) {
      const dir = stack.pop()!;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      this.dirs.add(dir);
      onDir?.(dir);
      for (const entry of entries) {
        const full = dir + path.sep + entry.name;
        if (entry.isDirectory()) {
          if (!isIgnored(this.ignore, full, true)) stack.push(full);
        } else if (entry.isFile() || entry.isSymbolicLink()) {
          if (isIgnored(this.ignore, full, false)) continue;
          const st = fs.lstatSync(full, { bigint: true, throwIfNoEntry: false });
          if (st) onFile(full, st);
        }
      }
    }
  }

  // ---- watching ----

  private startWatching(required: boolean): void {
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
      for (const dir of this.dirs) this.watchDir(dir, false);
      this.watching = true;
    } catch (error) {
      this.stopWatching();
      if (required) throw new Error(`cannot watch the workspace for shell writes: ${(error as Error).message}`);
    }
  }

  private watchTree(top: string): void {
    if (!this.watching) return;
    try {
      for (const dir of this.dirs) if ((dir === top || dir.startsWith(top + path.sep)) && !this.watchers.has(dir)) this.watchDir(dir, false);
    } catch {
      this.stopWatching();
    }
  }

  private watchDir(dir: string, barrier: boolean): void {
    const watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
      if (barrier) {
        if (name) this.barrierWaiters.get(name.toString())?.();
        return;
      }
      if (this.flooded()) {
        this.stopWatching();
        return;
      }
      // No name: something changed in the folder; look at all of it.
      const touched = name ? [dir + path.sep + name.toString()] : [dir, ...[...this.baseline.keys()].filter((k) => path.dirname(k) === dir)];
      for (const p of touched) {
        this.pending.add(p);
        for (const w of this.windows) {
          w.paths.add(p);
          if (w.paths.size > MAX_WATCHED_CHANGES) w.overflow = true;
        }
      }
    });
    watcher.on('error', () => {
      // A watched folder that disappears ends its watch; its removal was reported to the parent.
      watcher.close();
      this.watchers.delete(dir);
    });
    this.watchers.set(barrier ? '\0barrier' : dir, watcher);
  }

  private flooded(): boolean {
    if (++this.floodCount < FLOOD_EVENTS_PER_SECOND) return false;
    const now = performance.now();
    const flooded = now - this.floodSince < 1000;
    this.floodCount = 0;
    this.floodSince = now;
    return flooded;
  }

  private stopWatching(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.watching = false;
    for (const file of this.barrierFiles.splice(0)) closeQuietly(file.fd);
    this.idleBarrierFiles = [];
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
  private barrier(): Promise<boolean> {
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
        this.barrierWaiters.set(name, () => settle(true));
        try {
          fs.writeSync(file.fd, 'x', 0);
        } catch {
          settle(false);
        }
        return;
      }
      this.barrierWaiters.set(name, () => {
        settle(true);
        fs.unlink(path.join(this.barrierDir, name), () => {});
      });
      fs.writeFile(path.join(this.barrierDir, name), '', (error) => {
        if (error) settle(false);
      });
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the workspace tracker is closed');
  }
}

