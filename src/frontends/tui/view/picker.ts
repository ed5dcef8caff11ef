// The thread picker (`rig resume`/`rig fork` with no id, /resume, /fork): stored threads newest
// first, this directory's only until Tab widens it to all; typing filters by title, then by what
// was said in the threads (their text is read once, when a search first needs it).
import * as edit from '../input/editor.js';
import type { InputEvent } from '../input/keys.js';
import type { ThreadBrowser, ThreadListing } from '../session-port.js';
import { sanitize, type Line } from '../text/styled.js';
import { textWidth } from '../text/width.js';
import { truncateLine } from '../text/wrap.js';
import { theme } from './theme.js';

export type PickerResult = { chosen: string } | 'cancel' | undefined;

export function relativeTime(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h ago`;
  return `${Math.round(seconds / 86_400)}d ago`;
}

export class ThreadPicker {
  query = edit.empty();
  all = false;
  selected = 0;
  rows: ThreadListing[] | undefined;
  error: string | undefined;
  private readonly texts = new Map<string, string>();
  private textsLoading = false;
  private loads = 0;

  constructor(
    readonly verb: 'resume' | 'fork',
    private readonly browser: ThreadBrowser,
    /** Called when rows or texts arrive (the app draws a frame). */
    private readonly changed: () => void,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.load();
  }

  private load(): void {
    const load = ++this.loads;
    this.rows = undefined;
    this.browser.list({ all: this.all }).then(
      (rows) => {
        if (load !== this.loads) return;
        this.rows = rows;
        this.selected = 0;
        if (this.query.text !== '') this.loadTexts();
        this.changed();
      },
      (error: unknown) => {
        this.error = error instanceof Error ? error.message : String(error);
        this.rows = [];
        this.changed();
      },
    );
  }

  private loadTexts(): void {
    if (this.textsLoading || !this.rows) return;
    this.textsLoading = true;
    const missing = this.rows.filter((row) => !this.texts.has(row.id));
    void (async () => {
      for (const row of missing) {
        try {
          this.texts.set(row.id, (await this.browser.text(row.id)).toLowerCase());
        } catch {
          this.texts.set(row.id, '');
        }
      }
      this.textsLoading = false;
      this.changed();
    })();
  }

  /** The rows the query matches: by title or id first, then by what the threads say. */
  matches(): ThreadListing[] {
    const rows = this.rows ?? [];
    const words = this.query.text.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return rows;
    const has = (text: string) => words.every((word) => text.includes(word));
    const byTitle = rows.filter((row) => has(`${row.title} ${row.id}`.toLowerCase()));
    const byText = rows.filter((row) => !byTitle.includes(row) && has(this.texts.get(row.id) ?? ''));
    return [...byTitle, ...byText];
  }

  handle(event: InputEvent): PickerResult {
    if (event.type === 'text' || event.type === 'paste') {
      this.query = edit.insert(this.query, event.text.replace(/\s+/g, ' '));
      this.selected = 0;
      this.loadTexts();
      return undefined;
    }
    if (event.type !== 'key') return undefined;
    const shown = this.matches();
    if (event.name === 'char' && event.ctrl && event.char === 'c') return 'cancel';
    switch (event.name) {
      case 'escape':
        return 'cancel';
      case 'enter': {
        const row = shown[this.selected];
        return row ? { chosen: row.id } : undefined;
      }
      case 'up':
        this.selected = Math.max(0, this.selected - 1);
        return undefined;
      case 'down':
        this.selected = Math.min(Math.max(0, shown.length - 1), this.selected + 1);
        return undefined;
      case 'tab':
        this.all = !this.all;
        this.load();
        return undefined;
      case 'backspace':
        this.query = edit.backspace(this.query);
        this.selected = 0;
        return undefined;
    }
    if (event.name === 'char' && event.ctrl && event.char === 'u') this.query = edit.empty();
    return undefined;
  }

  render(width: number, maxRows: number): { lines: Line[]; cursor: { row: number; col: number } } {
    const title: Line = [
      { text: this.verb === 'resume' ? 'Resume a thread' : 'Fork a thread', style: theme.bold },
      { text: `  ${this.all ? 'all directories' : sanitize(this.browser.cwd)}`, style: theme.dim },
    ];
    const label = 'search: ';
    const search: Line = [{ text: label, style: theme.dim }, { text: this.query.text }];
    const help: Line = [{ text: 'type to search · ↑↓ choose · Enter open · Tab ' + (this.all ? 'this directory only' : 'all directories') + ' · Esc cancel', style: theme.dim }];
    const list: Line[] = [];
    const room = Math.max(1, maxRows - 3);
    if (!this.rows) list.push([{ text: 'loading…', style: theme.dim }]);
    else if (this.error) list.push([{ text: `could not list the threads: ${this.error}`, style: theme.error }]);
    else {
      const shown = this.matches();
      if (shown.length === 0) {
        const none = this.rows.length === 0 ? (this.all ? 'no stored threads yet' : 'no threads started in this directory (Tab shows every directory)') : 'no thread matches';
        list.push([{ text: none, style: theme.dim }]);
      }
      // The selection stays in view: the window slides with it.
      const start = Math.max(0, Math.min(this.selected - room + 1, shown.length - room));
      const now = this.now();
      shown.slice(start, start + room).forEach((row, index) => {
        const selected = start + index === this.selected;
        const when = relativeTime(row.updatedAt, now).padEnd(8);
        list.push(
          truncateLine(
            [
              { text: selected ? '› ' : '  ', style: theme.selected },
              { text: `${when} `, style: theme.dim },
              { text: sanitize(row.title).replace(/\s+/g, ' ') || '(untitled)', style: selected ? theme.selected : {} },
              { text: `  ${row.id.slice(0, 8)}`, style: theme.dim },
              ...(this.all ? [{ text: `  ${sanitize(row.cwd)}`, style: theme.dim }] : []),
            ],
            width,
          ),
        );
      });
    }
    const lines = [truncateLine(title, width), ...list, truncateLine(help, width), truncateLine(search, width)];
    return { lines, cursor: { row: lines.length - 1, col: Math.min(width - 1, textWidth(label) + textWidth(this.query.text.slice(0, this.query.cursor))) } };
  }
}
