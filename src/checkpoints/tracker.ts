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
import fs from 'node:fs';
import path from 'node:path';
import { ignoreRules, isIgnored, underIgnoredDir, type IgnoreRules } from './ignore.js';
import type { BlobRef, FileChange, FileContent } from './model.js';
import { PackWriter, readBlob } from './packs.js';
import { dedupe, sameContent, sigOf } from './content.js';

export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Past this many touched paths in one command, a scan is cheaper (and inotify may overflow). */
const MAX_WATCHED_CHANGES = 4096;
/** A barrier not seen within this long means the watches cannot be trusted: scan instead. */
const BARRIER_TIMEOUT_MS = 5_000;
/** The baseline pack is compacted only past this size, and once three quarters of it are stale. */
const COMPACT_MIN_BYTES = 64 * 1024 * 1024;

interface Entry {
  kind: 'file' | 'symlink' | 'unknown';
  sig: string;
  blob?: BlobRef;
  mode: number;
  target?: string;
  reason?: string;
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
  private readonly maxFileBytes: number;
  private readonly compactMinBytes: number;
  private readonly baseline = new Map<string, Entry>();
  private readonly dirs = new Set<string>();
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly pending = new Set<string>();
  private readonly windows = new Set<CommandWindow>();
  private readonly baselineDir: string;
  private readonly barrierDir: string;
  private pack: PackWriter;
  private barrierWaiters = new Map<string, () => void>();
  private barrierCount = 0;
  private windowCount = 0;
  private watching = false;
  private closed = false;

  private constructor(options: TrackerOptions) {
    this.roots = options.roots.map((r) => path.resolve(r));
    this.baselineDir = path.join(options.dir, 'baseline');
    this.barrierDir = path.join(options.dir, 'barrier');
    this.ignore = options.ignore ?? ignoreRules();
    this.ignore = { dirNames: this.ignore.dirNames, paths: [...this.ignore.paths, path.resolve(options.dir)] };
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.compactMinBytes = options.compactMinBytes ?? COMPACT_MIN_BYTES;
    this.pack = new PackWriter(this.baselineDir, `base-${process.pid}-${Date.now()}.pack`);
  }

  /** Scans the roots (the one full read of their files) and starts watching. */
  static async open(options: TrackerOptions): Promise<WorkspaceTracker> {
    const tracker = new WorkspaceTracker(options);
    fs.rmSync(tracker.baselineDir, { recursive: true, force: true });
    for (const root of tracker.roots) tracker.scanInto(root, (file, st) => tracker.baseline.set(file, tracker.entryFor(file, st)));
    if ((options.mode ?? 'auto') !== 'scan') tracker.startWatching(options.mode === 'watch');
    return tracker;
  }

  /** 'watch' or 'scan': how commands are observed. */
  get mode(): 'watch' | 'scan' {
    return this.watching ? 'watch' : 'scan';
  }

  /** Bytes in the baseline pack (live and stale). */
  get baselineBytes(): number {
    return this.pack.bytes;
  }

  get fileCount(): number {
    return this.baseline.size;
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
    this.compactIfWasteful();
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
    this.pack.close();
    fs.rmSync(this.baselineDir, { recursive: true, force: true });
    fs.rmSync(this.barrierDir, { recursive: true, force: true });
  }

  // ---- baseline ----

  /**
   * The baseline pack only grows (a file rewritten a hundred times is in it a hundred times): once
   * most of it is stale, the live contents move to a fresh pack and the old one is deleted.
   */
  private compactIfWasteful(): void {
    let live = 0;
    for (const e of this.baseline.values()) live += e.blob?.length ?? 0;
    if (this.pack.bytes < this.compactMinBytes || this.pack.bytes < 3 * live) return;
    const old = this.pack;
    old.close();
    const fresh = new PackWriter(this.baselineDir, `base-${process.pid}-${Date.now()}-${++this.windowCount}.pack`);
    for (const entry of this.baseline.values()) {
      if (entry.blob) entry.blob = fresh.append(readBlob(this.baselineDir, entry.blob), false);
    }
    this.pack = fresh;
    fs.rmSync(old.file, { force: true });
  }

  private entryFor(file: string, st: fs.BigIntStats): Entry {
    const sig = sigOf(st);
    const mode = Number(st.mode & 0o7777n);
    if (st.isSymbolicLink()) {
      try {
        return { kind: 'symlink', sig, mode, target: fs.readlinkSync(file) };
      } catch (error) {
        return { kind: 'unknown', sig, mode, reason: `unreadable symlink (${(error as Error).message})` };
      }
    }
    if (st.size > BigInt(this.maxFileBytes)) {
      return { kind: 'unknown', sig, mode, reason: `larger than ${this.maxFileBytes} bytes, not kept` };
    }
    try {
      const data = fs.readFileSync(file);
      return { kind: 'file', sig, mode, blob: this.pack.append(data, false) };
    } catch (error) {
      return { kind: 'unknown', sig, mode, reason: `unreadable (${(error as Error).message})` };
    }
  }

  private contentOf(entry: Entry | undefined): FileContent {
    if (entry === undefined) return { kind: 'absent' };
    if (entry.kind === 'symlink') return { kind: 'symlink', target: entry.target! };
    if (entry.kind === 'unknown') return { kind: 'unknown', reason: entry.reason! };
    return { kind: 'file', data: readBlob(this.baselineDir, entry.blob!), mode: entry.mode };
  }

  /** Brings one path's baseline up to date without reporting a change. */
  private refresh(file: string): void {
    const st = fs.lstatSync(file, { bigint: true, throwIfNoEntry: false });
    if (st?.isDirectory()) {
      if (!this.dirs.has(file) && !this.ignoredPath(file, true)) {
        this.scanInto(file, (f, s) => this.baseline.set(f, this.entryFor(f, s)));
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
    this.baseline.set(file, this.entryFor(file, st));
  }

  private forgetUnder(p: string): void {
    this.baseline.delete(p);
    const prefix = p + path.sep;
    for (const key of this.baseline.keys()) if (key.startsWith(prefix)) this.baseline.delete(key);
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
        if (key === file || key.startsWith(prefix)) changes.push({ path: key, before: this.contentOf(entry), after: { kind: 'absent' } });
      }
      this.forgetUnder(file);
      return;
    }
    if (this.ignoredPath(file, false)) return;
    const prev = this.baseline.get(file);
    if (prev?.sig === sigOf(st)) return;
    const next = this.entryFor(file, st);
    const before = this.contentOf(prev);
    const after = this.contentOf(next);
    this.baseline.set(file, next);
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
          else this.baseline.set(file, this.entryFor(file, st));
        },
        (dir) => {
          if (window && !dirsBefore.has(dir)) window.createdDirs.push(dir);
        },
      );
    }
    for (const [file, entry] of [...this.baseline]) {
      if (seen.has(file)) continue;
      if (changes) changes.push({ path: file, before: this.contentOf(entry), after: { kind: 'absent' } });
      this.baseline.delete(file);
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

  private stopWatching(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.watching = false;
  }

  /** Resolves true once every change made before the call has been delivered by the watches. */
  private barrier(): Promise<boolean> {
    const name = `b${++this.barrierCount}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.barrierWaiters.delete(name);
        resolve(false);
      }, BARRIER_TIMEOUT_MS);
      this.barrierWaiters.set(name, () => {
        clearTimeout(timer);
        this.barrierWaiters.delete(name);
        fs.rmSync(path.join(this.barrierDir, name), { force: true });
        resolve(true);
      });
      fs.writeFileSync(path.join(this.barrierDir, name), '');
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the workspace tracker is closed');
  }
}
