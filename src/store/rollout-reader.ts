// Reads rollout files tolerantly: a torn last line (killed mid-write) is skipped quietly; a
// corrupt line elsewhere becomes a warning naming the line, and reading continues.
import fs from 'node:fs';
import { KNOWN_RECORD_TYPES, type RolloutRecord, type SessionMeta } from './rollout-types.js';

export interface RolloutReadResult {
  path: string;
  /** The first `session_meta` payload, if any. */
  meta: SessionMeta | undefined;
  /** Every well-formed record of a known type, in file order (the session_meta line included). */
  records: RolloutRecord[];
  /** One line per problem, each naming the file and line number. */
  warnings: string[];
  /** True when the last line was incomplete and skipped. */
  tornTail: boolean;
}

/** Longer lines are skipped with a warning instead of failing the whole read (V8's string limit is ~512 MiB). */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

export function readRollout(file: string): RolloutReadResult {
  let bytes: Buffer;
  try {
    // A Buffer, not one string: the file may be larger than the biggest string V8 can make.
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read rollout ${file} (${code ?? String(error)})`);
  }
  const lines: (string | number)[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    const length = end - start;
    lines.push(length > MAX_LINE_BYTES ? length : bytes.toString('utf8', start, end));
    start = end + 1;
  }
  const endsClean = bytes.length === 0 || bytes[bytes.length - 1] === 0x0a;
  return parseLines(lines, endsClean, file);
}

export function parseRollout(text: string, file = '<rollout>'): RolloutReadResult {
  const endsClean = text.length === 0 || text.endsWith('\n');
  const lines = text.split('\n');
  if (endsClean) lines.pop();
  return parseLines(lines, endsClean, file);
}

/** `lines` without their newlines; a number stands for a line too long to decode (its byte length). */
function parseLines(lines: readonly (string | number)[], endsClean: boolean, file: string): RolloutReadResult {
  const result: RolloutReadResult = { path: file, meta: undefined, records: [], warnings: [], tornTail: false };
  const last = lines.length - 1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (typeof line === 'number') {
      result.warnings.push(`${file}:${i + 1}: line skipped (${line} bytes, more than one record may hold)`);
      continue;
    }
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (i === last && !endsClean) {
        result.tornTail = true;
        continue;
      }
      result.warnings.push(`${file}:${i + 1}: corrupt line skipped (not valid JSON: ${preview(line)})`);
      continue;
    }
    if (!isRecord(value)) {
      result.warnings.push(`${file}:${i + 1}: line skipped (expected {"timestamp","type","payload"})`);
      continue;
    }
    // Types written by newer versions are skipped without noise.
    if (!KNOWN_RECORD_TYPES.has(value.type)) continue;
    const record = value as RolloutRecord;
    if (record.type === 'session_meta' && result.meta === undefined) result.meta = record.payload;
    result.records.push(record);
  }
  if (result.meta === undefined && result.records.length > 0) {
    result.warnings.push(`${file}: no session_meta line; thread id and cwd are unknown`);
  }
  return result;
}

/** Only the first line's meta: cheap enough to call for every file in a listing. */
export function readRolloutMeta(file: string): SessionMeta | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    const chunk = Buffer.alloc(16 * 1024);
    let position = 0;
    // Base instructions can make the meta line long; read until the first newline.
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, position);
      if (n === 0) break;
      const slice = chunk.subarray(0, n);
      const newline = slice.indexOf(0x0a);
      if (newline >= 0) {
        chunks.push(Buffer.from(slice.subarray(0, newline)));
        break;
      }
      chunks.push(Buffer.from(slice));
      position += n;
    }
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (isRecord(value) && value.type === 'session_meta') return value.payload as SessionMeta;
    return undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

function isRecord(value: unknown): value is { timestamp: string; type: string; payload: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    'payload' in value
  );
}

function preview(line: string): string {
  return line.length > 60 ? `${JSON.stringify(line.slice(0, 60))}…` : JSON.stringify(line);
}
