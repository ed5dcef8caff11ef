import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approxTokenCount,
  byteBudget,
  countLines,
  formattedTruncateText,
  tokenBudget,
  truncateMiddleChars,
  truncateMiddleTokens,
  truncateText,
} from '../../src/exec/truncate.js';

describe('token estimate', () => {
  it('is ceil(utf8 bytes / 4)', () => {
    expect(approxTokenCount('')).toBe(0);
    expect(approxTokenCount('abcd')).toBe(1);
    expect(approxTokenCount('abcde')).toBe(2);
    expect(approxTokenCount('éé')).toBe(1); // 4 bytes
    expect(byteBudget({ mode: 'tokens', limit: 10 })).toBe(40);
    expect(byteBudget({ mode: 'bytes', limit: 10 })).toBe(10);
    expect(tokenBudget({ mode: 'bytes', limit: 10 })).toBe(3);
  });

  it('counts lines like Rust str::lines', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\n\nb')).toBe(3);
    expect(countLines('\n')).toBe(1);
  });
});

describe('middle truncation', () => {
  it('marks removed characters', () => {
    expect(truncateMiddleChars('abcdefghij', 4)).toBe('ab…6 chars truncated…ij');
    expect(truncateMiddleChars('abcdefghij', 5)).toBe('ab…5 chars truncated…hij');
    expect(truncateMiddleChars('short', 10)).toBe('short');
    expect(truncateMiddleChars('abc', 0)).toBe('…3 chars truncated…');
  });

  it('marks removed tokens as ceil(removed bytes / 4)', () => {
    expect(truncateMiddleTokens('a'.repeat(100), 10)).toBe(`${'a'.repeat(20)}…15 tokens truncated…${'a'.repeat(20)}`);
    expect(truncateMiddleTokens('a'.repeat(40), 10)).toBe('a'.repeat(40));
    expect(truncateMiddleTokens('abc', 0)).toBe('…1 tokens truncated…');
    expect(truncateText('a'.repeat(100), { mode: 'tokens', limit: 10 })).toContain('…15 tokens truncated…');
    expect(truncateText('a'.repeat(100), { mode: 'bytes', limit: 10 })).toBe('aaaaa…90 chars truncated…aaaaa');
  });

  it('cuts on UTF-8 character boundaries', () => {
    // Each é is two bytes: the prefix keeps one (2 of 2 bytes), the suffix starts at the next whole char.
    expect(truncateMiddleChars('ééééé', 5)).toBe('é…3 chars truncated…é');
    // 4-byte characters: neither 3-byte half can hold one whole, so all three are removed.
    expect(truncateMiddleChars('😀😀😀', 6)).toBe('…3 chars truncated…');
    expect(truncateMiddleChars('😀😀😀', 8)).toBe('😀…1 chars truncated…😀');
  });

  it('never splits a character and keeps at most the byte budget', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀'), maxLength: 60 }),
        fc.integer({ min: 1, max: 120 }),
        (text, max) => {
        const out = truncateMiddleChars(text, max);
        if (Buffer.byteLength(text) <= max) {
          expect(out).toBe(text);
          return;
        }
        const match = /…(\d+) chars truncated…/.exec(out);
        expect(match).not.toBeNull();
        const kept = out.replace(match![0], '');
        expect(out).not.toContain('\uFFFD');
        expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(max);
        expect([...kept].length + Number(match![1])).toBe([...text].length);
        expect(text.startsWith(out.slice(0, match!.index))).toBe(true);
        expect(text.endsWith(out.slice(match!.index + match![0].length))).toBe(true);
        },
      ),
    );
  });
});

describe('formattedTruncateText', () => {
  it('returns short text unchanged', () => {
    expect(formattedTruncateText('hello\n', { mode: 'tokens', limit: 10 })).toBe('hello\n');
  });

  it('prefixes the warning header when over budget', () => {
    const text = Array.from({ length: 30 }, (_, i) => `line${i}`).join('\n');
    const out = formattedTruncateText(text, { mode: 'tokens', limit: 5 });
    const tokens = Math.ceil(Buffer.byteLength(text) / 4);
    expect(out).toBe(
      `Warning: truncated output (original token count: ${tokens})\nTotal output lines: 30\n\n` +
        `line0\nline…${Math.ceil((Buffer.byteLength(text) - 20) / 4)} tokens truncated…e28\nline29`,
    );
  });
});
