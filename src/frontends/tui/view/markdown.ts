// Block Markdown for agent messages, built to stream: each complete source line is rendered as
// soon as it arrives and can go to the scrollback at once, except the two blocks whose look
// depends on lines still to come: a fenced code block (highlighted as a whole when it closes) and
// a table (its columns are aligned once it ends). Those, and the unfinished last line, are the
// message's tail, shown in the live region. Single newlines are kept as line breaks: agents mean them.
import type { Line, Span } from '../text/styled.js';
import { lineWidth } from '../text/styled.js';
import { textWidth } from '../text/width.js';
import { truncateLine, wrap, type WrapMode } from '../text/wrap.js';
import { highlightIfLoaded } from './highlighter.js';
import { renderInline } from './markdown-inline.js';
import { theme } from './theme.js';

export interface MarkdownContext {
  width: number;
  mode: WrapMode;
  hyperlinks: boolean;
}

interface Fence {
  marker: string;
  language: string;
  lines: string[];
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s*>\s?(.*)$/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TASK = /^\[([ xX])\]\s+(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

const BULLETS = ['•', '◦', '▪'];

/** Renders complete lines one at a time, holding fences and tables until they end. */
export class BlockRenderer {
  private fence: Fence | undefined;
  private table: string[] | undefined;
  private lastBlank = true;

  /** One complete source line in; the lines that are final now out. */
  line(source: string, context: MarkdownContext): Line[] {
    if (this.fence) {
      const close = new RegExp(`^\\s*${this.fence.marker[0] === '`' ? '`' : '~'}{${this.fence.marker.length},}\\s*$`);
      if (close.test(source)) {
        const out = renderCode(this.fence.lines, this.fence.language, context);
        this.fence = undefined;
        this.lastBlank = false;
        return out;
      }
      this.fence.lines.push(source);
      return [];
    }
    const out: Line[] = [];
    if (this.table) {
      if (TABLE_ROW.test(source) || TABLE_SEPARATOR.test(source)) {
        this.table.push(source);
        return [];
      }
      out.push(...renderTable(this.table, context));
      this.table = undefined;
      this.lastBlank = false;
    }
    const fence = FENCE_OPEN.exec(source);
    if (fence) {
      this.fence = { marker: fence[1]!, language: fence[2]!.toLowerCase(), lines: [] };
      return out;
    }
    if (TABLE_ROW.test(source)) {
      this.table = [source];
      return out;
    }
    if (source.trim() === '') {
      if (!this.lastBlank) out.push([]);
      this.lastBlank = true;
      return out;
    }
    this.lastBlank = false;
    out.push(...renderLine(source, context));
    return out;
  }

  /** The held block, rendered as it stands (the message ended, or for the live tail). */
  pending(context: MarkdownContext): Line[] {
    if (this.fence) return renderCode(this.fence.lines, this.fence.language, context, false);
    if (this.table) return renderTable(this.table, context);
    return [];
  }

  get holding(): boolean {
    return this.fence !== undefined || this.table !== undefined;
  }

  /** Whether the unfinished line being shown is code (inside an open fence). */
  get inFence(): boolean {
    return this.fence !== undefined;
  }
}

export function renderMarkdown(source: string, context: MarkdownContext): Line[] {
  const blocks = new BlockRenderer();
  const out: Line[] = [];
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) out.push(...blocks.line(line, context));
  out.push(...blocks.pending(context));
  while (out.length > 0 && out[out.length - 1]!.length === 0) out.pop();
  return out;
}

/**
 * A streaming message: `append` deltas, `take` what became final (for the scrollback), `tail`
 * for the live region, `finish` at the end.
 */
export class MarkdownStream {
  private readonly blocks = new BlockRenderer();
  private partial = '';
  private ready: Line[] = [];

  constructor(private readonly context: () => MarkdownContext) {}

  append(delta: string): void {
    const text = this.partial + delta.replace(/\r\n?/g, '\n');
    const lines = text.split('\n');
    this.partial = lines.pop()!;
    const context = this.context();
    for (const line of lines) this.ready.push(...this.blocks.line(line, context));
  }

  /** Lines that will not change any more. */
  take(): Line[] {
    const out = this.ready;
    this.ready = [];
    return out;
  }

  /** The held block and the unfinished line, as they look now. */
  tail(context: MarkdownContext): Line[] {
    const out = this.blocks.pending(context);
    if (this.partial.trim() !== '') {
      if (this.blocks.inFence) out.push(...renderCode([this.partial], '', context, false));
      else out.push(...renderLine(this.partial, context));
    }
    return out;
  }

  /** The message is complete: everything not taken yet, final. */
  finish(): Line[] {
    const context = this.context();
    if (this.partial !== '') this.ready.push(...this.blocks.line(this.partial, context));
    this.partial = '';
    this.ready.push(...this.blocks.pending(context));
    const out = this.take();
    while (out.length > 0 && out[out.length - 1]!.length === 0) out.pop();
    return out;
  }
}

function renderLine(source: string, context: MarkdownContext): Line[] {
  const inline = { hyperlinks: context.hyperlinks };
  const heading = HEADING.exec(source);
  if (heading) {
    const style = heading[1]!.length <= 2 ? theme.heading : theme.subheading;
    return wrap(renderInline(heading[2]!, inline, style), { width: context.width, mode: context.mode });
  }
  if (RULE.test(source)) return [[{ text: '─'.repeat(Math.min(context.width, 40)), style: theme.dim }]];
  const quote = QUOTE.exec(source);
  if (quote) {
    const bar: Line = [{ text: '│ ', style: theme.dim }];
    return wrap(renderInline(quote[1]!, inline, theme.quote), { width: context.width, mode: context.mode, first: bar, rest: bar });
  }
  const item = LIST_ITEM.exec(source);
  if (item) {
    const depth = Math.floor(item[1]!.replace(/\t/g, '    ').length / 2);
    const indent = '  '.repeat(depth);
    let marker = /\d/.test(item[2]!) ? item[2]! : BULLETS[Math.min(depth, BULLETS.length - 1)]!;
    let body = item[3]!;
    let bodyStyle;
    const task = TASK.exec(body);
    if (task) {
      const done = task[1] !== ' ';
      marker = done ? '✔' : '☐';
      body = task[2]!;
      if (done) bodyStyle = theme.done;
    }
    const first: Line = [{ text: indent }, { text: `${marker} `, style: /\d/.test(marker) ? theme.bold : theme.dim }];
    const rest: Line = [{ text: ' '.repeat(indent.length + textWidth(marker) + 1) }];
    return wrap(renderInline(body, inline, bodyStyle), { width: context.width, mode: context.mode, first, rest });
  }
  const indent = /^\s*/.exec(source)![0];
  const rest: Line = indent === '' ? [] : [{ text: indent }];
  return wrap(renderInline(source.slice(indent.length), inline), { width: context.width, mode: context.mode, first: rest, rest });
}

/** Code lines: highlighted when the highlighter is loaded; never wrapped in the scrollback. */
export function renderCode(lines: readonly string[], language: string, context: MarkdownContext, highlight = true): Line[] {
  const highlighted = highlight && language !== '' ? highlightIfLoaded(lines.join('\n'), language) : undefined;
  const styled: Line[] = highlighted ?? lines.map((line) => (line === '' ? [] : [{ text: line, style: theme.codeBlock }]));
  // In the live region a line must fit; in the scrollback the terminal wraps it softly (copyable).
  return context.mode === 'live' ? styled.map((line) => truncateLine(line, context.width)) : styled;
}

function splitRow(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function renderTable(rows: readonly string[], context: MarkdownContext): Line[] {
  const inline = { hyperlinks: context.hyperlinks };
  const separatorIndex = rows.findIndex((row) => TABLE_SEPARATOR.test(row) && row.includes('-'));
  const body = rows.filter((_, index) => index !== separatorIndex);
  const cells: Span[][][] = body.map((row, index) => splitRow(row).map((cell) => renderInline(cell, inline, index === 0 && separatorIndex === 1 ? theme.bold : undefined)));
  const columns = Math.max(...cells.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) => Math.max(0, ...cells.map((row) => lineWidth(row[column] ?? []))));
  const total = widths.reduce((sum, width) => sum + width, 0) + (columns - 1) * 3;
  if (total > context.width) {
    // Too wide to align: each row as its text, which wraps like a paragraph.
    return body.flatMap((row) => wrap(renderInline(row.trim(), inline), { width: context.width, mode: context.mode }));
  }
  const out: Line[] = [];
  cells.forEach((row, rowIndex) => {
    const line: Line = [];
    for (let column = 0; column < columns; column++) {
      const cell = row[column] ?? [];
      line.push(...cell);
      if (column < columns - 1) line.push({ text: ' '.repeat(widths[column]! - lineWidth(cell)) }, { text: ' │ ', style: theme.dim });
    }
    out.push(line);
    if (rowIndex === 0 && separatorIndex === 1) out.push([{ text: widths.map((width) => '─'.repeat(width)).join('─┼─'), style: theme.dim }]);
  });
  return out;
}
