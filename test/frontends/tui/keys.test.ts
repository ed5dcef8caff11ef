// The key parser against the bytes terminals really send (xterm, VTE, kitty protocol,
// modifyOtherKeys, tmux), split across reads the way a pty delivers them.
import { describe, expect, it } from 'vitest';
import { KeyParser, type InputEvent } from '../../../src/frontends/tui/input/keys.js';

function parse(...chunks: string[]): InputEvent[] {
  const parser = new KeyParser();
  const events = chunks.flatMap((chunk) => parser.feed(chunk));
  return [...events, ...parser.flush()];
}

function key(name: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean; char?: string } = {}) {
  const { char, ...rest } = mods;
  return { type: 'key', name, ...(char !== undefined ? { char } : {}), ctrl: Boolean(rest.ctrl), alt: Boolean(rest.alt), shift: Boolean(rest.shift) };
}

describe('key parser', () => {
  it('reads legacy control bytes: Enter, Ctrl+J, Tab, Backspace (DEL and ^H), Ctrl+letters', () => {
    expect(parse('\r')).toEqual([key('enter')]);
    expect(parse('\n')).toEqual([key('char', { ctrl: true, char: 'j' })]);
    expect(parse('\t')).toEqual([key('tab')]);
    expect(parse('\x7f')).toEqual([key('backspace')]);
    expect(parse('\x08')).toEqual([key('backspace')]);
    expect(parse('\x03')).toEqual([key('char', { ctrl: true, char: 'c' })]);
    expect(parse('\x04')).toEqual([key('char', { ctrl: true, char: 'd' })]);
    expect(parse('\x12')).toEqual([key('char', { ctrl: true, char: 'r' })]);
  });

  it('reads Shift+Enter in the forms terminals send it', () => {
    // kitty keyboard protocol (disambiguate flag)
    expect(parse('\x1b[13;2u')).toEqual([key('enter', { shift: true })]);
    // xterm modifyOtherKeys=2
    expect(parse('\x1b[27;2;13~')).toEqual([key('enter', { shift: true })]);
    // Alt+Enter, legacy (ESC prefix) and kitty
    expect(parse('\x1b\r')).toEqual([key('enter', { alt: true })]);
    expect(parse('\x1b[13;3u')).toEqual([key('enter', { alt: true })]);
  });

  it('reads kitty CSI u keys: Esc, Ctrl+C, Alt+letter, Shift+Tab, Ctrl+Backspace, key release ignored', () => {
    expect(parse('\x1b[27u')).toEqual([key('escape')]);
    expect(parse('\x1b[99;5u')).toEqual([key('char', { ctrl: true, char: 'c' })]);
    expect(parse('\x1b[98;3u')).toEqual([key('char', { alt: true, char: 'b' })]);
    expect(parse('\x1b[9;2u')).toEqual([key('tab', { shift: true })]);
    expect(parse('\x1b[127;5u')).toEqual([key('backspace', { ctrl: true })]);
    expect(parse('\x1b[97;1:3u')).toEqual([]);
    // A printable key reported as CSI u with only Shift is text.
    expect(parse('\x1b[97;2u')).toEqual([{ type: 'text', text: 'A' }]);
  });

  it('reads cursor keys: CSI and SS3 forms, with modifiers, Home/End/Delete/PageUp', () => {
    expect(parse('\x1b[A', '\x1bOB', '\x1b[C', '\x1b[D')).toEqual([key('up'), key('down'), key('right'), key('left')]);
    expect(parse('\x1b[1;3A')).toEqual([key('up', { alt: true })]);
    expect(parse('\x1b\x1b[A')).toEqual([key('up', { alt: true })]);
    expect(parse('\x1b[1;5D')).toEqual([key('left', { ctrl: true })]);
    expect(parse('\x1b[H', '\x1b[F', '\x1b[1~', '\x1b[4~')).toEqual([key('home'), key('end'), key('home'), key('end')]);
    expect(parse('\x1b[3~', '\x1b[5~', '\x1b[6~')).toEqual([key('delete'), key('pageup'), key('pagedown')]);
    expect(parse('\x1b[Z')).toEqual([key('tab', { shift: true })]);
    expect(parse('\x1bOP', '\x1b[15~')).toEqual([key('function', { char: 'F1' }), key('function', { char: 'F5' })]);
  });

  it('keeps a lone ESC pending until flushed, and joins a sequence split across reads', () => {
    const parser = new KeyParser();
    expect(parser.feed('\x1b')).toEqual([]);
    expect(parser.pending).toBe(true);
    expect(parser.feed('[')).toEqual([]);
    expect(parser.feed('1;5')).toEqual([]);
    expect(parser.feed('C')).toEqual([key('right', { ctrl: true })]);
    expect(parser.pending).toBe(false);
    expect(parser.feed('\x1b')).toEqual([]);
    expect(parser.flush()).toEqual([key('escape')]);
  });

  it('groups typed text, UTF-8 included, and keeps Alt+letter apart', () => {
    expect(parse('héllo 日本 👍')).toEqual([{ type: 'text', text: 'héllo 日本 👍' }]);
    expect(parse('ab\x1bfcd')).toEqual([{ type: 'text', text: 'ab' }, key('char', { alt: true, char: 'f' }), { type: 'text', text: 'cd' }]);
  });

  it('reads a bracketed paste whole, however it is split, with control bytes kept as text', () => {
    const text = 'line 1\r\nline\t2\x1b[31m red\nlast';
    expect(parse(`\x1b[200~${text}\x1b[201~`)).toEqual([{ type: 'paste', text }]);
    // Split inside the start marker, the body and the end marker.
    const whole = `x\x1b[200~${text}\x1b[201~y`;
    const chunks = [whole.slice(0, 3), whole.slice(3, 9), whole.slice(9, 20), whole.slice(20, whole.length - 4), whole.slice(whole.length - 4, whole.length - 2), whole.slice(whole.length - 2)];
    expect(parse(...chunks)).toEqual([{ type: 'text', text: 'x' }, { type: 'paste', text }, { type: 'text', text: 'y' }]);
  });

  it('has no length limit on a paste (2 MB in 4 kB reads)', () => {
    const body = 'abcdefghij\n'.repeat(200_000);
    const data = `\x1b[200~${body}\x1b[201~`;
    const parser = new KeyParser();
    const events: InputEvent[] = [];
    for (let at = 0; at < data.length; at += 4096) events.push(...parser.feed(data.slice(at, at + 4096)));
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({ type: 'paste', text: body });
  });

  it('reads focus reports and ignores replies to queries', () => {
    expect(parse('\x1b[I', '\x1b[O')).toEqual([{ type: 'focus', focused: true }, { type: 'focus', focused: false }]);
    expect(parse('\x1b[?1u', '\x1b[>0;10;1c')).toEqual([]);
  });
});
