// Styled text: what every view produces (lines of spans) and how it becomes terminal bytes.
// Views never write escape sequences themselves, so NO_COLOR, TERM=dumb and hyperlink support are
// decided in one place (`serialize`), and text from the model or a command cannot smuggle its own.
import { textWidth } from './width.js';

export type Color = 'black' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'white' | 'gray';

export interface Style {
  fg?: Color;
  bg?: Color;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strike?: boolean;
  /** An OSC 8 hyperlink target. */
  link?: string;
}

export interface Span {
  text: string;
  style?: Style;
}

export type Line = Span[];

/** What the terminal can show. */
export interface Capabilities {
  /** SGR colours (off for NO_COLOR and TERM=dumb). */
  color: boolean;
  /** SGR attributes such as bold and inverse (off for TERM=dumb). */
  attributes: boolean;
  /** OSC 8 hyperlinks. */
  hyperlinks: boolean;
}

export const PLAIN_CAPABILITIES: Capabilities = { color: false, attributes: false, hyperlinks: false };

export function span(text: string, style?: Style): Span {
  return style ? { text, style } : { text };
}

export function lineWidth(line: Line): number {
  let width = 0;
  for (const part of line) width += textWidth(part.text);
  return width;
}

export function plainText(line: Line): string {
  return line.map((part) => part.text).join('');
}

const FG: Record<Color, number> = { black: 30, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37, gray: 90 };

function sgrCodes(style: Style, caps: Capabilities): string {
  const codes: number[] = [];
  if (caps.attributes) {
    if (style.bold) codes.push(1);
    if (style.dim) codes.push(2);
    if (style.italic) codes.push(3);
    if (style.underline) codes.push(4);
    if (style.inverse) codes.push(7);
    if (style.strike) codes.push(9);
  }
  if (caps.color) {
    if (style.fg) codes.push(FG[style.fg]);
    if (style.bg) codes.push(FG[style.bg] + 10);
  }
  return codes.length > 0 ? `\u001b[${codes.join(';')}m` : '';
}

const OSC8_CLOSE = '\u001b]8;;\u001b\\';

/** One line as terminal bytes: styles open per span and everything is reset at the end. */
export function serialize(line: Line, caps: Capabilities): string {
  let out = '';
  let openSgr = '';
  let openLink: string | undefined;
  for (const part of line) {
    if (part.text === '') continue;
    const style = part.style;
    const sgr = style ? sgrCodes(style, caps) : '';
    const link = caps.hyperlinks ? style?.link : undefined;
    if (link !== openLink) {
      if (openLink !== undefined) out += OSC8_CLOSE;
      if (link !== undefined) out += `\u001b]8;;${link}\u001b\\`;
      openLink = link;
    }
    if (sgr !== openSgr) {
      if (openSgr !== '') out += '\u001b[0m';
      out += sgr;
      openSgr = sgr;
    }
    out += part.text;
  }
  if (openLink !== undefined) out += OSC8_CLOSE;
  if (openSgr !== '') out += '\u001b[0m';
  return out;
}

// C0 controls except tab and newline, DEL, C1 controls, and whole escape sequences.
const UNSAFE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_]?)|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from outside (model, commands, files) made safe to print: escape sequences and control
 * characters are removed, a carriage return keeps only what was written after it (progress
 * bars), tabs become spaces to the next multiple of 4. Newlines stay.
 */
export function sanitize(text: string): string {
  if (!/[\u0000-\u001f\u007f-\u009f]/.test(text)) return text;
  return text
    .split('\n')
    .map((line) => {
      const afterReturn = line.endsWith('\r') ? line.slice(0, -1) : line;
      const cut = afterReturn.lastIndexOf('\r');
      const visible = (cut >= 0 ? afterReturn.slice(cut + 1) : afterReturn).replace(UNSAFE, '');
      return expandTabs(visible);
    })
    .join('\n');
}

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let column = 0;
  for (const part of line.split('\t').entries()) {
    const [index, text] = part;
    if (index > 0) {
      const pad = 4 - (column % 4);
      out += ' '.repeat(pad);
      column += pad;
    }
    out += text;
    column += textWidth(text);
  }
  return out;
}
