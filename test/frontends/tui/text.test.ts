// Cell widths and wrapping: the live region's diff counts one row per line, so a wrapped line
// must never be wider than the screen, whatever the text (CJK, emoji, combining marks, controls).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineWidth, sanitize } from '../../../src/frontends/tui/text/styled.js';
import { clusterEnd, textWidth, visibleWidth } from '../../../src/frontends/tui/text/width.js';
import { overlayCaret, truncateLine, wrap } from '../../../src/frontends/tui/text/wrap.js';

const pieces = fc.constantFrom('a', 'word', ' ', '  ', '日本', '語', '👍', '🚀', 'é', 'e\u0301', '👨‍👩‍👧', '🇫🇷', 'ﾊﾝｶｸ', '한글', 'https://example.com/x/y', '\t', 'x'.repeat(30));
const texts = fc.array(pieces, { maxLength: 40 }).map((parts) => sanitize(parts.join('')));

describe('width', () => {
  it('counts cells the way terminals do', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('日本語')).toBe(6);
    expect(textWidth('👍')).toBe(2);
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('ﾊﾝｶｸ')).toBe(4);
    expect(visibleWidth('\x1b[1;31mred\x1b[0m \x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\')).toBe(8);
  });

  it('keeps a base character, its combining marks and a ZWJ sequence together', () => {
    expect(clusterEnd('e\u0301x', 0)).toBe(2);
    const family = '👨‍👩‍👧';
    expect(clusterEnd(`${family}!`, 0)).toBe(family.length);
    // An escape sequence never joins the character before it.
    expect(clusterEnd(' \x1b[0m', 0)).toBe(1);
  });
});

describe('wrap', () => {
  // Six cells hold the widest cluster here (a ZWJ family counts per code point, as xterm.js does).
  it('live mode: no line is wider than the width, and no visible character is lost', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 6, max: 40 }), (text, width) => {
        const lines = wrap([{ text }], { width, mode: 'live', first: [{ text: '• ' }], rest: [{ text: '  ' }] });
        for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(width);
        const kept = lines.map((line) => line.map((part) => part.text).join('')).join('').replace(/[ •]/g, '');
        expect(kept).toBe(text.replace(/[ •]/g, ''));
      }),
    );
  });

  it('live mode cuts leading indentation wider than the line to the width', () => {
    // The counterexample fast-check found: eight spaces (a tab expanded) on a six-cell line.
    const lines = wrap([{ text: '        ' }], { width: 6, mode: 'live', first: [{ text: '• ' }], rest: [{ text: '  ' }] });
    expect(lines.map(lineWidth)).toEqual([6]);
    const indented = wrap([{ text: '          word' }], { width: 8, mode: 'live' });
    expect(indented.map((line) => line.map((part) => part.text).join(''))).toEqual(['        ', 'word']);
  });

  it('history mode keeps a token longer than the line whole (the terminal wraps it softly)', () => {
    const url = 'https://example.com/a/long/path/that/does/not/fit';
    const lines = wrap([{ text: `see ${url} now` }], { width: 20, mode: 'history' }).map((line) => line.map((part) => part.text).join(''));
    expect(lines).toEqual(['see', url, 'now']);
  });

  it('truncates with an ellipsis inside the width, and places a caret on a wide character', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 6, max: 30 }), (text, width) => {
        expect(lineWidth(truncateLine([{ text }], width))).toBeLessThanOrEqual(width);
      }),
    );
    const caret = overlayCaret([{ text: '日本語' }], 2);
    expect(caret).toEqual([{ text: '日' }, { text: '本', style: { inverse: true } }, { text: '語' }]);
    expect(overlayCaret([{ text: 'ab' }], 2)).toEqual([{ text: 'ab' }, { text: '' }, { text: ' ', style: { inverse: true } }]);
  });

  it('sanitize removes escape sequences and controls, keeps what a carriage return left, expands tabs', () => {
    expect(sanitize('a\x1b[31mb\x1b]0;title\x07c\x07d')).toBe('abcd');
    expect(sanitize('progress 10%\rprogress 100%\nnext')).toBe('progress 100%\nnext');
    expect(sanitize('a\tb')).toBe('a   b');
  });
});
