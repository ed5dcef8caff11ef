// Terminal input bytes -> key, text, paste and focus events. Understands what terminals really
// send: legacy control bytes and ESC-prefixed Alt keys, CSI and SS3 cursor keys with modifiers,
// the kitty keyboard protocol (CSI code;mods u), xterm's modifyOtherKeys (CSI 27;mods;code ~),
// bracketed paste of any length (ESC[200~ ... ESC[201~, across any number of reads), and focus
// reports. A lone ESC may be the start of a sequence that is still arriving, so it waits in
// `pending` until more bytes come or `flush()` (called after a short timeout) says it was Esc.
import { PASTE_END } from '../terminal/ansi.js';

export type KeyName =
  | 'enter'
  | 'tab'
  | 'backspace'
  | 'delete'
  | 'escape'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'pageup'
  | 'pagedown'
  | 'insert'
  | 'function'
  | 'char';

export interface KeyEvent {
  type: 'key';
  name: KeyName;
  /** For 'char': the key's character (lower case when Ctrl is held); for 'function': F1..F12. */
  char?: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

export interface TextEvent {
  type: 'text';
  text: string;
}

export interface PasteEvent {
  type: 'paste';
  text: string;
}

export interface FocusEvent {
  type: 'focus';
  focused: boolean;
}

export type InputEvent = KeyEvent | TextEvent | PasteEvent | FocusEvent;

function key(name: KeyName, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}, char?: string): KeyEvent {
  return { type: 'key', name, ...(char !== undefined ? { char } : {}), ctrl: Boolean(mods.ctrl), alt: Boolean(mods.alt), shift: Boolean(mods.shift) };
}

/** xterm/kitty modifier parameter (1 + bit mask) -> flags. */
function modifiers(parameter: number | undefined): { ctrl: boolean; alt: boolean; shift: boolean } {
  const bits = parameter && parameter > 1 ? parameter - 1 : 0;
  return { shift: (bits & 1) !== 0, alt: (bits & 2) !== 0 || (bits & 32) !== 0, ctrl: (bits & 4) !== 0 };
}

const TILDE_KEYS: Record<number, KeyName> = { 1: 'home', 2: 'insert', 3: 'delete', 4: 'end', 5: 'pageup', 6: 'pagedown', 7: 'home', 8: 'end' };
const TILDE_FUNCTION: Record<number, string> = { 11: 'F1', 12: 'F2', 13: 'F3', 14: 'F4', 15: 'F5', 17: 'F6', 18: 'F7', 19: 'F8', 20: 'F9', 21: 'F10', 23: 'F11', 24: 'F12' };
const LETTER_KEYS: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
const LETTER_FUNCTION: Record<string, string> = { P: 'F1', Q: 'F2', R: 'F3', S: 'F4' };
/** kitty's private-use codes for keypad keys that matter here. */
const KITTY_FUNCTIONAL: Record<number, KeyName> = { 57414: 'enter', 57417: 'left', 57418: 'right', 57419: 'up', 57420: 'down', 57421: 'pageup', 57422: 'pagedown', 57423: 'home', 57424: 'end', 57425: 'insert', 57426: 'delete' };

/** A key reported by its Unicode code point (kitty CSI u, modifyOtherKeys). */
function keyFromCodePoint(code: number, mods: { ctrl: boolean; alt: boolean; shift: boolean }): InputEvent | undefined {
  switch (code) {
    case 13:
      return key('enter', mods);
    case 9:
      return key('tab', mods);
    case 27:
      return key('escape', mods);
    case 8:
    case 127:
      return key('backspace', mods);
  }
  const functional = KITTY_FUNCTIONAL[code];
  if (functional) return key(functional, mods);
  if (code >= 57344 && code <= 63743) return undefined; // other kitty functional keys (media, lock keys)
  if (code < 32) return undefined;
  const char = String.fromCodePoint(code);
  if (!mods.ctrl && !mods.alt) return { type: 'text', text: mods.shift ? char.toUpperCase() : char };
  return key('char', mods, char.toLowerCase());
}

/** A legacy single byte below 0x20 (or DEL). */
function controlKey(unit: number, alt: boolean): KeyEvent {
  switch (unit) {
    case 0x0d:
      return key('enter', { alt });
    case 0x09:
      return key('tab', { alt });
    case 0x7f:
    case 0x08:
      return key('backspace', { alt });
    case 0x1b:
      return key('escape', { alt });
    case 0x00:
      return key('char', { ctrl: true, alt }, ' ');
  }
  if (unit >= 0x1c) return key('char', { ctrl: true, alt }, String.fromCharCode(unit + 0x40).toLowerCase());
  // 0x01..0x1a: Ctrl+A .. Ctrl+Z (0x0a is Ctrl+J, the newline fallback).
  return key('char', { ctrl: true, alt }, String.fromCharCode(unit + 0x60));
}

const CSI_BODY = /^\u001b\[([0-?]*)([ -/]*)([@-~])/;

export class KeyParser {
  private buffer = '';
  private paste: string[] | undefined;
  /** In a paste: where the search for its end resumes (the end marker may straddle two reads). */
  private pasteTail = '';

  /** Bytes (already decoded as UTF-8) in; events out. */
  feed(data: string): InputEvent[] {
    const events: InputEvent[] = [];
    this.buffer += data;
    this.drain(events);
    return events;
  }

  /** Something incomplete is waiting (call `flush` after a short timeout). */
  get pending(): boolean {
    return this.paste === undefined && this.buffer.length > 0;
  }

  /** Resolves what was waiting: a lone ESC is Esc, ESC + a partial sequence is dropped. */
  flush(): InputEvent[] {
    if (this.paste !== undefined || this.buffer === '') return [];
    const waiting = this.buffer;
    this.buffer = '';
    if (waiting === '\u001b') return [key('escape')];
    if (waiting === '\u001b\u001b') return [key('escape'), key('escape')];
    return [];
  }

  private drain(events: InputEvent[]): void {
    while (this.buffer.length > 0) {
      if (this.paste !== undefined) {
        if (!this.readPaste(events)) return;
        continue;
      }
      const consumed = this.readOne(events);
      if (consumed === 0) return; // incomplete: wait for more bytes
      this.buffer = this.buffer.slice(consumed);
    }
  }

  /** Collects paste text; true once the end marker was found (the rest stays in the buffer). */
  private readPaste(events: InputEvent[]): boolean {
    const searchable = this.pasteTail + this.buffer;
    const end = searchable.indexOf(PASTE_END);
    if (end === -1) {
      // Keep the last few characters: they may be the start of the end marker.
      const keep = Math.min(searchable.length, PASTE_END.length - 1);
      const settled = searchable.slice(0, searchable.length - keep);
      if (settled !== '') this.paste!.push(settled);
      this.pasteTail = searchable.slice(searchable.length - keep);
      this.buffer = '';
      return false;
    }
    this.paste!.push(searchable.slice(0, end));
    events.push({ type: 'paste', text: this.paste!.join('') });
    this.paste = undefined;
    this.pasteTail = '';
    this.buffer = searchable.slice(end + PASTE_END.length);
    return true;
  }

  /** Reads one event from the buffer's start; returns the characters consumed (0: incomplete). */
  private readOne(events: InputEvent[]): number {
    const text = this.buffer;
    const unit = text.charCodeAt(0);
    if (unit !== 0x1b) {
      if (unit < 0x20 || unit === 0x7f) {
        events.push(controlKey(unit, false));
        return 1;
      }
      // A run of printable characters is one text event (fast typing, pastes without brackets).
      let end = 1;
      while (end < text.length) {
        const next = text.charCodeAt(end);
        if (next < 0x20 || next === 0x7f || next === 0x1b) break;
        end++;
      }
      events.push({ type: 'text', text: text.slice(0, end) });
      return end;
    }
    if (text.length === 1) return 0;
    const second = text[1]!;
    if (second === '[') return this.readCsi(text, events);
    if (second === 'O') {
      if (text.length < 3) return 0;
      const final = text[2]!;
      const name = LETTER_KEYS[final];
      if (name) events.push(key(name));
      else if (LETTER_FUNCTION[final]) events.push(key('function', {}, LETTER_FUNCTION[final]));
      else if (final === 'M') events.push(key('enter'));
      return 3;
    }
    if (second === '\u001b') {
      // ESC ESC: Esc pressed twice, or Alt+Esc; and ESC ESC [ A is Alt+Up in some terminals.
      if (text.length >= 3 && (text[2] === '[' || text[2] === 'O')) {
        const inner: InputEvent[] = [];
        this.buffer = text.slice(1);
        const consumed = this.readOne(inner);
        this.buffer = text;
        if (consumed === 0) return 0;
        for (const event of inner) events.push(event.type === 'key' ? { ...event, alt: true } : event);
        return consumed + 1;
      }
      events.push(key('escape'));
      return 1;
    }
    const code = text.charCodeAt(1);
    if (code < 0x20 || code === 0x7f) {
      events.push(controlKey(code, true));
      return 2;
    }
    const char = String.fromCodePoint(text.codePointAt(1)!);
    events.push(key('char', { alt: true, shift: char !== char.toLowerCase() }, char.toLowerCase()));
    return 1 + char.length;
  }

  private readCsi(text: string, events: InputEvent[]): number {
    const match = CSI_BODY.exec(text);
    if (!match) {
      // Not complete yet, unless what follows cannot belong to a CSI sequence.
      return /^\u001b\[[0-?]*[ -/]*$/.test(text) ? 0 : 2;
    }
    const [whole, parameterText, , final] = match as unknown as [string, string, string, string];
    const length = whole.length;
    if (parameterText.startsWith('?') || parameterText.startsWith('>')) return length; // replies to queries
    const parameters = parameterText.split(';').map((part) => part.split(':').map((value) => (value === '' ? undefined : Number.parseInt(value, 10))));
    const first = parameters[0]?.[0];
    const mods = modifiers(parameters[1]?.[0]);
    switch (final) {
      case '~': {
        if (first === 200) {
          this.paste = [];
          this.pasteTail = '';
          return length;
        }
        if (first === 27) {
          const event = keyFromCodePoint(parameters[2]?.[0] ?? 0, mods);
          if (event) events.push(event);
          return length;
        }
        const name = first !== undefined ? TILDE_KEYS[first] : undefined;
        if (name) events.push(key(name, mods));
        else if (first !== undefined && TILDE_FUNCTION[first]) events.push(key('function', mods, TILDE_FUNCTION[first]));
        return length;
      }
      case 'u': {
        // Key release events (kitty flag 2) are not requested; ignore them if a terminal sends one.
        if (parameters[1]?.[1] === 3) return length;
        const event = keyFromCodePoint(first ?? 0, mods);
        if (event) events.push(event);
        return length;
      }
      case 'Z':
        events.push(key('tab', { ...mods, shift: true }));
        return length;
      case 'I':
        if (parameterText === '') events.push({ type: 'focus', focused: true });
        return length;
      case 'O':
        if (parameterText === '') events.push({ type: 'focus', focused: false });
        return length;
    }
    const name = LETTER_KEYS[final];
    if (name) events.push(key(name, mods));
    else if (LETTER_FUNCTION[final]) events.push(key('function', mods, LETTER_FUNCTION[final]));
    return length;
  }
}
