// The escape sequences the TUI writes, named. Nothing here captures the mouse: selection and the
// wheel stay the terminal's.
export const ESC = '\u001b';
export const CSI = `${ESC}[`;

/** DEC private mode 2026: the terminal shows a frame only once it is complete (no tearing). */
export const SYNC_BEGIN = `${CSI}?2026h`;
export const SYNC_END = `${CSI}?2026l`;

export const BRACKETED_PASTE_ON = `${CSI}?2004h`;
export const BRACKETED_PASTE_OFF = `${CSI}?2004l`;
export const PASTE_START = `${CSI}200~`;
export const PASTE_END = `${CSI}201~`;

/** Focus reports (CSI I / CSI O), for notifications while the terminal is in the background. */
export const FOCUS_REPORTS_ON = `${CSI}?1004h`;
export const FOCUS_REPORTS_OFF = `${CSI}?1004l`;

/**
 * Keyboard: the kitty protocol's "disambiguate" flag (Shift+Enter, Esc and Ctrl+key arrive as
 * CSI u) and xterm's modifyOtherKeys level 2 (CSI 27;mod;key ~), for terminals that have one or
 * the other. Terminals that have neither ignore both.
 */
export const KITTY_KEYBOARD_PUSH = `${CSI}>1u`;
export const KITTY_KEYBOARD_POP = `${CSI}<u`;
export const MODIFY_OTHER_KEYS_ON = `${CSI}>4;2m`;
export const MODIFY_OTHER_KEYS_OFF = `${CSI}>4m`;

export const CURSOR_SHOW = `${CSI}?25h`;
export const CURSOR_HIDE = `${CSI}?25l`;
export const ALT_SCREEN_ON = `${CSI}?1049h`;
export const ALT_SCREEN_OFF = `${CSI}?1049l`;
export const RESET_STYLE = `${CSI}0m`;

/** Erase from the cursor to the end of the screen / line. */
export const ERASE_BELOW = `${CSI}J`;
export const ERASE_LINE_RIGHT = `${CSI}K`;
/**
 * Erase from the start of this row to the end of the screen without ever erasing "the whole
 * screen": tmux (scroll-on-clear, on by default) and some terminals copy the screen into the
 * scrollback when everything from the top-left corner is erased, which would leave a copy of the
 * live region in the history. So: erase below from the second column, then the row itself.
 */
export const ERASE_ROWS_BELOW = `\r${CSI}C${CSI}J\r${CSI}K`;
/** Clears the scrollback. Written only by an explicit reflow the user asked for. */
export const CLEAR_SCROLLBACK = `${CSI}3J`;
export const CLEAR_SCREEN_HOME = `${CSI}H${CSI}2J`;

export function cursorUp(rows: number): string {
  return rows > 0 ? `${CSI}${rows === 1 ? '' : rows}A` : '';
}

export function cursorForward(columns: number): string {
  return columns > 0 ? `${CSI}${columns === 1 ? '' : columns}C` : '';
}

export const BELL = '\u0007';

/** OSC 9: a desktop notification (iTerm2, kitty, WezTerm, Ghostty, Windows Terminal). */
export function desktopNotification(text: string): string {
  return `${ESC}]9;${text.replace(/[\u0000-\u001f\u007f]/g, ' ')}${BELL}`;
}

/** OSC 52: put text on the system clipboard (works over ssh). */
export function clipboardCopy(text: string): string {
  return `${ESC}]52;c;${Buffer.from(text, 'utf8').toString('base64')}${BELL}`;
}

/** Everything the TUI may have turned on, turned off again; safe to write more than once. */
export const RESTORE_TERMINAL =
  SYNC_END + BRACKETED_PASTE_OFF + FOCUS_REPORTS_OFF + KITTY_KEYBOARD_POP + MODIFY_OTHER_KEYS_OFF + RESET_STYLE + CURSOR_SHOW;
