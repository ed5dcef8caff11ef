// Appends rollout records with synchronous writes on an fd opened for append: each record is one
// write of one full line, so a crash loses at most the partial last line (which the reader skips).
import fs from 'node:fs';
import path from 'node:path';
import { ensureHomeDir, parseRolloutFileName, rolloutDayDir, rolloutFileName } from './home.js';
import { lockThread, type ThreadLock } from './thread-lock.js';
import { MAX_RECORD_BYTES, capPayload } from './record-cap.js';
import { createRedactor, type Redactor } from './redact.js';
import type { RolloutRecordBody, SessionMeta } from './rollout-types.js';

export interface CreateRolloutOptions {
  home: string;
  threadId: string;
  /** Everything but `id` and `timestamp`, which the writer fills in. */
  meta: Omit<SessionMeta, 'id' | 'timestamp'> & Partial<Pick<SessionMeta, 'timestamp'>>;
  /** Secret values to redact from every line (API keys, excluded env values). */
  secrets?: readonly string[];
  /** Creation time; defaults to now. Decides the sessions/YYYY/MM/DD folder and file name. */
  now?: Date;
}

export interface OpenRolloutOptions {
  path: string;
  secrets?: readonly string[];
}

export class RolloutWriter {
  private fd: number | undefined;
  private bytes = 0;
  private records = 0;

  private readonly dir: string;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly redactor: Redactor,
    private readonly lock: ThreadLock,
  ) {
    this.fd = fd;
    this.dir = parentDir(this.path);
  }

  /** Starts a new rollout file and writes its `session_meta` line. */
  static create(options: CreateRolloutOptions): RolloutWriter {
    const now = options.now ?? new Date();
    const dir = rolloutDayDir(options.home, now);
    ensureHomeDir(dir, options.home);
    const file = path.join(dir, rolloutFileName(now, options.threadId));
    const lock = lockThread(file, options.threadId);
    let fd: number;
    try {
      fd = openForAppend(file, 'wx');
    } catch (error) {
      lock.release();
      throw error;
    }
    const writer = new RolloutWriter(file, fd, createRedactor(options.secrets ?? []), lock);
    const meta: SessionMeta = {
      ...options.meta,
      id: options.threadId,
      timestamp: options.meta.timestamp ?? now.toISOString(),
    };
    writer.append({ type: 'session_meta', payload: meta });
    return writer;
  }

  /** Reopens an existing rollout to append (resume). A torn last line is closed off first. */
  static open(options: OpenRolloutOptions): RolloutWriter {
    // Before anything touches the file: a second writer must not even close off "its" torn tail.
    const threadId = parseRolloutFileName(path.basename(options.path))?.threadId ?? path.basename(options.path);
    const lock = lockThread(options.path, threadId);
    let fd: number;
    try {
      closeOffTornTail(options.path);
      fd = openForAppend(options.path, 'a');
    } catch (error) {
      lock.release();
      throw error;
    }
    const writer = new RolloutWriter(options.path, fd, createRedactor(options.secrets ?? []), lock);
    // closeOffTornTail may have rewritten the tail.
    touchDirectory(writer.dir);
    return writer;
  }

  /** Appends one record (timestamped now unless given) as one line. */
  append(record: RolloutRecordBody & { timestamp?: string }): void {
    if (this.fd === undefined) throw new Error(`rollout ${this.path} is closed; cannot append`);
    const line = { timestamp: record.timestamp ?? new Date().toISOString(), type: record.type, payload: record.payload };
    const text = this.redactor.redactJson(serializeCapped(line)) + '\n';
    const buffer = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < buffer.length) offset += fs.writeSync(this.fd, buffer, offset);
    this.bytes += buffer.length;
    this.records += 1;
    touchDirectory(this.dir);
  }

  /**
   * Makes written lines durable against an OS crash. Writes already reach the kernel on
   * `append`, so a process crash never loses whole lines; call this at turn boundaries.
   */
  flush(): void {
    if (this.fd !== undefined) fs.fdatasyncSync(this.fd);
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    fs.closeSync(fd);
    this.lock.release();
  }

  get stats(): { bytes: number; records: number } {
    return { bytes: this.bytes, records: this.records };
  }
}

/** One record as JSON, its longest strings cut first when it would exceed MAX_RECORD_BYTES. */
function serializeCapped(line: { timestamp: string; type: string; payload: unknown }): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(line);
    // Characters bound bytes from below: only a long line needs the exact count.
    if (text.length * 3 <= MAX_RECORD_BYTES || Buffer.byteLength(text, 'utf8') <= MAX_RECORD_BYTES) return text;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error; // too long to be a string at all
  }
  const bytes = text === undefined ? Infinity : Buffer.byteLength(text, 'utf8');
  return JSON.stringify({ ...line, payload: capPayload(line.payload, bytes) });
}

/**
 * Moves the directory's mtime to now. The thread index lists only directories whose mtime changed
 * (dir-scan.ts); creating or removing a file moves it, appending does not, hence this one extra
 * syscall per record. Best effort: a directory we may not touch only makes listings lag until the
 * next file appears there or `rig sessions reindex`.
 */
function parentDir(file: string): string {
  return path.dirname(file);
}

function touchDirectory(dir: string): void {
  const now = Date.now() / 1000;
  try {
    fs.utimesSync(dir, now, now);
  } catch {
    // see above
  }
}

function openForAppend(file: string, flags: 'wx' | 'a'): number {
  try {
    // 'wx' creates exclusively; reopen in append mode so every write lands at the end.
    if (flags === 'wx') fs.closeSync(fs.openSync(file, 'wx', 0o600));
    return fs.openSync(file, 'a', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Error(`rollout file ${file} already exists; thread ids must be unique`);
    throw new Error(`cannot open rollout file ${file} for writing (${code ?? String(error)}); check that RIG_HOME is writable`);
  }
}

/**
 * A rollout whose last line was cut off by a crash: drop the fragment (the reader skips it anyway)
 * so new records do not turn it into a corrupt line in the middle. A last line that is complete
 * JSON but lacks its newline is kept and terminated instead.
 */
function closeOffTornTail(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r+');
  } catch {
    return; // openForAppend reports a missing or unwritable file with a better message
  }
  try {
    closeOffTornTailOf(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function closeOffTornTailOf(fd: number): void {
  const size = fs.fstatSync(fd).size;
  if (size === 0) return;
  const chunkSize = 64 * 1024;
  let end = size;
  let fragment = Buffer.alloc(0);
  while (end > 0) {
    const start = Math.max(0, end - chunkSize);
    const chunk = Buffer.alloc(end - start);
    fs.readSync(fd, chunk, 0, chunk.length, start);
    const newline = chunk.lastIndexOf(0x0a);
    if (newline !== -1) {
      fragment = Buffer.concat([chunk.subarray(newline + 1), fragment]);
      end = start + newline + 1;
      break;
    }
    fragment = Buffer.concat([chunk, fragment]);
    end = start;
  }
  if (fragment.length === 0) return;
  try {
    JSON.parse(fragment.toString('utf8'));
    fs.writeSync(fd, '\n', size);
  } catch {
    fs.ftruncateSync(fd, end);
  }
}
