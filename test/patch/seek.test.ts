import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex, normalisePunctuation, seekSequence } from '../../src/patch/seek.js';

describe('seekSequence', () => {
  const lines = ['alpha', 'beta  ', '  gamma  ', 'delta', 'alpha', 'beta'];

  it('prefers an exact match over an earlier lenient one', () => {
    // Line 1 matches `beta` only after trimming; line 5 matches exactly and wins.
    expect(seekSequence(lines, ['alpha', 'beta'], 0, false)).toBe(4);
  });

  it('falls back to trailing-whitespace, then full trim, then punctuation normalisation', () => {
    expect(seekSequence(['x', 'beta  '], ['beta'], 0, false)).toBe(1);
    expect(seekSequence(lines, ['gamma'], 0, false)).toBe(2);
    expect(seekSequence(['const s = "it\u2019s \u2014 ok";'], ['const s = "it\'s - ok";'], 0, false)).toBe(0);
    expect(seekSequence(['a\u00A0b \u201Cq\u201D'], ['a b "q"'], 0, false)).toBe(0);
    expect(seekSequence(['abc'], ['abd'], 0, false)).toBe(-1);
  });

  it('starts at the cursor', () => {
    expect(seekSequence(lines, ['alpha'], 1, false)).toBe(4);
    expect(seekSequence(lines, ['alpha'], 5, false)).toBe(-1);
  });

  it('handles empty and too-long patterns', () => {
    expect(seekSequence(lines, [], 3, false)).toBe(3);
    expect(seekSequence(['a'], ['a', 'b'], 0, false)).toBe(-1);
  });

  it('anchors end-of-file patterns at the end, never before the cursor', () => {
    expect(seekSequence(lines, ['beta'], 0, true)).toBe(5);
    expect(seekSequence(lines, ['alpha'], 0, true)).toBe(-1);
    expect(seekSequence(['a', 'b'], ['a', 'b'], 1, true)).toBe(-1);
  });

  it('reuses one index across many seeks on a large file quickly', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}  `);
    const index = new LineIndex(big);
    const started = process.cpuUsage();
    let cursor = 0;
    for (let i = 100; i < 20_000; i += 200) {
      // Trailing whitespace differs, so every seek needs the second pass.
      cursor = seekSequence(index, [`line ${i}`, `line ${i + 1}`], cursor, false);
      expect(cursor).toBe(i);
    }
    expect(process.cpuUsage(started).user / 1000).toBeLessThan(250);
  });

  it('finds far matches through the lookup table, still the earliest one', () => {
    const lines = [...Array.from({ length: 1000 }, () => 'x'), 'a', 'b', ...Array.from({ length: 499 }, () => 'x'), 'a', 'b'];
    expect(seekSequence(lines, ['x', 'a', 'b'], 0, false)).toBe(999);
    expect(seekSequence(lines, ['x', 'a', 'b'], 1000, false)).toBe(1500);
    expect(seekSequence(lines, ['a ', 'b'], 0, false)).toBe(1000);
  });

  it('agrees with a naive four-pass search', () => {
    const naive = (lines: string[], pattern: string[], start: number, eof: boolean): number => {
      if (pattern.length === 0) return start;
      if (pattern.length > lines.length) return -1;
      const from = eof ? Math.max(lines.length - pattern.length, start) : start;
      const passes = [(s: string) => s, (s: string) => s.trimEnd(), (s: string) => s.trim(), (s: string) => normalisePunctuation(s.trim())];
      for (const f of passes) {
        for (let i = from; i + pattern.length <= lines.length; i++) {
          if (pattern.every((p, j) => f(lines[i + j] as string) === f(p))) return i;
        }
      }
      return -1;
    };
    const text = fc.array(fc.constantFrom('a', 'b', ' ', '\u2014', '-', '\u00A0'), { maxLength: 3 }).map((c) => c.join(''));
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 1200 }),
        fc.array(text, { maxLength: 3 }),
        fc.nat(1300),
        fc.boolean(),
        (lines, pattern, start, eof) => {
          expect(seekSequence(lines, pattern, start, eof)).toBe(naive(lines, pattern, start, eof));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('normalises typographic dashes, quotes and spaces', () => {
    expect(normalisePunctuation('\u2010\u2011\u2012\u2013\u2014\u2015\u2212')).toBe('-------');
    expect(normalisePunctuation('\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F')).toBe('\'\'\'\'""""');
    expect(normalisePunctuation('\u00A0\u2002\u2009\u200A\u202F\u205F\u3000')).toBe('       ');
  });
});
