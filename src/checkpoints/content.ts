// Comparing file states: the stat signature that says "maybe changed" cheaply, and the content
// comparison that decides.
import type fs from 'node:fs';
import type { FileChange, FileContent } from './model.js';

/** Size, modification time (ns), inode and mode: any write changes at least one of them. */
export function sigOf(st: fs.BigIntStats): string {
  return `${st.size}:${st.mtimeNs}:${st.ino}:${st.mode}`;
}

/** Same kind and bytes (and mode), or the same symlink target, or both absent. */
export function sameContent(a: FileContent, b: FileContent): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.mode === b.mode && a.data.equals(b.data);
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target;
  return a.kind === 'absent';
}

/**
 * The content with bytes of its own. Node hands out small reads and encodings (under 4 kB) as
 * slices of a shared 8 kB pool, and a slice kept for a turn keeps its whole pool alive: on the
 * soak bench each add-file step pinned a pool for its ~20 bytes of file, ~3.4 kB of private memory
 * per step over a long turn. Large reads have buffers of their own and are kept as they are.
 */
export function ownedContent(content: FileContent): FileContent {
  if (content.kind !== 'file' || content.data.byteLength === content.data.buffer.byteLength) return content;
  const data = Buffer.allocUnsafeSlow(content.data.byteLength);
  content.data.copy(data);
  return { ...content, data };
}

/** One change per path (first before, last after); paths that ended as they began dropped. */
export function dedupe(changes: FileChange[]): FileChange[] {
  const byPath = new Map<string, FileChange>();
  for (const c of changes) {
    const prev = byPath.get(c.path);
    byPath.set(c.path, prev ? { path: c.path, before: prev.before, after: c.after } : c);
  }
  return [...byPath.values()].filter((c) => !sameContent(c.before, c.after));
}
