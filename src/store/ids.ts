// Thread ids are UUIDv7: time-ordered, so file listings and index scans sort by creation for free.
import { randomBytes } from 'node:crypto';

export function newThreadId(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  // 48-bit big-endian Unix milliseconds.
  let ms = Math.floor(now);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

export function isThreadId(text: string): boolean {
  return text.length === 36 && UUID_PATTERN.test(text);
}

/** Creation time encoded in a UUIDv7, or undefined for other UUIDs. */
export function threadIdTime(id: string): number | undefined {
  if (!isThreadId(id) || id[14] !== '7') return undefined;
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
