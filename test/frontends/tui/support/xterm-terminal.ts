// A TuiTerminal backed by @xterm/headless: what the TUI writes is parsed by a real terminal
// emulator (with Unicode 11 widths, as modern terminals use), so tests read cells, the cursor and
// the scrollback exactly as a user's terminal would hold them.
import xterm from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { TuiTerminal } from '../../../../src/frontends/tui/terminal/terminal.js';

export class XtermTerminal implements TuiTerminal {
  readonly term: xterm.Terminal;
  /** Every write, in order (one per frame for the inline renderer). */
  readonly writes: string[] = [];
  private readonly inputListeners = new Set<(data: string) => void>();
  private readonly resizeListeners = new Set<() => void>();
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(columns: number, rows: number, scrollback = 10_000) {
    this.term = new xterm.Terminal({ cols: columns, rows, scrollback, allowProposedApi: true });
    this.term.loadAddon(new unicode11.Unicode11Addon());
    this.term.unicode.activeVersion = '11';
  }

  get columns(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  write(data: string): void {
    this.writes.push(data);
    this.lastWrite = new Promise((resolve) => this.term.write(data, resolve));
  }

  onInput(listener: (data: string) => void): () => void {
    this.inputListeners.add(listener);
    return () => this.inputListeners.delete(listener);
  }

  onResize(listener: () => void): () => void {
    this.resizeListeners.add(listener);
    return () => this.resizeListeners.delete(listener);
  }

  /** Bytes from the keyboard. */
  type(data: string): void {
    for (const listener of this.inputListeners) listener(data);
  }

  resize(columns: number, rows: number): void {
    this.term.resize(columns, rows);
    for (const listener of this.resizeListeners) listener();
  }

  /** Resolves once xterm.js has parsed everything written so far. */
  settle(): Promise<void> {
    return this.lastWrite;
  }

  private get buffer(): xterm.IBuffer {
    return this.term.buffer.active;
  }

  /** The visible rows, trailing spaces removed (the drawn caret is an inverse space). */
  screen(): string[] {
    const rows: string[] = [];
    for (let row = 0; row < this.term.rows; row++) rows.push((this.buffer.getLine(this.buffer.baseY + row)?.translateToString(true) ?? '').trimEnd());
    return rows;
  }

  /** The visible rows without the blank ones at the bottom. */
  screenText(): string {
    const rows = this.screen();
    while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
    return rows.join('\n');
  }

  /** The rows above the screen. */
  scrollback(): string[] {
    const rows: string[] = [];
    for (let row = 0; row < this.buffer.baseY; row++) rows.push(this.buffer.getLine(row)!.translateToString(true));
    return rows;
  }

  /** Every row (scrollback then screen), soft-wrapped rows joined back into their lines. */
  logicalLines(): string[] {
    const out: string[] = [];
    for (let row = 0; row < this.buffer.length; row++) {
      const line = this.buffer.getLine(row)!;
      const text = line.translateToString(!(this.buffer.getLine(row + 1)?.isWrapped ?? false));
      if (line.isWrapped && out.length > 0) out[out.length - 1] += text;
      else out.push(text);
    }
    for (let index = 0; index < out.length; index++) out[index] = out[index]!.trimEnd();
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return out;
  }

  cursor(): { x: number; y: number } {
    return { x: this.buffer.cursorX, y: this.buffer.cursorY };
  }

  /** The cell at a visible position (for colour and attribute checks). */
  cell(x: number, y: number): xterm.IBufferCell | undefined {
    return this.buffer.getLine(this.buffer.baseY + y)?.getCell(x);
  }

  get output(): string {
    return this.writes.join('');
  }
}
