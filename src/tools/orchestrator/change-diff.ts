// The diff a file_change item carries, so people reading a run (rig exec's output, approval
// prompts) see what changed: unified hunks (`@@ -a,b +c,d @@`, then ` `/`-`/`+` lines) without file
// headers, since the item already names the path. Bounded in work and size: a huge rewrite gets a
// one-line note instead.
import { structuredPatch } from 'diff';
import type { FileEdit } from '../../protocol/index.js';

/** Lines of diff an item keeps; renderers show fewer. */
export const MAX_DIFF_LINES = 400;
/** Past this many characters on both sides together, no line diff is computed. */
const MAX_DIFF_INPUT = 512 * 1024;
/** jsdiff gives up (returns undefined) beyond this many edits rather than run for long. */
const MAX_EDIT_LENGTH = 20_000;
/** Unchanged lines shown around each change. */
const CONTEXT_LINES = 3;
const NEWLINE = 0x0a;

/**
 * The part of two texts a diff has to look at: whole lines from `context` lines before the first
 * difference to `context` lines after the last, and the number of lines before it. A model's edit
 * touches a few lines of a file; jsdiff tokenizes and compares every line it is given (~0.4 ms for
 * 64 lines, milliseconds for thousands), so the unchanged head and tail are cut off first. The
 * hunks are the same as over the whole texts: the lines cut off are equal on both sides, and the
 * hunks' context never reaches past the lines kept.
 */
export function changedRegion(before: string, after: string, context: number): { before: string; after: string; firstLine: number } {
  const limit = Math.min(before.length, after.length);
  let head = 0;
  while (head < limit && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  // Back to the start of the line the first difference is on, then `context` lines further.
  head = lineStart(before, head);
  for (let line = 0; line < context && head > 0; line++) head = lineStart(before, head - 1);
  // The common tail, in whole lines of both texts, not overlapping the head.
  let tail = 0;
  while (tail < limit - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  while (tail > 0 && !(startsLine(before, before.length - tail) && startsLine(after, after.length - tail))) tail--;
  for (let line = 0; line < context && tail > 0; line++) {
    const end = before.indexOf('\n', before.length - tail);
    tail = end < 0 ? 0 : before.length - end - 1;
  }
  let firstLine = 0;
  for (let at = before.indexOf('\n'); at >= 0 && at < head; at = before.indexOf('\n', at + 1)) firstLine++;
  return { before: before.slice(head, before.length - tail), after: after.slice(head, after.length - tail), firstLine };
}

/** Where the line holding index `at` starts. */
function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
}

function startsLine(text: string, at: number): boolean {
  return at === 0 || text.charCodeAt(at - 1) === NEWLINE;
}

/**
 * `before` is what the file held (default: the content the edit was computed against, which an
 * edit tool that overwrites without reading does not know; then there is no diff).
 */
export function changeDiff(edit: FileEdit, before: string | undefined = edit.kind === 'add' ? '' : edit.expectedContent): string | undefined {
  const after = edit.kind === 'delete' ? '' : edit.content;
  if (before === undefined || after === undefined) return undefined;
  if (before === after) return edit.moveTo ? '(moved, content unchanged)' : undefined;
  const lines = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
  if (before.length + after.length > MAX_DIFF_INPUT) return `(diff not shown: ${lines(before)} lines before, ${lines(after)} after)`;
  const region = changedRegion(before, after, CONTEXT_LINES);
  const patch = structuredPatch('a', 'b', region.before, region.after, undefined, undefined, { context: CONTEXT_LINES, maxEditLength: MAX_EDIT_LENGTH });
  if (!patch) return `(diff not shown: too many changes; ${lines(before)} lines before, ${lines(after)} after)`;
  const out: string[] = [];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart + region.firstLine},${hunk.oldLines} +${hunk.newStart + region.firstLine},${hunk.newLines} @@`);
    out.push(...hunk.lines);
  }
  if (out.length > MAX_DIFF_LINES) {
    const rest = out.length - MAX_DIFF_LINES;
    out.length = MAX_DIFF_LINES;
    out.push(`… ${rest} more diff line${rest === 1 ? '' : 's'}`);
  }
  return out.join('\n');
}
