// Word wrapping of styled lines. Two modes:
// - 'live': every output line fits the width (the live region's diff counts one row per line);
//   a word longer than a line is cut at cluster boundaries.
// - 'history': words break at spaces, but a token longer than a line (a URL, a path, a hash) is
//   printed whole on its own line and the terminal wraps it softly, so selecting it copies it intact.
import { clusterEnd, clusterWidth, textWidth } from './width.js';
import { lineWidth, type Line, type Span } from './styled.js';

export type WrapMode = 'live' | 'history';

export interface WrapOptions {
  width: number;
  mode: WrapMode;
  /** Printed before the first line (a bullet, a gutter). */
  first?: Line;
  /** Printed before every following line (a hanging indent). */
  rest?: Line;
}

interface Token {
  parts: Span[];
  width: number;
  space: boolean;
}

function tokenize(line: Line): Token[] {
  const tokens: Token[] = [];
  for (const part of line) {
    for (const piece of part.text.split(/( +)/)) {
      if (piece === '') continue;
      const space = piece.charCodeAt(0) === 0x20;
      const width = textWidth(piece);
      const last = tokens[tokens.length - 1];
      const spanPiece: Span = part.style ? { text: piece, style: part.style } : { text: piece };
      // A word made of several styled spans ("**bold**tail") stays one token.
      if (last && last.space === space) {
        last.parts.push(spanPiece);
        last.width += width;
      } else {
        tokens.push({ parts: [spanPiece], width, space });
      }
    }
  }
  return tokens;
}

/** Splits styled parts after `columns` cells; `force` takes one cluster even if it does not fit. */
function splitParts(parts: Span[], columns: number, force = true): [Span[], Span[], number] {
  const head: Span[] = [];
  let used = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    let at = 0;
    while (at < part.text.length) {
      const end = clusterEnd(part.text, at);
      const w = clusterWidth(part.text, at, end);
      if (used + w > columns && (used > 0 || at > 0 || !force)) {
        if (at > 0) head.push(withText(part, part.text.slice(0, at)));
        const tail = [withText(part, part.text.slice(at)), ...parts.slice(p + 1)];
        return [head, tail, used];
      }
      used += w;
      at = end;
    }
    head.push(part);
  }
  return [head, [], used];
}

function withText(part: Span, text: string): Span {
  return part.style ? { text, style: part.style } : { text };
}

export function wrap(line: Line, options: WrapOptions): Line[] {
  const width = Math.max(1, options.width);
  let first = options.first ?? [];
  let rest = options.rest ?? [];
  // On a very narrow terminal the prefixes go before the text does.
  if (lineWidth(first) >= width) first = [];
  if (lineWidth(rest) >= width) rest = [];
  const restWidth = lineWidth(rest);

  const out: Line[] = [];
  let current: Span[] = [...first];
  let currentWidth = lineWidth(first);
  let hasWord = false;
  let pendingSpace: Token | undefined;

  const newLine = () => {
    out.push(current);
    current = [...rest];
    currentWidth = restWidth;
    hasWord = false;
    pendingSpace = undefined;
  };

  for (const token of tokenize(line)) {
    if (token.space) {
      if (hasWord) pendingSpace = token;
      else {
        // Indentation at the start of the text is kept (code, nested lists); in live mode only as
        // much of it as fits, since every line must fit the width.
        if (out.length === 0) {
          const [kept, , used] = options.mode === 'live' ? splitParts(token.parts, Math.max(0, width - currentWidth), false) : [token.parts, [], token.width];
          current.push(...kept);
          currentWidth += used;
        }
      }
      continue;
    }
    const spaceWidth = pendingSpace?.width ?? 0;
    if (currentWidth + spaceWidth + token.width <= width) {
      if (pendingSpace) current.push(...pendingSpace.parts);
      current.push(...token.parts);
      currentWidth += spaceWidth + token.width;
      hasWord = true;
      pendingSpace = undefined;
      continue;
    }
    if (token.width <= width - restWidth) {
      newLine();
      current.push(...token.parts);
      currentWidth += token.width;
      hasWord = true;
      continue;
    }
    // The token is longer than any line.
    if (options.mode === 'history') {
      if (hasWord) newLine();
      current.push(...token.parts);
      currentWidth += token.width;
      hasWord = true;
      newLine();
      continue;
    }
    let remaining = token.parts;
    if (hasWord && width - currentWidth - spaceWidth >= 2) {
      if (pendingSpace) {
        current.push(...pendingSpace.parts);
        currentWidth += spaceWidth;
      }
    } else if (hasWord) {
      newLine();
    }
    while (remaining.length > 0) {
      // Only an empty line takes a cluster that does not fit (a wide one at width 1).
      const [head, tail, used] = splitParts(remaining, width - currentWidth, currentWidth === 0);
      if (head.length === 0) {
        newLine();
        // A hanging indent that leaves no room for the next character goes.
        if (restWidth > 0 && lineWidth(remaining.slice(0, 1)) > 0 && splitParts(remaining, width - restWidth, false)[0].length === 0) {
          current = [];
          currentWidth = 0;
        }
        continue;
      }
      current.push(...head);
      currentWidth += used;
      hasWord = true;
      remaining = tail;
      if (remaining.length > 0) newLine();
    }
    pendingSpace = undefined;
  }
  // After a history-mode overflow the fresh line holds only the prefix: nothing to print.
  if (hasWord || out.length === 0) out.push(current);
  return out;
}

/** Cuts a styled line to `columns` cells, adding an ellipsis when something was cut. */
export function truncateLine(line: Line, columns: number): Line {
  if (lineWidth(line) <= columns) return line;
  if (columns <= 0) return [];
  const [head] = splitParts(line, columns - 1);
  // splitParts always takes one cluster; a wide one may not leave room for the ellipsis.
  while (lineWidth(head) > columns - 1 && head.length > 0) {
    const last = head.pop()!;
    const shorter = last.text.slice(0, -1);
    if (shorter !== '') head.push(withText(last, shorter));
  }
  // No space before the ellipsis: "run it…", not "run it …".
  while (head.length > 0 && /\s$/.test(head[head.length - 1]!.text)) {
    const last = head.pop()!;
    const trimmed = last.text.trimEnd();
    if (trimmed !== '') {
      head.push(withText(last, trimmed));
      break;
    }
  }
  return [...head, { text: '…', style: { dim: true } }];
}

/**
 * The caret drawn into a line: the cluster at cell `col` in inverse video (a space past the end).
 * The hardware cursor is not used for it: it stays parked on the live region's last row, the one
 * place every terminal keeps it consistently when it reflows on a resize.
 */
export function overlayCaret(line: Line, col: number): Line {
  const out: Span[] = [];
  let at = 0;
  let placed = false;
  for (const part of line) {
    if (placed) {
      out.push(part);
      continue;
    }
    let index = 0;
    while (index < part.text.length) {
      const end = clusterEnd(part.text, index);
      const width = clusterWidth(part.text, index, end);
      if (at === col || (at < col && at + width > col)) {
        if (index > 0) out.push(withText(part, part.text.slice(0, index)));
        out.push({ text: part.text.slice(index, end), style: { ...part.style, inverse: !part.style?.inverse } });
        if (end < part.text.length) out.push(withText(part, part.text.slice(end)));
        placed = true;
        break;
      }
      at += width;
      index = end;
    }
    if (!placed) out.push(part);
  }
  if (!placed) out.push({ text: ' '.repeat(Math.max(0, col - at)) }, { text: ' ', style: { inverse: true } });
  return out;
}
