// The composer as rows of the live region, with the caret position; its completion popup; and the
// reverse-search line.
import type { Composer, Popup } from '../input/composer.js';
import { isTokenChar } from '../input/tokens.js';
import type { Line, Span } from '../text/styled.js';
import { clusterEnd, textWidth, truncate } from '../text/width.js';
import { truncateLine } from '../text/wrap.js';
import { theme } from './theme.js';

export interface ComposerView {
  lines: Line[];
  cursor: { row: number; col: number };
}

const PROMPT = '› ';
const PLACEHOLDER = 'Ask rig anything · / commands · @ files · Shift+Enter newline';

export function renderComposer(composer: Composer, width: number, maxRows: number, placeholder = PLACEHOLDER): ComposerView {
  const prompt: Span = { text: PROMPT, style: theme.user };
  if (composer.search) {
    const search = composer.search;
    const label = `search history: ${search.query}`;
    const found = search.match ? search.match.text.split('\n')[0]! : search.query === '' ? '' : '(no match)';
    const head = truncate(label, Math.max(1, width - 1));
    const line: Line = [{ text: head, style: theme.accent }, ...(found !== '' ? [{ text: '  ' }, { text: found, style: search.match ? theme.bold : theme.dim }] : [])];
    return { lines: [truncateLine(line, width)], cursor: { row: 0, col: Math.min(textWidth(head), width - 1) } };
  }
  const room = Math.max(1, width - PROMPT.length);
  if (composer.isEmpty) {
    return { lines: [[prompt, { text: truncate(placeholder, room), style: theme.dim }]], cursor: { row: 0, col: PROMPT.length } };
  }
  const text = composer.text;
  const rows = composer.rows(room);
  const caret = composer.cursorAt(room);
  const visible = Math.max(1, maxRows);
  const first = Math.min(Math.max(0, caret.row - visible + 1), Math.max(0, rows.length - visible));
  const lines: Line[] = [];
  for (let index = first; index < Math.min(rows.length, first + visible); index++) {
    const row = rows[index]!;
    const spans: Span[] = [index === 0 ? prompt : { text: index === first && first > 0 ? '↑ ' : '  ', style: theme.dim }];
    let plain = '';
    for (let at = row.start; at < row.end; ) {
      const end = clusterEnd(text, at);
      const cluster = text.slice(at, end);
      if (isTokenChar(cluster)) {
        if (plain !== '') spans.push({ text: plain });
        plain = '';
        spans.push({ text: composer.tokens.label(cluster) ?? '', style: theme.token });
      } else {
        plain += cluster;
      }
      at = end;
    }
    if (plain !== '') spans.push({ text: plain });
    lines.push(truncateLine(spans, width));
  }
  return { lines, cursor: { row: caret.row - first, col: Math.min(PROMPT.length + caret.col, width - 1) } };
}

export function renderPopup(popup: Popup, width: number, maxRows: number): Line[] {
  if (popup.loading) return [[{ text: '  reading the file list…', style: theme.dim }]];
  const rows = Math.max(1, maxRows);
  const start = Math.min(Math.max(0, popup.selected - rows + 1), Math.max(0, popup.items.length - rows));
  const nameWidth = Math.min(24, Math.max(...popup.items.map((item) => textWidth(item.value))) + (popup.kind === 'command' ? 1 : 0));
  return popup.items.slice(start, start + rows).map((item, offset) => {
    const selected = start + offset === popup.selected;
    const name = popup.kind === 'command' ? `/${item.value}` : item.value;
    const line: Line = [{ text: selected ? '› ' : '  ', style: theme.selected }, { text: name, style: selected ? theme.selected : {} }];
    if (item.description) line.push({ text: ' '.repeat(Math.max(1, nameWidth - textWidth(name) + 2)) }, { text: item.description, style: theme.dim });
    return truncateLine(line, width);
  });
}
