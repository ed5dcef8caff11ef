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
    const started = performance.now();
    let cursor = 0;
    for (let i = 100; i < 20_000; i += 200) {
      // Trailing whitespace differs, so every seek needs the second pass.
      cursor = seekSequence(index, [`line ${i}`, `line ${i + 1}`], cursor, false);
      expect(cursor).toBe(i);
    }
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('normalises typographic dashes, quotes and spaces', () => {
    expect(normalisePunctuation('\u2010\u2011\u2012\u2013\u2014\u2015\u2212')).toBe('-------');
    expect(normalisePunctuation('\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F')).toBe('\'\'\'\'""""');
    expect(normalisePunctuation('\u00A0\u2002\u2009\u200A\u202F\u205F\u3000')).toBe('       ');
  });
});
