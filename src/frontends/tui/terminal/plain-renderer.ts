// The renderer for TERM=dumb (and terminals that cannot move the cursor): history is printed as
// lines, and of the live region only the row holding the cursor (the composer, or the question
// being asked) is shown, redrawn with CR, spaces and backspaces, which every terminal has.
import type { LiveFrame, RendererStats, TerminalOutput } from './renderer.js';
import { stripEscapes, textWidth } from '../text/width.js';

export class PlainRenderer {
  private shown = '';
  readonly stats: RendererStats = { frames: 0, bytes: 0 };

  constructor(private readonly out: TerminalOutput) {}

  get sizeChanged(): boolean {
    return false;
  }

  frame(history: readonly string[], live: LiveFrame): void {
    const next = live.cursor ? stripEscapes(live.lines[live.cursor.row] ?? '') : '';
    let body = '';
    if (history.length > 0) {
      body += this.erase();
      for (const line of history) body += `${stripEscapes(line)}\r\n`;
      body += next;
    } else if (next !== this.shown) {
      if (next.startsWith(this.shown)) body += next.slice(this.shown.length);
      else {
        const pad = Math.max(0, textWidth(this.shown) - textWidth(next));
        body += `\r${next}${' '.repeat(pad)}${'\b'.repeat(pad)}`;
      }
    }
    this.shown = next;
    this.emit(body);
  }

  resize(live: LiveFrame): void {
    this.frame([], live);
  }

  clear(): void {
    this.emit(this.erase());
  }

  reflowAll(history: readonly string[], live: LiveFrame): void {
    this.frame(history, live);
  }

  private erase(): string {
    if (this.shown === '') return '';
    const width = textWidth(this.shown);
    this.shown = '';
    return `\r${' '.repeat(width)}\r`;
  }

  private emit(body: string): void {
    if (body === '') return;
    this.stats.frames++;
    this.stats.bytes += Buffer.byteLength(body, 'utf8');
    this.out.write(body);
  }
}
