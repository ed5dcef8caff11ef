// Terminal cell widths. Widths are summed per code point, the way the terminals rig targets lay
// text out (xterm.js, VTE, tmux, Windows Terminal): East Asian Wide/Fullwidth and emoji take two
// cells, combining marks, joiners and variation selectors none. Clusters matter only for where a
// cursor may stop (see `clusterEnd`). No Intl.Segmenter and no RGI emoji regex: the first costs
// ~25 ms of ICU loading, the second ~40 ms to compile, both paid before the first frame.
import { eastAsianWidth } from 'get-east-asian-width';

const ESC = '\u001b';

/** Zero-width code points: combining marks, format characters (ZWJ, ZWNJ), variation selectors. */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/u;

/** Characters below this are one cell each (after the control check), so ASCII needs no lookup. */
const SIMPLE_LIMIT = 0x0300;

export function codePointWidth(codePoint: number): number {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  if (codePoint < SIMPLE_LIMIT) return codePoint === 0xad ? 0 : 1;
  // Hangul medial vowels and final consonants join the preceding initial.
  if (codePoint >= 0x1160 && codePoint <= 0x11ff) return 0;
  if (codePoint === 0x200b) return 0;
  if (ZERO_WIDTH.test(String.fromCodePoint(codePoint))) return 0;
  return eastAsianWidth(codePoint);
}

/** Visible width of plain text (no escape sequences). */
export function textWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit < 0x7f) {
      width++;
      continue;
    }
    const codePoint = text.codePointAt(i)!;
    if (codePoint > 0xffff) i++;
    width += codePointWidth(codePoint);
  }
  return width;
}

/** Visible width of text that may hold SGR/OSC escape sequences. */
export function visibleWidth(text: string): number {
  return text.includes(ESC) ? textWidth(stripEscapes(text)) : textWidth(text);
}

// CSI ... final byte, OSC ... (BEL | ST), and two-byte escapes.
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

export function stripEscapes(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '');
}

/**
 * The index just past the cluster starting at `index`: the code point, and every zero-width code
 * point after it (combining marks, ZWJ and the emoji it joins, variation selectors, skin tones).
 */
export function clusterEnd(text: string, index: number): number {
  if (index >= text.length) return text.length;
  let end = index + (text.codePointAt(index)! > 0xffff ? 2 : 1);
  for (;;) {
    if (end >= text.length) return end;
    const next = text.codePointAt(end)!;
    const size = next > 0xffff ? 2 : 1;
    if (next === 0x200d) {
      // A joiner glues the following code point into the cluster.
      end += size;
      if (end < text.length) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
      continue;
    }
    // Controls (ESC of an escape sequence, newline) never join a cluster; marks and selectors do.
    if ((next >= 0x1f3fb && next <= 0x1f3ff) || (next >= 0xe0020 && next <= 0xe007f) || (next >= SIMPLE_LIMIT && codePointWidth(next) === 0)) {
      end += size;
      continue;
    }
    return end;
  }
}

/** The index where the cluster that ends at `index` starts. */
export function clusterStart(text: string, index: number): number {
  if (index <= 0) return 0;
  // Walk forward from a safe point: clusters are short, so a small window suffices.
  let start = Math.max(0, index - 32);
  // Do not start inside a surrogate pair.
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start--;
  let previous = start;
  let at = start;
  while (at < index) {
    previous = at;
    at = clusterEnd(text, at);
  }
  return previous;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Width of the cluster text[start, end). */
export function clusterWidth(text: string, start: number, end: number): number {
  return textWidth(text.slice(start, end));
}

/** The longest prefix of plain `text` that fits in `columns` cells, never splitting a cluster. */
export function fitPrefix(text: string, columns: number): { text: string; width: number } {
  let width = 0;
  let at = 0;
  while (at < text.length) {
    const end = clusterEnd(text, at);
    const w = clusterWidth(text, at, end);
    if (width + w > columns) break;
    width += w;
    at = end;
  }
  return { text: text.slice(0, at), width };
}

/** Plain `text` cut to `columns` cells, with an ellipsis when something was cut. */
export function truncate(text: string, columns: number, ellipsis = '…'): string {
  if (columns <= 0) return '';
  if (textWidth(text) <= columns) return text;
  const room = Math.max(0, columns - textWidth(ellipsis));
  return fitPrefix(text, room).text + (room < columns ? ellipsis : '');
}
