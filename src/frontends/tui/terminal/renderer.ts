// The inline renderer. The screen below the shell prompt holds, top to bottom: history (finished
// lines, written once, left to scroll into the terminal's own scrollback) and the live region (a
// few lines redrawn in place). Only the live region is ever redrawn, only its changed rows are
// rewritten, each frame is one write inside DEC 2026 synchronized output, and the scrollback is
// never cleared (no CSI 3J) except by `reflowAll`, which the user asks for.
//
// The cursor is only moved relative to where it is (CSI A, LF, CR, CSI C): the live region's
// position on the screen is never needed, so a shell prompt that was anywhere, a terminal that
// scrolled, or tmux all work. Every live line fits the width, so one line is one row; the only
// time that stops being true is a resize, which `resize` handles by assuming the terminal
// reflowed the old rows (xterm.js, VTE, kitty, iTerm2, Windows Terminal, tmux all do).
import {
  CLEAR_SCREEN_HOME,
  CLEAR_SCROLLBACK,
  CURSOR_HIDE,
  CURSOR_SHOW,
  ERASE_ROWS_BELOW,
  ERASE_LINE_RIGHT,
  SYNC_BEGIN,
  SYNC_END,
  cursorForward,
  cursorUp,
} from './ansi.js';
import { clusterEnd, clusterWidth, visibleWidth } from '../text/width.js';

export interface TerminalOutput {
  write(data: string): void;
  readonly columns: number;
  readonly rows: number;
}

export interface LiveFrame {
  /** Serialized lines, each at most `columns` cells wide. */
  lines: readonly string[];
  /** Where the hardware cursor goes (the composer's caret); hidden when absent. */
  cursor?: { row: number; col: number };
}

export interface RendererStats {
  frames: number;
  bytes: number;
}

export class InlineRenderer {
  private lines: string[] = [];
  private widths: number[] = [];
  /** Row of the hardware cursor, counted from the live region's first row. */
  private cursorRow = 0;
  private cursorCol = 0;
  private cursorShown = true;
  private drawnColumns: number;
  private drawnRows: number;
  readonly stats: RendererStats = { frames: 0, bytes: 0 };

  constructor(
    private readonly out: TerminalOutput,
    private readonly options: { synchronized: boolean } = { synchronized: true },
  ) {
    this.drawnColumns = out.columns;
    this.drawnRows = out.rows;
  }

  /** Writes `history` above the live region (once, for good) and draws `live`. */
  frame(history: readonly string[], live: LiveFrame): void {
    let body = '';
    if (history.length > 0) {
      body += this.eraseLive();
      for (const line of history) body += `${line}\r\n`;
      body += this.drawAll(live.lines);
    } else {
      body += this.diff(live.lines);
    }
    body += this.placeCursor(live.cursor, body === '');
    this.emit(body);
  }

  /**
   * The terminal changed size: the old live rows were reflowed by the terminal, so they are
   * found by counting how many rows each now takes, erased, and drawn again at the new width.
   */
  resize(live: LiveFrame): void {
    const columns = Math.max(1, this.out.columns);
    // The cursor is parked on the last row at column 0: the rows above it are what it moved past.
    let offset = 0;
    for (let row = 0; row < this.cursorRow; row++) offset += columns < this.drawnColumns ? rowsAt(this.widths[row] ?? 0, columns) : 1;
    // What scrolled off the top cannot be reached; erase what can be.
    offset = Math.min(offset, Math.max(0, this.out.rows - 1));
    let body = `${cursorUp(offset)}${ERASE_ROWS_BELOW}`;
    this.forget();
    this.drawnColumns = columns;
    this.drawnRows = this.out.rows;
    body += this.drawAll(live.lines);
    body += this.placeCursor(live.cursor, false);
    this.emit(body);
  }

  /** Whether the size differs from the one the live region was drawn at. */
  get sizeChanged(): boolean {
    return this.out.columns !== this.drawnColumns || this.out.rows !== this.drawnRows;
  }

  /** Erases the live region, leaving the cursor where it started (for exit, or a suspend). */
  clear(): void {
    const body = this.eraseLive();
    this.emit(body + (this.cursorShown ? '' : CURSOR_SHOW));
    this.cursorShown = true;
  }

  /**
   * The explicit reflow: clears screen and scrollback and writes the whole history again at the
   * current width. The one place CSI 3J is written.
   */
  reflowAll(history: readonly string[], live: LiveFrame): void {
    let body = `${CLEAR_SCREEN_HOME}${CLEAR_SCROLLBACK}`;
    for (const line of history) body += `${line}\r\n`;
    this.forget();
    this.drawnColumns = this.out.columns;
    this.drawnRows = this.out.rows;
    body += this.drawAll(live.lines);
    body += this.placeCursor(live.cursor, false);
    this.emit(body);
  }

  private forget(): void {
    this.lines = [];
    this.widths = [];
    this.cursorRow = 0;
    this.cursorCol = 0;
  }

  private emit(body: string): void {
    if (body === '') return;
    const data = this.options.synchronized ? `${SYNC_BEGIN}${body}${SYNC_END}` : body;
    this.stats.frames++;
    this.stats.bytes += Buffer.byteLength(data, 'utf8');
    this.out.write(data);
  }

  private eraseLive(): string {
    if (this.lines.length === 0 && this.cursorRow === 0) {
      this.cursorCol = 0;
      return ERASE_ROWS_BELOW;
    }
    const body = `${this.moveTo(0)}${ERASE_ROWS_BELOW}`;
    this.forget();
    return body;
  }

  /** Draws `lines` from the live region's first row, which must be empty and hold the cursor. */
  private drawAll(lines: readonly string[]): string {
    let body = '';
    lines.forEach((line, index) => {
      body += index === 0 ? line : `\r\n${line}`;
    });
    this.lines = [...lines];
    this.widths = lines.map((line) => visibleWidth(line));
    this.cursorRow = Math.max(0, lines.length - 1);
    this.cursorCol = this.widths[this.cursorRow] ?? 0;
    return body;
  }

  private diff(next: readonly string[]): string {
    let body = '';
    const previous = this.lines;
    for (let row = 0; row < next.length; row++) {
      const line = next[row]!;
      if (row < previous.length && previous[row] === line) continue;
      body += this.moveTo(row);
      body += this.rewrite(row, row < previous.length ? previous[row]! : '', line);
    }
    if (next.length < previous.length) {
      body += `${this.moveTo(next.length)}${ERASE_ROWS_BELOW}`;
      this.cursorCol = 0;
    }
    this.lines = [...next];
    this.widths.length = next.length;
    return body;
  }

  /** Rewrites one row; when the old and new line share a prefix, only the rest is written. */
  private rewrite(row: number, before: string, after: string): string {
    const oldWidth = row < this.widths.length ? this.widths[row] ?? 0 : 0;
    const newWidth = visibleWidth(after);
    const shared = before === '' ? undefined : sharedPrefix(before, after);
    let body: string;
    if (shared && shared.width >= 4) {
      body = `\r${cursorForward(shared.width)}${shared.style}${after.slice(shared.cut)}`;
    } else {
      body = `\r${after}`;
    }
    // Only a line that got shorter has leftovers to erase; one as wide as the screen must not be
    // followed by CSI K (the cursor sits on its last cell and would erase it).
    if (newWidth < oldWidth) body += ERASE_LINE_RIGHT;
    this.widths[row] = newWidth;
    this.cursorCol = newWidth;
    return body;
  }

  private moveTo(row: number): string {
    const delta = row - this.cursorRow;
    this.cursorRow = row;
    if (delta < 0) return cursorUp(-delta);
    // LF moves down, and at the screen's bottom it scrolls: exactly how the live region grows.
    return delta > 0 ? '\n'.repeat(delta) : '';
  }

  /**
   * The hardware cursor is parked at the start of the live region's last row, hidden (the caret
   * is drawn as a cell). On a resize, terminals that reflow move the cursor with its cell, and
   * xterm.js moves it by every row the reflow added; both agree only for a cursor on the last
   * row, which is what makes `resize` able to find the live region again.
   */
  private placeCursor(_cursor: LiveFrame['cursor'], nothingElse: boolean): string {
    const row = Math.max(0, this.lines.length - 1);
    if (nothingElse && !this.cursorShown && row === this.cursorRow && this.cursorCol === 0) return '';
    const body = `${this.moveTo(row)}\r${this.cursorShown ? CURSOR_HIDE : ''}`;
    this.cursorCol = 0;
    this.cursorShown = false;
    return body;
  }
}

function rowsAt(width: number, columns: number): number {
  return Math.max(1, Math.ceil(width / columns));
}

const ESCAPE_AT = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\))/y;

/**
 * The longest common prefix of two serialized lines that ends between clusters and outside a
 * hyperlink, its width in cells, and the SGR sequences in force there (to be written again).
 */
export function sharedPrefix(a: string, b: string): { cut: number; width: number; style: string } | undefined {
  let index = 0;
  let width = 0;
  let style = '';
  let inLink = false;
  let safe: { cut: number; width: number; style: string } | undefined;
  while (index < a.length && index < b.length) {
    if (b.charCodeAt(index) === 0x1b) {
      ESCAPE_AT.lastIndex = index;
      const match = ESCAPE_AT.exec(b);
      if (!match || !a.startsWith(match[0], index)) break;
      const sequence = match[0];
      if (sequence.endsWith('m') && sequence.startsWith('\u001b[')) style = sequence === '\u001b[0m' ? '' : style + sequence;
      else if (sequence.startsWith('\u001b]8;')) inLink = !sequence.startsWith('\u001b]8;;\u001b') && !sequence.startsWith('\u001b]8;;\u0007');
      index += sequence.length;
      continue;
    }
    const end = clusterEnd(b, index);
    if (clusterEnd(a, index) !== end || a.slice(index, end) !== b.slice(index, end)) break;
    width += clusterWidth(b, index, end);
    index = end;
    if (!inLink) safe = { cut: index, width, style };
  }
  return safe;
}
