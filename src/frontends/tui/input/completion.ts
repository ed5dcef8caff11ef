// The composer's two completion popups: slash commands (the first word of the first line) and
// `@path` file mentions (fuzzy, from the file index, loaded on the first `@`).
import type { SlashCommandSpec } from '../session-port.js';
import type { TextBuffer } from './editor.js';
import type { FileIndex } from './file-index.js';

export interface PopupItem {
  /** What is inserted (a command name, a path). */
  value: string;
  description?: string;
}

export interface Popup {
  kind: 'command' | 'file';
  items: PopupItem[];
  selected: number;
  /** The file list is still being read. */
  loading: boolean;
}

/** The `@word` being typed at the cursor, if any. */
export function mentionAt(buffer: TextBuffer): { start: number; query: string } | undefined {
  const before = buffer.text.slice(0, buffer.cursor);
  const match = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return undefined;
  return { start: buffer.cursor - match[1]!.length - 1, query: match[1]! };
}

/** The `/command` being typed (only as the first word of the first line). */
export function commandAt(buffer: TextBuffer): { query: string } | undefined {
  const text = buffer.text;
  if (!text.startsWith('/')) return undefined;
  const word = /^\/(\S*)/.exec(text)![1]!;
  if (buffer.cursor > word.length + 1 || text.includes('\n')) return undefined;
  return { query: word };
}

export function computePopup(
  command: { query: string } | undefined,
  mention: { start: number; query: string } | undefined,
  commands: () => readonly SlashCommandSpec[],
  files: FileIndex | undefined,
): Popup | undefined {
  if (command) {
    const query = command.query.toLowerCase();
    const items = commands()
      .filter((spec) => spec.name.toLowerCase().startsWith(query))
      .map((spec) => ({ value: spec.name, description: spec.args ? `${spec.args}  ${spec.description}` : spec.description }));
    // A complete command name with nothing else to offer needs no popup.
    if (items.length === 0 || (items.length === 1 && items[0]!.value === command.query)) return undefined;
    return { kind: 'command', items, selected: 0, loading: false };
  }
  if (mention && files) {
    if (!files.ready) {
      void files.load();
      return { kind: 'file', items: [], selected: 0, loading: true };
    }
    const items = files.search(mention.query).map((path) => ({ value: path }));
    return items.length > 0 ? { kind: 'file', items, selected: 0, loading: false } : undefined;
  }
  return undefined;
}
