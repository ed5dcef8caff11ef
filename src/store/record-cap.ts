// A cap on what one rollout record holds. The reader decodes one line at a time, and V8 cannot
// hold a string over ~512 MiB: a single huge line (a 600 MB command output) made the whole thread
// unreadable. Records are capped when written: the longest strings in the payload are cut in the
// middle, with a marker saying how much was left out, until the line fits.

export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** Marker left where a string was cut; the reader and the model see it as part of the text. */
export function truncationMarker(removedChars: number): string {
  return `\n…[${removedChars} characters left out of this rollout record by rig: records are capped at ${MAX_RECORD_BYTES / (1024 * 1024)} MiB]…\n`;
}

interface Leaf {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  length: number;
}

function stringLeaves(value: unknown, out: Leaf[], depth = 0): void {
  if (depth > 200 || value === null || typeof value !== 'object') return;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    if (typeof child === 'string') out.push({ holder: value as Record<string, unknown>, key, length: child.length });
    else stringLeaves(child, out, depth + 1);
  }
}

/**
 * A copy of `payload` whose serialized form is at most about `maxBytes`, or the payload itself when
 * it already fits. `serializedBytes` is the size it has now (Infinity when it could not be serialized).
 */
export function capPayload<T>(payload: T, serializedBytes: number, maxBytes: number = MAX_RECORD_BYTES): T {
  if (serializedBytes <= maxBytes) return payload;
  const copy = structuredClone(payload) as T;
  const leaves: Leaf[] = [];
  stringLeaves(copy, leaves);
  leaves.sort((a, b) => b.length - a.length);
  // Worst case 4 UTF-8 bytes per character (JSON escapes aside): budget in characters, generously.
  const totalChars = leaves.reduce((sum, leaf) => sum + leaf.length, 0);
  let excess = Number.isFinite(serializedBytes) ? serializedBytes - maxBytes : totalChars * 4 - maxBytes;
  const keepPerString = 64 * 1024;
  for (const leaf of leaves) {
    if (excess <= 0) break;
    const text = (leaf.holder as Record<string | number, string>)[leaf.key] as string;
    if (text.length <= keepPerString) break;
    // Bytes of this string are between length and 4*length; cut by characters, conservatively.
    const cutChars = Math.min(text.length - keepPerString, Math.max(Math.ceil(excess), 0) + 1024);
    const head = Math.floor((text.length - cutChars) / 2);
    const tail = text.length - cutChars - head;
    (leaf.holder as Record<string | number, string>)[leaf.key] = text.slice(0, head) + truncationMarker(cutChars) + text.slice(text.length - tail);
    excess -= cutChars;
  }
  return copy;
}
