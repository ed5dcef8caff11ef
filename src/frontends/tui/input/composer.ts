// The composer: multi-line text editing with readline keys, pastes as placeholders, input history
// and its reverse search, and the two completion popups (slash commands, @file mentions). It only
// edits; what Enter, Tab, Esc or Ctrl+C mean for the session is decided by the app's key map.
import type { UserInput } from '../../../protocol/index.js';
import type { SlashCommandSpec } from '../session-port.js';
import * as edit from './editor.js';
import type { TextBuffer } from './editor.js';
import { indexAt, layoutRows, locate, type ClusterWidth, type ComposerRow } from './composer-layout.js';
import { InputHistory } from './history.js';
import { isImagePath, type FileIndex } from './file-index.js';
import { commandAt, computePopup, mentionAt } from './completion.js';
import type { InputEvent, KeyEvent } from './keys.js';
import { TokenStore, isTokenChar, wantsPlaceholder } from './tokens.js';
import { textWidth } from '../text/width.js';

export type { Popup, PopupItem } from './completion.js';
import type { Popup } from './completion.js';

export interface ComposerOptions {
  history?: readonly string[];
  commands: () => readonly SlashCommandSpec[];
  files?: FileIndex;
  /** Whether a path exists (for pasted image paths); injected so tests need no files. */
  fileExists?: (path: string) => boolean;
}

export interface SearchState {
  query: string;
  match: { index: number; text: string } | undefined;
  /** What the composer held before the search (restored on cancel). */
  saved: TextBuffer;
}

export class Composer {
  buffer: TextBuffer = edit.empty();
  readonly tokens = new TokenStore();
  readonly history: InputHistory;
  search: SearchState | undefined;
  private killed = '';
  private popupSelected = 0;
  private popupKey = '';
  /** The popup the user closed with Esc, until the text under the cursor changes. */
  private dismissedKey: string | undefined;
  private cachedPopup: { key: string; popup: Popup | undefined } | undefined;

  constructor(private readonly options: ComposerOptions) {
    this.history = new InputHistory(options.history ?? []);
  }

  get text(): string {
    return this.buffer.text;
  }

  get isEmpty(): boolean {
    return this.buffer.text.length === 0;
  }

  /** Width of one cluster as shown: tokens show as their labels. */
  readonly clusterWidth: ClusterWidth = (text, start, end) => {
    const cluster = text.slice(start, end);
    if (isTokenChar(cluster)) return textWidth(this.tokens.label(cluster) ?? '');
    return textWidth(cluster);
  };

  rows(width: number): ComposerRow[] {
    return layoutRows(this.buffer.text, width, this.clusterWidth);
  }

  cursorAt(width: number): { row: number; col: number } {
    return locate(this.buffer.text, this.rows(width), this.buffer.cursor, this.clusterWidth);
  }

  setText(text: string): void {
    this.tokens.clear();
    this.buffer = { text, cursor: text.length };
    this.dismissedKey = undefined;
  }

  clear(): void {
    this.setText('');
    this.history.reset();
  }

  /** What would be sent: tokens expanded, `@image.png` mentions of existing images attached. */
  peekInput(): UserInput {
    const input = this.tokens.expand(this.buffer.text);
    const exists = this.options.fileExists;
    if (!exists) return input;
    const mentioned = [...input.text.matchAll(/(?:^|\s)@(\S+)/g)].map((match) => match[1]!).filter((path) => isImagePath(path) && exists(path));
    if (mentioned.length === 0) return input;
    return { text: input.text, images: [...(input.images ?? []), ...mentioned] };
  }

  /** Takes the input out for sending: it goes into the history and the composer empties. */
  take(): { input: UserInput; raw: string } {
    const input = this.peekInput();
    this.history.push(input.text);
    this.setText('');
    return { input, raw: input.text };
  }

  insertText(text: string): void {
    this.buffer = edit.insert(this.buffer, text);
    this.history.reset();
  }

  newline(): void {
    this.insertText('\n');
  }

  /** A bracketed paste: a path to an image attaches it, a big block becomes a placeholder. */
  paste(raw: string): void {
    const text = raw.replace(/\r\n?/g, '\n');
    const trimmed = text.trim();
    const unquoted = trimmed.replace(/^'(.*)'$/, '$1').replace(/\\ /g, ' ');
    if (!trimmed.includes('\n') && isImagePath(unquoted) && this.options.fileExists?.(unquoted)) {
      this.insertText(this.tokens.add({ kind: 'image', path: unquoted }));
      return;
    }
    if (wantsPlaceholder(text)) this.insertText(this.tokens.add({ kind: 'paste', text }));
    else this.insertText(text);
  }

  /** Editing keys; false when the key is not an editing key. */
  edit(event: InputEvent): boolean {
    if (event.type === 'text') {
      this.insertText(event.text);
      return true;
    }
    if (event.type === 'paste') {
      this.paste(event.text);
      return true;
    }
    if (event.type !== 'key') return false;
    const before = this.buffer;
    const handled = this.editKey(event);
    if (handled && this.buffer !== before) this.history.reset();
    return handled;
  }

  private editKey(event: KeyEvent): boolean {
    const { name, ctrl, alt } = event;
    const char = event.char;
    const wordKey = ctrl || alt;
    switch (name) {
      case 'backspace':
        if (wordKey) this.kill(edit.wordLeftIndex(this.buffer));
        else this.buffer = edit.backspace(this.buffer);
        return true;
      case 'delete':
        if (wordKey) this.kill(edit.wordRightIndex(this.buffer));
        else this.buffer = edit.deleteForward(this.buffer);
        return true;
      case 'left':
        this.buffer = wordKey ? { ...this.buffer, cursor: edit.wordLeftIndex(this.buffer) } : edit.left(this.buffer);
        return true;
      case 'right':
        this.buffer = wordKey ? { ...this.buffer, cursor: edit.wordRightIndex(this.buffer) } : edit.right(this.buffer);
        return true;
      case 'home':
        this.buffer = ctrl ? { ...this.buffer, cursor: 0 } : edit.toLineStart(this.buffer);
        return true;
      case 'end':
        this.buffer = ctrl ? { ...this.buffer, cursor: this.buffer.text.length } : edit.toLineEnd(this.buffer);
        return true;
      case 'char':
        break;
      default:
        return false;
    }
    if (alt && !ctrl) {
      switch (char) {
        case 'b':
          this.buffer = { ...this.buffer, cursor: edit.wordLeftIndex(this.buffer) };
          return true;
        case 'f':
          this.buffer = { ...this.buffer, cursor: edit.wordRightIndex(this.buffer) };
          return true;
        case 'd':
          this.kill(edit.wordRightIndex(this.buffer));
          return true;
      }
      return false;
    }
    if (!ctrl) return false;
    switch (char) {
      case 'a':
        this.buffer = edit.toLineStart(this.buffer);
        return true;
      case 'e':
        this.buffer = edit.toLineEnd(this.buffer);
        return true;
      case 'b':
        this.buffer = edit.left(this.buffer);
        return true;
      case 'f':
        this.buffer = edit.right(this.buffer);
        return true;
      case 'h':
        this.buffer = edit.backspace(this.buffer);
        return true;
      case 'k': {
        const { buffer, removed } = edit.killToLineEnd(this.buffer);
        this.buffer = buffer;
        this.killed = removed;
        return true;
      }
      case 'u': {
        const { buffer, removed } = edit.killToLineStart(this.buffer);
        this.buffer = buffer;
        this.killed = removed;
        return true;
      }
      case 'w':
        this.kill(edit.wordLeftIndex(this.buffer));
        return true;
      case 'y':
        if (this.killed !== '') this.buffer = edit.insert(this.buffer, this.killed);
        return true;
    }
    return false;
  }

  private kill(index: number): void {
    const { buffer, removed } = edit.cut(this.buffer, index);
    this.buffer = buffer;
    if (removed !== '') this.killed = removed;
  }

  /** Up: a row up in the text, or the previous history entry from the first row. */
  up(width: number): boolean {
    const rows = this.rows(width);
    const at = locate(this.buffer.text, rows, this.buffer.cursor, this.clusterWidth);
    if (at.row > 0) {
      this.buffer = { ...this.buffer, cursor: indexAt(this.buffer.text, rows, at.row - 1, at.col, this.clusterWidth) };
      return true;
    }
    const previous = this.history.previous(this.buffer.text);
    if (previous === undefined) return false;
    this.loadFromHistory(previous, 'end');
    return true;
  }

  /** Down: a row down in the text, or the next history entry from the last row. */
  down(width: number): boolean {
    const rows = this.rows(width);
    const at = locate(this.buffer.text, rows, this.buffer.cursor, this.clusterWidth);
    if (at.row < rows.length - 1) {
      this.buffer = { ...this.buffer, cursor: indexAt(this.buffer.text, rows, at.row + 1, at.col, this.clusterWidth) };
      return true;
    }
    const next = this.history.next();
    if (next === undefined) return false;
    this.loadFromHistory(next, 'end');
    return true;
  }

  private loadFromHistory(text: string, cursor: 'end'): void {
    this.tokens.clear();
    // A long entry comes back as a placeholder again, so recalling it does not fill the screen.
    const value = wantsPlaceholder(text) ? this.tokens.add({ kind: 'paste', text }) : text;
    this.buffer = { text: value, cursor: cursor === 'end' ? value.length : 0 };
  }

  // ---- Ctrl+R reverse search

  startSearch(): void {
    if (this.search) {
      this.searchOlder();
      return;
    }
    this.search = { query: '', match: undefined, saved: this.buffer };
  }

  searchOlder(): void {
    if (!this.search || this.search.query === '') return;
    const older = this.history.search(this.search.query, this.search.match?.index);
    if (older) this.search.match = older;
  }

  searchInput(text: string): void {
    if (!this.search) return;
    this.search.query += text;
    this.search.match = this.history.search(this.search.query);
  }

  searchBackspace(): void {
    if (!this.search) return;
    this.search.query = this.search.query.slice(0, -1);
    this.search.match = this.search.query === '' ? undefined : this.history.search(this.search.query);
  }

  /** Ends the search, keeping the match in the composer (or what was there, if none). */
  acceptSearch(): void {
    if (!this.search) return;
    const match = this.search.match;
    const saved = this.search.saved;
    this.search = undefined;
    if (match) this.loadFromHistory(match.text, 'end');
    else this.buffer = saved;
  }

  cancelSearch(): void {
    if (!this.search) return;
    this.buffer = this.search.saved;
    this.search = undefined;
  }

  // ---- completion popups

  mentionAtCursor(): { start: number; query: string } | undefined {
    return mentionAt(this.buffer);
  }

  commandAtCursor(): { query: string } | undefined {
    return commandAt(this.buffer);
  }

  popup(): Popup | undefined {
    const command = this.commandAtCursor();
    const mention = command ? undefined : this.mentionAtCursor();
    const key = command ? `/${command.query}` : mention ? `@${mention.start}:${mention.query}:${this.options.files?.ready ? 1 : 0}` : '';
    if (key === '' || key === this.dismissedKey) return undefined;
    if (key !== this.popupKey) {
      this.popupKey = key;
      this.popupSelected = 0;
    }
    if (this.cachedPopup?.key !== key) this.cachedPopup = { key, popup: computePopup(command, mention, this.options.commands, this.options.files) };
    const popup = this.cachedPopup.popup;
    if (!popup) return undefined;
    return { ...popup, selected: Math.min(this.popupSelected, Math.max(0, popup.items.length - 1)) };
  }

  movePopup(delta: number): void {
    const popup = this.popup();
    if (!popup || popup.items.length === 0) return;
    this.popupSelected = (popup.selected + delta + popup.items.length) % popup.items.length;
  }

  dismissPopup(): void {
    this.dismissedKey = this.popupKey;
  }

  /** Puts the selected item into the text; returns it (undefined when nothing was selected). */
  acceptPopup(): { kind: Popup['kind']; value: string } | undefined {
    const popup = this.popup();
    const item = popup?.items[popup.selected];
    if (!popup || !item) return undefined;
    if (popup.kind === 'command') {
      const rest = this.buffer.text.replace(/^\/\S*/, '');
      const text = `/${item.value}${rest === '' ? ' ' : rest}`;
      this.buffer = { text, cursor: item.value.length + 2 };
    } else {
      const mention = this.mentionAtCursor()!;
      const after = this.buffer.text.slice(this.buffer.cursor);
      const inserted = isImagePath(item.value) ? this.tokens.add({ kind: 'image', path: item.value }) : `@${item.value}`;
      const head = this.buffer.text.slice(0, mention.start) + inserted + ' ';
      this.buffer = { text: head + after.replace(/^\S*/, '').replace(/^ /, ''), cursor: head.length };
    }
    this.dismissedKey = undefined;
    return { kind: popup.kind, value: item.value };
  }
}
