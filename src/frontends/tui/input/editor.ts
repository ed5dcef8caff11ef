// The composer's text buffer: a string and a cursor, edited by clusters (a cursor never stops
// inside an emoji or before a combining mark). Pasted blocks and attached images are single
// private-use characters in the text (see tokens.ts), so every edit treats them as one unit.
import { clusterEnd, clusterStart } from '../text/width.js';

export interface TextBuffer {
  text: string;
  cursor: number;
}

export function empty(): TextBuffer {
  return { text: '', cursor: 0 };
}

export function insert(buffer: TextBuffer, text: string): TextBuffer {
  return { text: buffer.text.slice(0, buffer.cursor) + text + buffer.text.slice(buffer.cursor), cursor: buffer.cursor + text.length };
}

export function left(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: clusterStart(buffer.text, buffer.cursor) };
}

export function right(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: clusterEnd(buffer.text, buffer.cursor) };
}

export function backspace(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor === 0) return buffer;
  const start = clusterStart(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

export function deleteForward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor >= buffer.text.length) return buffer;
  const end = clusterEnd(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

export function lineStart(buffer: TextBuffer): number {
  return buffer.text.lastIndexOf('\n', buffer.cursor - 1) + 1;
}

export function lineEnd(buffer: TextBuffer): number {
  const end = buffer.text.indexOf('\n', buffer.cursor);
  return end === -1 ? buffer.text.length : end;
}

export function toLineStart(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: lineStart(buffer) };
}

export function toLineEnd(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: lineEnd(buffer) };
}

const WORD = /[\p{L}\p{N}_]/u;

function isWordAt(text: string, index: number): boolean {
  return WORD.test(String.fromCodePoint(text.codePointAt(index) ?? 32));
}

export function wordLeftIndex(buffer: TextBuffer): number {
  let at = buffer.cursor;
  while (at > 0 && !isWordAt(buffer.text, clusterStart(buffer.text, at))) at = clusterStart(buffer.text, at);
  while (at > 0 && isWordAt(buffer.text, clusterStart(buffer.text, at))) at = clusterStart(buffer.text, at);
  return at;
}

export function wordRightIndex(buffer: TextBuffer): number {
  let at = buffer.cursor;
  const length = buffer.text.length;
  while (at < length && !isWordAt(buffer.text, at)) at = clusterEnd(buffer.text, at);
  while (at < length && isWordAt(buffer.text, at)) at = clusterEnd(buffer.text, at);
  return at;
}

/** Removes text between the cursor and `index`; returns the new buffer and what was removed. */
export function cut(buffer: TextBuffer, index: number): { buffer: TextBuffer; removed: string } {
  const from = Math.min(index, buffer.cursor);
  const to = Math.max(index, buffer.cursor);
  return { buffer: { text: buffer.text.slice(0, from) + buffer.text.slice(to), cursor: from }, removed: buffer.text.slice(from, to) };
}

/** Ctrl+U: to the start of the line (or the newline before it, when already there). */
export function killToLineStart(buffer: TextBuffer): { buffer: TextBuffer; removed: string } {
  const start = lineStart(buffer);
  return cut(buffer, start === buffer.cursor && start > 0 ? start - 1 : start);
}

/** Ctrl+K: to the end of the line (or the newline after it, when already there). */
export function killToLineEnd(buffer: TextBuffer): { buffer: TextBuffer; removed: string } {
  const end = lineEnd(buffer);
  return cut(buffer, end === buffer.cursor && end < buffer.text.length ? end + 1 : end);
}

export function isEmpty(buffer: TextBuffer): boolean {
  return buffer.text.length === 0;
}
