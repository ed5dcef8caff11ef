// The diff a file_change item carries is computed over the changed region only (the unchanged
// head and tail cut off first); it must be the diff of the whole texts, hunk for hunk.
import { applyPatch, structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { changedRegion, changeDiff } from '../../../src/tools/orchestrator/change-diff.js';
import type { FileEdit } from '../../../src/protocol/index.js';

/** The same formatting as changeDiff, over the whole texts (what it computed before the cut). */
function wholeDiff(before: string, after: string): string {
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 3 });
  return patch.hunks.flatMap((hunk) => [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines]).join('\n');
}

const update = (before: string, after: string): FileEdit => ({ path: 'f.txt', kind: 'update', expectedContent: before, content: after }) as FileEdit;
const numbered = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}\n`).join('');

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** `lines` with a few edits: lines replaced, inserted, deleted, in one place or several. */
function edited(lines: string[], next: () => number, fresh: () => string): string[] {
  const out = [...lines];
  const edits = 1 + Math.floor(next() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * (out.length + 1));
    const what = next();
    if (what < 0.34 && out.length > 0) out.splice(Math.min(at, out.length - 1), 1 + Math.floor(next() * 3));
    else if (what < 0.67) out.splice(at, 0, ...Array.from({ length: 1 + Math.floor(next() * 3) }, fresh));
    else if (out.length > 0) out.splice(Math.min(at, out.length - 1), 1, fresh());
  }
  return out;
}

describe('the diff of a file change', () => {
  const cases: [string, string, string][] = [
    ['a change in the middle', numbered(40), numbered(40).replace('line 20\n', 'line 20 edited\n')],
    ['a change on the first line', numbered(40), numbered(40).replace('line 1\n', 'first\n')],
    ['a change on the last line', numbered(40), numbered(40).replace('line 40\n', 'last\n')],
    ['two changes far apart (two hunks)', numbered(60), numbered(60).replace('line 5\n', 'five\n').replace('line 50\n', 'fifty\n')],
    ['two changes close together (one hunk)', numbered(60), numbered(60).replace('line 20\n', 'twenty\n').replace('line 25\n', 'twenty-five\n')],
    ['lines inserted at the start', numbered(10), `new 1\nnew 2\n${numbered(10)}`],
    ['lines appended', numbered(10), `${numbered(10)}new 1\n`],
    ['lines deleted at the end', numbered(10), numbered(7)],
    ['the last line loses its newline', numbered(10), numbered(10).slice(0, -1)],
    ['the last line gains a newline', numbered(10).slice(0, -1), numbered(10)],
    ['a change near an end without a newline', numbered(10).slice(0, -1), numbered(10).replace('line 9\n', 'nine\n').slice(0, -1)],
    ['an empty first line that changes', `\n${numbered(8)}`, `x\n${numbered(8)}`],
    ['the file was empty', '', numbered(5)],
    ['the file is emptied', numbered(5), ''],
    ['Windows line ends', numbered(20).replace(/\n/g, '\r\n'), numbered(20).replace(/\n/g, '\r\n').replace('line 10\r\n', 'ten\r\n')],
    ['a line only partly changed (common characters across the cut)', 'alpha\nbeta\ngamma\n', 'alpha\nbetamax\ngamma\n'],
    ['a change inside a long common prefix of characters', 'same\nsame start, different end one\nsame\n', 'same\nsame start, different end two\nsame\n'],
  ];

  it.each(cases)('%s: the same hunks as over the whole file', (_, before, after) => {
    expect(changeDiff(update(before, after))).toBe(wholeDiff(before, after));
  });

  it('is the same as over the whole file for random edits of distinct lines', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      let counter = 0;
      const lines = numbered(1 + Math.floor(next() * 80)).split(/(?<=\n)/);
      const after = edited(lines, next, () => `fresh ${seed}.${counter++}\n`);
      const before = lines.join('');
      const text = next() < 0.2 ? after.join('').replace(/\n$/, '') : after.join('');
      if (text === before) continue;
      expect({ seed, diff: changeDiff(update(before, text)) }).toEqual({ seed, diff: wholeDiff(before, text) });
    }
  });

  it('where equal lines repeat, the diff still turns the old text into the new one', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const pick = () => `${'abc'[Math.floor(next() * 3)]}\n`;
      const lines = Array.from({ length: 1 + Math.floor(next() * 30) }, pick);
      const before = lines.join('');
      const after = edited(lines, next, pick).join('');
      if (before === after) continue;
      const diff = changeDiff(update(before, after))!;
      const patch = `--- a\n+++ b\n${diff}\n`;
      expect({ seed, applied: applyPatch(before, patch) }).toEqual({ seed, applied: after });
    }
  });

  it('looks only at the changed lines and their context', () => {
    const before = numbered(10_000);
    const after = before.replace('line 5000\n', 'line 5000 edited\n');
    const region = changedRegion(before, after, 3);
    expect(region.firstLine).toBe(4996);
    expect(region.before).toBe(numbered(7, 4997));
    expect(region.after).toBe(numbered(7, 4997).replace('line 5000\n', 'line 5000 edited\n'));
    expect(changeDiff(update(before, after))).toBe(wholeDiff(before, after));
  });
});
