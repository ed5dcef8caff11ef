// The tracker's baseline: the last known state of every tracked file, with its content kept in a
// pack (small files), as a reflink clone (large files, where the file system clones), or not at
// all (over the size limit: the signature alone, so a change is noticed but cannot be undone).
import fs from 'node:fs';
import path from 'node:path';
import type { BlobRef, FileContent } from './model.js';
import { PackWriter, readBlob } from './packs.js';
import { sigOf } from './content.js';

export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Kept content of one tracker (the pack; reflink clones share blocks and do not count). */
export const DEFAULT_MAX_BASELINE_BYTES = 256 * 1024 * 1024;
/** Files at least this large are cloned instead of packed where the file system supports clones. */
const REFLINK_MIN_BYTES = 64 * 1024;
/** The baseline pack is compacted only past this size, and once three quarters of it are stale. */
const COMPACT_MIN_BYTES = 64 * 1024 * 1024;

export interface Entry {
  kind: 'file' | 'symlink' | 'unknown';
  sig: string;
  blob?: BlobRef;
  /** A reflink clone of the file, in the baseline folder (instead of `blob`). */
  clone?: string;
  /** Bytes this entry holds against the baseline limit (packed content). */
  held: number;
  /** Over the baseline limit: only the signature is kept. */
  capped?: boolean;
  mode: number;
  target?: string;
  reason?: string;
}

export interface BaselineOptions {
  maxFileBytes?: number;
  compactMinBytes?: number;
  maxBaselineBytes?: number;
  reflink?: boolean;
}

export class Baseline {
  private readonly entries = new Map<string, Entry>();
  private readonly maxFileBytes: number;
  private readonly compactMinBytes: number;
  private readonly maxBaselineBytes: number;
  private readonly reflink: boolean;
  /** Per device: can files be cloned into the baseline folder? (learnt on the first large file) */
  private readonly cloneSupport = new Map<bigint, boolean>();
  private cloneCount = 0;
  private packCount = 0;
  private heldBytes = 0;
  private cappedCount = 0;
  private pack: PackWriter;

  constructor(
    private readonly baselineDir: string,
    options: BaselineOptions,
  ) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.compactMinBytes = options.compactMinBytes ?? COMPACT_MIN_BYTES;
    this.maxBaselineBytes = options.maxBaselineBytes ?? DEFAULT_MAX_BASELINE_BYTES;
    this.reflink = options.reflink ?? true;
    this.pack = new PackWriter(baselineDir, `base-${process.pid}-${Date.now()}.pack`);
  }

  get(file: string): Entry | undefined {
    return this.entries.get(file);
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  [Symbol.iterator](): IterableIterator<[string, Entry]> {
    return this.entries.entries();
  }

  get size(): number {
    return this.entries.size;
  }

  get packBytes(): number {
    return this.pack.bytes;
  }

  get keptBytes(): number {
    return this.heldBytes;
  }

  get cappedFiles(): number {
    return this.cappedCount;
  }

  get clonedFiles(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.clone) n++;
    return n;
  }

  /** Removes what an earlier tracker left in the folder. */
  clear(): void {
    fs.rmSync(this.baselineDir, { recursive: true, force: true });
  }

  close(): void {
    this.pack.close();
    fs.rmSync(this.baselineDir, { recursive: true, force: true });
  }

  /**
   * The baseline pack only grows (a file rewritten a hundred times is in it a hundred times): once
   * most of it is stale, the live contents move to a fresh pack and the old one is deleted.
   */
  compactIfWasteful(): void {
    let live = 0;
    for (const e of this.entries.values()) live += e.blob?.length ?? 0;
    if (this.pack.bytes < this.compactMinBytes || this.pack.bytes < 3 * live) return;
    const old = this.pack;
    old.close();
    const fresh = new PackWriter(this.baselineDir, `base-${process.pid}-${Date.now()}-${++this.packCount}.pack`);
    for (const entry of this.entries.values()) {
      if (entry.blob) entry.blob = fresh.append(readBlob(this.baselineDir, entry.blob), false);
    }
    this.pack = fresh;
    fs.rmSync(old.file, { force: true });
  }

  read(file: string, st: fs.BigIntStats): Entry {
    const sig = sigOf(st);
    const mode = Number(st.mode & 0o7777n);
    if (st.isSymbolicLink()) {
      try {
        return { kind: 'symlink', sig, mode, held: 0, target: fs.readlinkSync(file) };
      } catch (error) {
        return { kind: 'unknown', sig, mode, held: 0, reason: `unreadable symlink (${(error as Error).message})` };
      }
    }
    if (st.size > BigInt(this.maxFileBytes)) {
      return { kind: 'unknown', sig, mode, held: 0, reason: `larger than ${this.maxFileBytes} bytes, not kept` };
    }
    const size = Number(st.size);
    if (size >= REFLINK_MIN_BYTES && this.reflink) {
      const clone = this.cloneOf(file, st.dev);
      if (clone) return { kind: 'file', sig, mode, held: 0, clone };
    }
    if (this.heldBytes + size > this.maxBaselineBytes) {
      return {
        kind: 'unknown',
        sig,
        mode,
        held: 0,
        capped: true,
        reason: `not kept: the checkpoint baseline reached its limit of ${formatMiB(this.maxBaselineBytes)} (checkpoints.max_baseline_mb)`,
      };
    }
    try {
      const data = fs.readFileSync(file);
      return { kind: 'file', sig, mode, held: data.length, blob: this.pack.append(data, false) };
    } catch (error) {
      return { kind: 'unknown', sig, mode, held: 0, reason: `unreadable (${(error as Error).message})` };
    }
  }

  /** A reflink clone of `file` in the baseline folder, or undefined where the file system cannot clone. */
  private cloneOf(file: string, dev: bigint): string | undefined {
    if (this.cloneSupport.get(dev) === false) return undefined;
    const target = path.join(this.baselineDir, 'clones', `c${++this.cloneCount}`);
    try {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target, fs.constants.COPYFILE_FICLONE_FORCE);
      this.cloneSupport.set(dev, true);
      return target;
    } catch (error) {
      // ENOTSUP/EXDEV/EINVAL: this file system (or this pair of them) does not clone; a file that
      // vanished says nothing about the file system.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.cloneSupport.set(dev, false);
      fs.rmSync(target, { force: true });
      return undefined;
    }
  }

  /** Sets a path's baseline entry, keeping the limit's accounting and dropping a replaced clone. */
  put(file: string, entry: Entry): void {
    this.drop(file);
    this.entries.set(file, entry);
    this.heldBytes += entry.held;
    if (entry.capped) this.cappedCount++;
  }

  drop(file: string): void {
    const prev = this.entries.get(file);
    if (!prev) return;
    this.entries.delete(file);
    this.heldBytes -= prev.held;
    if (prev.capped) this.cappedCount--;
    if (prev.clone) fs.rmSync(prev.clone, { force: true });
  }

  contentOf(entry: Entry | undefined): FileContent {
    if (entry === undefined) return { kind: 'absent' };
    if (entry.kind === 'symlink') return { kind: 'symlink', target: entry.target! };
    if (entry.kind === 'unknown') return { kind: 'unknown', reason: entry.reason! };
    if (entry.clone) return { kind: 'file', data: fs.readFileSync(entry.clone), mode: entry.mode };
    return { kind: 'file', data: readBlob(this.baselineDir, entry.blob!), mode: entry.mode };
  }
}

function formatMiB(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}
