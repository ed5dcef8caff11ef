// Where the composer's text goes on screen: logical lines broken into rows of at most `width`
// cells (at cluster boundaries), and the mapping between a text index and a (row, column), which
// cursor movement and the hardware cursor both need.
import { clusterEnd, textWidth } from '../text/width.js';

export interface ComposerRow {
  /** Text indices [start, end) shown on this row (a newline belongs to no row). */
  start: number;
  end: number;
  /** Whether the row ends its logical line (the next row starts after a newline, or none). */
  lineEnd: boolean;
}

export type ClusterWidth = (text: string, start: number, end: number) => number;

export const plainClusterWidth: ClusterWidth = (text, start, end) => textWidth(text.slice(start, end));

export function layoutRows(text: string, width: number, widthOf: ClusterWidth = plainClusterWidth): ComposerRow[] {
  const rows: ComposerRow[] = [];
  const room = Math.max(1, width);
  let start = 0;
  let used = 0;
  let at = 0;
  while (at < text.length) {
    if (text.charCodeAt(at) === 10) {
      rows.push({ start, end: at, lineEnd: true });
      at++;
      start = at;
      used = 0;
      continue;
    }
    const end = clusterEnd(text, at);
    const w = widthOf(text, at, end);
    if (used + w > room && at > start) {
      rows.push({ start, end: at, lineEnd: false });
      start = at;
      used = 0;
    }
    used += w;
    at = end;
  }
  rows.push({ start, end: text.length, lineEnd: true });
  return rows;
}

/** The row and column of text index `index`. */
export function locate(text: string, rows: readonly ComposerRow[], index: number, widthOf: ClusterWidth = plainClusterWidth): { row: number; col: number } {
  for (let row = 0; row < rows.length; row++) {
    const current = rows[row]!;
    // At a soft break the cursor shows at the start of the next row.
    const inside = index < current.end || (index === current.end && (current.lineEnd || row === rows.length - 1));
    if (index >= current.start && inside) return { row, col: widthBetween(text, current.start, index, widthOf) };
  }
  const last = rows.length - 1;
  return { row: last, col: widthBetween(text, rows[last]!.start, rows[last]!.end, widthOf) };
}

/** The text index on `row` closest to column `col` (never past the row's end). */
export function indexAt(text: string, rows: readonly ComposerRow[], row: number, col: number, widthOf: ClusterWidth = plainClusterWidth): number {
  const target = rows[Math.max(0, Math.min(row, rows.length - 1))]!;
  let at = target.start;
  let used = 0;
  while (at < target.end) {
    const end = clusterEnd(text, at);
    const w = widthOf(text, at, end);
    if (used + w > col) break;
    used += w;
    at = end;
  }
  // The end of a soft-wrapped row is the start of the next one: stop one cluster short.
  if (at === target.end && !target.lineEnd && at > target.start) {
    let previous = target.start;
    for (let scan = target.start; scan < target.end; scan = clusterEnd(text, scan)) previous = scan;
    return previous;
  }
  return at;
}

function widthBetween(text: string, start: number, end: number, widthOf: ClusterWidth): number {
  let width = 0;
  for (let at = start; at < end; ) {
    const next = clusterEnd(text, at);
    width += widthOf(text, at, next);
    at = next;
  }
  return width;
}
