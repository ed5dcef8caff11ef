// Thread ids are UUIDv7: time-ordered, so file listings and index scans sort by creation for free.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

export function newThreadId(now: number = Date.now()): string {
  const bytes = randomIdBytes();
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

/**
 * 16 random bytes from the kernel's generator where there is one. A new thread's id is made before
 * its first model request, and node:crypto's first load (OpenSSL's start-up, ~5-9 ms) would be paid
 * there for 16 bytes; the bundle loads node:crypto on first use (scripts/build.mjs).
 */
function randomIdBytes(): Buffer {
  if (process.platform !== 'win32') {
    try {
      const fd = openSync('/dev/urandom', 'r');
      try {
        const bytes = Buffer.alloc(16);
        if (readSync(fd, bytes, 0, 16, null) === 16) return bytes;
      } finally {
        closeSync(fd);
      }
    } catch {
      // No /dev/urandom (a minimal chroot): OpenSSL's generator below.
    }
  }
  return randomBytes(16);
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
