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
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  if (!patch) return `(diff not shown: too many changes; ${lines(before)} lines before, ${lines(after)} after)`;
  const out: string[] = [];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    out.push(...hunk.lines);
  }
  if (out.length > MAX_DIFF_LINES) {
    const rest = out.length - MAX_DIFF_LINES;
    out.length = MAX_DIFF_LINES;
    out.push(`… ${rest} more diff line${rest === 1 ? '' : 's'}`);
  }
  return out.join('\n');
}
