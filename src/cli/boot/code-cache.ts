// V8 code cache of the bundle's chunks: one file per build, Node version and architecture, holding
// the compiled code of every chunk a run has loaded. Node 20 has no compile cache for ES modules;
// a classic script compiled with V8's cached data skips parsing and compiling (~35 ms of each
// `rig exec` before its first request). The cache is an optimisation only: anything wrong with it
// (missing, unreadable, unwritable, corrupt, made by another V8) means compiling as without it.
import { chmodSync, closeSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const MAGIC = 'RIGCC1\n';
const HEADER_OFFSET = MAGIC.length + 4;
/** Packs kept per directory: one per build, Node version and CPU; older ones go when a new one is made. */
const KEPT_PACKS = 4;
/** A pack file's name, as codeCacheFile() makes it. */
const PACK_NAME = /^[\w.-]+-v\d+\.\d+\.\d+-\w+\.cache$/;
/** A writer's temp file (pack name, pid, .tmp): left by a process killed while writing. */
const TEMP_NAME = /^[\w.-]+-v\d+\.\d+\.\d+-\w+\.cache\.\d+\.tmp$/;
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Where the cache of this build lives, or undefined when RIG_COMPILE_CACHE=0 turns it off. Never
 * next to the package (a global install is often read-only) nor in RIG_HOME (one per test): in the
 * temp directory, as Node 22's own compile cache, but inside a `.rig` directory there. Cached data
 * is code V8 runs unsandboxed, and the temp directory is writable for sandboxed commands; the
 * sandbox keeps `.rig` directly under every writable root read-only (src/exec/sandbox/policy.ts),
 * so a command cannot plant code for rig's next start.
 */
export function codeCacheFile(env: NodeJS.ProcessEnv, buildId: string): string | undefined {
  const setting = env['RIG_COMPILE_CACHE'];
  if (setting === '0') return undefined;
  const dir = setting ? resolve(setting) : join(tmpdir(), '.rig', `compile-cache-${process.getuid?.() ?? 'user'}`);
  return join(dir, `${buildId}-${process.version}-${process.arch}.cache`);
}

/**
 * Creates the cache directory before anything else runs: the sandbox protects `.rig` only when it
 * exists as a command starts, so it must not be left for a command to create. The shared `.rig`
 * is sticky and open to all, like the temp directory; each user's own folder is theirs alone.
 */
function prepareCacheDirectory(dir: string): void {
  try {
    lstatSync(dir);
    return;
  } catch {
    // Missing: made below.
  }
  try {
    const shared = dirname(dir);
    if (shared === join(tmpdir(), '.rig')) {
      try {
        mkdirSync(shared, { mode: 0o1777 });
        chmodSync(shared, 0o1777);
      } catch {
        // There already, or the temp directory is not writable: the cache is then simply not kept.
      }
    }
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // Unwritable: compiling without a cache.
  }
}

export interface CompiledChunk {
  /** The chunk's file name inside dist/. */
  name: string;
  /** Whether V8 took the cached data offered for it (false also when none was offered). */
  usedCache: boolean;
  createCachedData(): Buffer;
}

/** The cache in `file`, its directory made if missing; undefined when that directory cannot be trusted. */
export function openCodeCache(file: string): CodeCache | undefined {
  const dir = dirname(file);
  prepareCacheDirectory(dir);
  return trustedDirectory(dir) ? new CodeCache(file) : undefined;
}

export class CodeCache {
  readonly dir: string;
  /**
   * The pack as it was when the process started, open: an entry is read when its chunk is
   * compiled and is garbage once V8 has taken it. Reading the whole pack at once kept every
   * chunk's cached data (1.5 MB and more) alive for the whole run. Writers replace the pack by
   * rename, never in place, so the open file keeps the offsets its header gave.
   */
  private readonly pack: OpenPack | undefined;

  constructor(private readonly file: string) {
    this.dir = dirname(file);
    this.pack = openPack(file);
  }

  /** The cached data of one chunk, if this build's cache has it. */
  get(name: string): Buffer | undefined {
    const pack = this.pack;
    const span = pack?.entries.get(name);
    if (!pack || !span) return undefined;
    try {
      const data = Buffer.allocUnsafe(span.length);
      return readSync(pack.fd, data, 0, span.length, span.position) === span.length ? data : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Adds the chunks compiled without usable cached data and rewrites the file, merged with what
   * other rig processes wrote meanwhile. Synchronous: it runs in the process's exit handler.
   */
  save(chunks: readonly CompiledChunk[]): void {
    const fresh = chunks.filter((chunk) => !chunk.usedCache);
    if (fresh.length === 0) return;
    try {
      const merged = readPack(this.file);
      const isNew = merged.size === 0;
      for (const chunk of fresh) merged.set(chunk.name, chunk.createCachedData());
      writePack(this.file, merged);
      // Every build makes a pack of its own (an upgrade, each rebuild of a checkout): without
      // this they would pile up in the temp directory.
      if (isNew) pruneOldPacks(this.dir, this.file);
    } catch {
      // Unwritable directory, full disk: the next run compiles again, as without a cache.
    }
  }
}

/**
 * Keeps the newest KEPT_PACKS packs of `dir` (`current` always) and removes writers' temp files
 * older than an hour. Only names this module makes, in a directory only this user can write.
 */
export function pruneOldPacks(dir: string, current: string): void {
  if (!trustedDirectory(dir)) return;
  const now = Date.now();
  const packs: { path: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      const stat = lstatSync(path);
      if (!stat.isFile()) continue;
      if (TEMP_NAME.test(name) && now - stat.mtimeMs > STALE_TEMP_MS) rmSync(path, { force: true });
      else if (PACK_NAME.test(name) && path !== current) packs.push({ path, mtimeMs: stat.mtimeMs });
    } catch {
      // Gone meanwhile (another rig pruning): nothing to do.
    }
  }
  packs.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const old of packs.slice(KEPT_PACKS - 1)) rmSync(old.path, { force: true });
}

interface OpenPack {
  fd: number;
  entries: Map<string, { position: number; length: number }>;
}

/** The pack's header, its file left open for the entries; undefined for a missing, foreign or corrupt file. */
function openPack(file: string): OpenPack | undefined {
  let fd: number | undefined;
  try {
    if (!trustedDirectory(dirname(file))) return undefined;
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const prefix = Buffer.alloc(HEADER_OFFSET);
    if (readSync(fd, prefix, 0, HEADER_OFFSET, 0) !== HEADER_OFFSET || prefix.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('not a pack');
    const headerLength = prefix.readUInt32LE(MAGIC.length);
    if (HEADER_OFFSET + headerLength > size) throw new Error('truncated');
    const headerBytes = Buffer.alloc(headerLength);
    if (readSync(fd, headerBytes, 0, headerLength, HEADER_OFFSET) !== headerLength) throw new Error('truncated');
    const base = HEADER_OFFSET + headerLength;
    const entries = new Map<string, { position: number; length: number }>();
    for (const [name, [offset, length]] of parseHeader(headerBytes)) {
      if (base + offset + length <= size) entries.set(name, { position: base + offset, length });
    }
    return { fd, entries };
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

/** A header's valid entries: name, offset after the header, length. */
function parseHeader(bytes: Buffer): [string, [number, number]][] {
  const header = JSON.parse(bytes.toString('utf8')) as Record<string, [number, number]>;
  return Object.entries(header).filter(([, span]) => {
    const [offset, length] = Array.isArray(span) ? span : [];
    return Number.isInteger(offset) && Number.isInteger(length) && offset! >= 0 && length! > 0;
  });
}

/** The pack's entries; empty for a missing, foreign or corrupt file. */
function readPack(file: string): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  try {
    if (!trustedDirectory(dirname(file))) return entries;
    const data = readFileSync(file);
    if (data.toString('latin1', 0, MAGIC.length) !== MAGIC) return entries;
    const headerLength = data.readUInt32LE(MAGIC.length);
    const base = HEADER_OFFSET + headerLength;
    for (const [name, [offset, length]] of parseHeader(data.subarray(HEADER_OFFSET, base))) {
      if (base + offset + length <= data.length) entries.set(name, data.subarray(base + offset, base + offset + length));
    }
  } catch {
    entries.clear();
  }
  return entries;
}

function writePack(file: string, entries: Map<string, Buffer>): void {
  const header: Record<string, [number, number]> = {};
  let offset = 0;
  for (const [name, data] of entries) {
    header[name] = [offset, data.length];
    offset += data.length;
  }
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(HEADER_OFFSET);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, MAGIC.length);
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!trustedDirectory(dir)) return;
  // Many rig processes start at once (tests, sub-agents): each writes a file of its own and
  // renames it over the cache, so a reader sees the old pack or the new one, never half of one.
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      for (const part of [prefix, headerBytes, ...entries.values()]) writeSync(fd, part);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Cached data is compiled code V8 runs as it is, so it is only read from a directory no other
 * user could have written to: ours, not a symlink, writable by us alone, in a parent that is not a
 * symlink either (another user's `.rig` pointing at a directory of theirs).
 */
function trustedDirectory(dir: string): boolean {
  if (typeof process.getuid !== 'function') return true;
  try {
    const stat = lstatSync(dir);
    if (lstatSync(dirname(dir)).isSymbolicLink()) return false;
    return stat.isDirectory() && stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}
