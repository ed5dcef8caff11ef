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
import { FolderWatches, type WatchStopReason } from './tracker-watch.js';

export { DEFAULT_MAX_BASELINE_BYTES, DEFAULT_MAX_FILE_BYTES } from './baseline.js';

/** Past this many touched paths in one command, a scan is cheaper (and inotify may overflow). */
const MAX_WATCHED_CHANGES = 4096;
/**
 * After a flood stopped the watches, a command starting this long after it (and none running)
 * watches again; each flood after that doubles the wait, up to the maximum. One huge checkout
 * should not make every later command of the thread pay a scan.
 */
const REWATCH_AFTER_MS = 30_000;
const MAX_REWATCH_AFTER_MS = 10 * 60_000;
/** The opening scan's longest stretch without a turn of the event loop. */
const SCAN_SLICE_MS = 8;

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
  /** After a flood, how long before watching is tried again (default 30 s; doubles per flood). */
  rewatchAfterMs?: number;
  /** Folder events in one second that make a flood (default 100,000). */
  floodEventsPerSecond?: number;
  /** The clock of the re-watch wait (default performance.now; tests give their own). */
  now?: () => number;
  /** The opening scan gives the event loop a turn after this long (default 8 ms; 0: after every file). */
  scanSliceMs?: number;
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
  private readonly pending = new Set<string>();
  private readonly windows = new Set<CommandWindow>();
  private readonly barrierDir: string;
  private readonly watches: FolderWatches;
  private windowCount = 0;
  private closed = false;
  private rewatchAfterMs: number;
  private readonly now: () => number;

  private constructor(options: TrackerOptions) {
    this.roots = options.roots.map((r) => path.resolve(r));
    this.barrierDir = path.join(options.dir, 'barrier');
    this.ignore = options.ignore ?? ignoreRules();
    this.ignore = { dirNames: this.ignore.dirNames, paths: [...this.ignore.paths, path.resolve(options.dir)] };
    this.baseline = new Baseline(path.join(options.dir, 'baseline'), options);
    this.now = options.now ?? (() => performance.now());
    this.watches = new FolderWatches(this.barrierDir, (dir, name) => this.touched(dir, name), options.floodEventsPerSecond, this.now);
    this.rewatchAfterMs = options.rewatchAfterMs ?? REWATCH_AFTER_MS;
  }

  /**
   * Scans the roots (the one full read of their files) and watches them. The scan gives the event
   * loop a turn every `scanSliceMs` (a 10,000-file workspace takes ~120-130 ms, a monorepo
   * seconds), so what else the thread does goes on meanwhile: the model's stream, another call's
   * edit, the TUI. Each folder is watched as soon as it has been listed, before its files are
   * read, so a file changed while the scan goes on is reported by its folder's watch (or read
   * afterwards) and the next beginCommand settles it into the baseline.
   */
  static async open(options: TrackerOptions): Promise<WorkspaceTracker> {
    const tracker = new WorkspaceTracker(options);
    tracker.baseline.clear();
    const required = options.mode === 'watch';
    if ((options.mode ?? 'auto') !== 'scan') tracker.watchOrScan(required, () => tracker.watches.start([]));
    const sliceMs = options.scanSliceMs ?? SCAN_SLICE_MS;
    let sliceStart = performance.now();
    for (const root of tracker.roots) {
      for (const step of tracker.walk(root)) {
        if (typeof step === 'string') {
          tracker.watchOrScan(required, () => tracker.watches.extend(step));
          continue;
        }
        tracker.baseline.put(step[0], tracker.baseline.read(step[0], step[1]));
        if (performance.now() - sliceStart < sliceMs) continue;
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    return tracker;
  }

  /** 'watch' or 'scan': how commands are observed. */
  get mode(): 'watch' | 'scan' {
    return this.watches.active ? 'watch' : 'scan';
  }

  /** Why the tracker last went from watching to scanning, if it ever did. */
  get watchStopReason(): WatchStopReason | undefined {
    return this.watches.lastStop?.reason;
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
    if (this.rewatchDue()) this.rewatch();
    if (this.watches.active && !(await this.watches.barrier())) this.watches.stop('unreliable');
    if (this.watches.active) {
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
    if (this.watches.active && !(await this.watches.barrier())) this.watches.stop('unreliable');
    this.windows.delete(window);
    const changes: FileChange[] = [];
    if (!this.watches.active || window.overflow) {
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
    this.watches.stop();
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
        this.watches.remove(dir);
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
    for (const step of this.walk(top)) {
      if (typeof step === 'string') onDir?.(step);
      else onFile(step[0], step[1]);
    }
  }

  /** The walk under `top` (ignore rules applied): each folder once listed, then its files and symlinks. */
  private *walk(top: string): Generator<string | [string, fs.BigIntStats]> {
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
      yield dir;
      for (const entry of entries) {
        const full = dir + path.sep + entry.name;
        if (entry.isDirectory()) {
          if (!isIgnored(this.ignore, full, true)) stack.push(full);
        } else if (entry.isFile() || entry.isSymbolicLink()) {
          if (isIgnored(this.ignore, full, false)) continue;
          const st = fs.lstatSync(full, { bigint: true, throwIfNoEntry: false });
          if (st) yield [full, st];
        }
      }
    }
  }

  // ---- watching ----

  /** Runs a step of starting the watches; where watching is not possible the tracker scans instead, or throws when watching is required. */
  private watchOrScan(required: boolean, step: () => void): void {
    try {
      step();
    } catch (error) {
      if (required) throw new Error(`cannot watch the workspace for shell writes: ${(error as Error).message}`);
    }
  }

  private rewatchDue(): boolean {
    const stop = this.watches.lastStop;
    return !this.watches.active && this.windows.size === 0 && stop?.reason === 'flood' && this.now() - stop.at >= this.rewatchAfterMs;
  }

  /** Watches again after a flood. Watching begins before the scan, so nothing changed meanwhile is missed. */
  private rewatch(): void {
    this.rewatchAfterMs = Math.min(this.rewatchAfterMs * 2, MAX_REWATCH_AFTER_MS);
    // Scans add folders and never drop them: those gone since cannot be watched.
    for (const dir of [...this.dirs]) if (!fs.existsSync(dir)) this.dirs.delete(dir);
    try {
      this.watches.start(this.dirs);
    } catch {
      return;
    }
    this.rescanAll(undefined);
    // Folders made while the watches started, found by the scan.
    this.watches.add(this.dirs);
  }

  private watchTree(top: string): void {
    if (!this.watches.active) return;
    const prefix = top + path.sep;
    this.watches.add([...this.dirs].filter((dir) => dir === top || dir.startsWith(prefix)));
  }

  /** A watched folder changed: the path belongs to every open command window. */
  private touched(dir: string, name: string | undefined): void {
    // No name: something changed in the folder; look at all of it.
    const paths = name !== undefined ? [dir + path.sep + name] : [dir, ...[...this.baseline.keys()].filter((k) => path.dirname(k) === dir)];
    for (const p of paths) {
      this.pending.add(p);
      for (const w of this.windows) {
        w.paths.add(p);
        if (w.paths.size > MAX_WATCHED_CHANGES) w.overflow = true;
      }
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the workspace tracker is closed');
  }
}

