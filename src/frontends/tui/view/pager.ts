// Ctrl+T: the whole transcript, expanded (full command output and diffs), in the alternate
// screen so the main screen and its scrollback are untouched; leaving restores them as they were.
// Scrolled by keys only (the mouse stays the terminal's).
import { CLEAR_SCREEN_HOME, ERASE_LINE_RIGHT, SYNC_BEGIN, SYNC_END } from '../terminal/ansi.js';
import type { InputEvent } from '../input/keys.js';
import { serialize, type Capabilities, type Line } from '../text/styled.js';
import { truncateLine } from '../text/wrap.js';
import { theme } from './theme.js';

export class Pager {
  private offset: number;

  /** `lines` are already wrapped to the width they will be shown at. */
  constructor(
    private lines: Line[],
    private rows: number,
  ) {
    this.offset = Math.max(0, lines.length - this.pageRows);
  }

  private get pageRows(): number {
    return Math.max(1, this.rows - 1);
  }

  private get maxOffset(): number {
    return Math.max(0, this.lines.length - this.pageRows);
  }

  /** New content (after a resize): keeps the view pinned to the bottom if it was there. */
  replace(lines: Line[], rows: number): void {
    const atBottom = this.offset >= this.maxOffset;
    this.lines = lines;
    this.rows = rows;
    this.offset = atBottom ? this.maxOffset : Math.min(this.offset, this.maxOffset);
  }

  /** 'close' when the pager should close; true when the view moved. */
  handle(event: InputEvent): 'close' | boolean {
    const page = this.pageRows;
    const move = (to: number) => {
      const next = Math.max(0, Math.min(this.maxOffset, to));
      const moved = next !== this.offset;
      this.offset = next;
      return moved;
    };
    if (event.type === 'text') {
      switch (event.text) {
        case 'q':
          return 'close';
        case 'j':
          return move(this.offset + 1);
        case 'k':
          return move(this.offset - 1);
        case ' ':
        case 'f':
          return move(this.offset + page);
        case 'b':
          return move(this.offset - page);
        case 'g':
          return move(0);
        case 'G':
          return move(this.maxOffset);
      }
      return false;
    }
    if (event.type !== 'key') return false;
    if (event.name === 'escape' || (event.name === 'char' && event.ctrl && (event.char === 't' || event.char === 'c'))) return 'close';
    switch (event.name) {
      case 'down':
      case 'enter':
        return move(this.offset + 1);
      case 'up':
        return move(this.offset - 1);
      case 'pagedown':
        return move(this.offset + page);
      case 'pageup':
        return move(this.offset - page);
      case 'home':
        return move(0);
      case 'end':
        return move(this.maxOffset);
    }
    return false;
  }

  /** The whole screen, drawn from the top (the alternate screen has no scrollback to keep). */
  render(columns: number, caps: Capabilities): string {
    let out = `${SYNC_BEGIN}${CLEAR_SCREEN_HOME}`;
    const visible = this.lines.slice(this.offset, this.offset + this.pageRows);
    visible.forEach((line, index) => {
      out += `${serialize(truncateLine(line, columns), caps)}${index < visible.length - 1 ? '\r\n' : ''}`;
    });
    const last = Math.min(this.lines.length, this.offset + this.pageRows);
    const footer: Line = [{ text: ` transcript ${last}/${this.lines.length} · ↑↓ PgUp PgDn Home End · q closes `, style: { ...theme.dim, inverse: true } }];
    out += `\u001b[${this.rows};1H${serialize(truncateLine(footer, columns), caps)}${ERASE_LINE_RIGHT}${SYNC_END}`;
    return out;
  }
}
