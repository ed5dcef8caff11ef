// Unified diffs, coloured, with a gutter of line numbers (old numbers on removed lines, new on
// the rest). File headers are left out: the file change item prints its own.
import type { Line } from '../text/styled.js';
import { truncateLine, type WrapMode } from '../text/wrap.js';
import { sanitize } from '../text/styled.js';
import { theme } from './theme.js';

export interface DiffStats {
  added: number;
  removed: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;
const HEADER = /^(diff |index |--- |\+\+\+ |new file mode|deleted file mode|similarity index|rename (from|to) |old mode|new mode)/;

export function diffStats(diff: string): DiffStats {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

export function renderDiff(diff: string, context: { width: number; mode: WrapMode }): Line[] {
  const source = sanitize(diff).split('\n');
  if (source[source.length - 1] === '') source.pop();
  let oldLine = 0;
  let newLine = 0;
  let maxLine = 1;
  for (const line of source) {
    const hunk = HUNK.exec(line);
    if (hunk) maxLine = Math.max(maxLine, Number(hunk[1]), Number(hunk[2]));
  }
  // Line numbers grow within a hunk: leave room for a few more digits' worth.
  const gutter = String(maxLine + source.length).length;
  const number = (value: number) => ({ text: `${String(value).padStart(gutter)} `, style: theme.gutter });
  const blank = { text: `${' '.repeat(gutter)} `, style: theme.gutter };

  const out: Line[] = [];
  let hunks = 0;
  for (const line of source) {
    if (HEADER.test(line)) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      if (hunks++ > 0) out.push([blank, { text: '⋮', style: theme.hunk }]);
      continue;
    }
    if (line.startsWith('+')) out.push([number(newLine++), { text: line, style: theme.added }]);
    else if (line.startsWith('-')) out.push([number(oldLine++), { text: line, style: theme.removed }]);
    else if (line.startsWith('\\')) out.push([blank, { text: line, style: theme.dim }]);
    else {
      out.push(line === '' || line === ' ' ? [{ text: String(newLine++).padStart(gutter), style: theme.gutter }] : [number(newLine++), { text: line }]);
      oldLine++;
    }
  }
  return context.mode === 'live' ? out.map((line) => truncateLine(line, context.width)) : out;
}
