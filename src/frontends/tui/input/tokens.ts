// Pasted blocks and attached images live in the composer's text as one character each, taken
// from Supplementary Private Use Area-B (U+100000 on), which no font or user text uses (unlike the
// BMP private use area, where Nerd Font icons live). The composer shows each as a label such as
// "[Pasted 120 lines]"; sending expands it back to exactly what was pasted.
import { basename } from 'node:path';
import type { UserInput } from '../../../protocol/index.js';

export type Token = { kind: 'paste'; text: string } | { kind: 'image'; path: string };

const FIRST = 0x100000;
const LAST = 0x10fffd;

/** Pastes with more lines than this (or longer than LONG_PASTE characters) become a placeholder. */
export const PASTE_PLACEHOLDER_LINES = 3;
export const LONG_PASTE = 500;

export class TokenStore {
  private readonly tokens = new Map<string, Token>();
  private next = FIRST;

  add(token: Token): string {
    if (this.next > LAST) this.next = FIRST;
    const char = String.fromCodePoint(this.next++);
    this.tokens.set(char, token);
    return char;
  }

  get(char: string): Token | undefined {
    return this.tokens.get(char);
  }

  clear(): void {
    this.tokens.clear();
  }

  /** The label shown in place of a token character. */
  label(char: string): string | undefined {
    const token = this.tokens.get(char);
    if (!token) return undefined;
    if (token.kind === 'image') return `[Image ${basename(token.path)}]`;
    const lines = token.text.split('\n').length;
    return lines > 1 ? `[Pasted ${lines} lines]` : `[Pasted ${token.text.length} chars]`;
  }

  /** The composer text with every token expanded: pastes to their text, images to attachments. */
  expand(text: string): UserInput {
    const images: string[] = [];
    let out = '';
    let skipSpace = false;
    for (const char of text) {
      const token = this.tokens.get(char);
      if (skipSpace && char === ' ') {
        skipSpace = false;
        continue;
      }
      skipSpace = false;
      if (!token) out += char;
      else if (token.kind === 'paste') out += token.text;
      else {
        images.push(token.path);
        // The space completion put after the image's label goes with it.
        skipSpace = true;
      }
    }
    return images.length > 0 ? { text: out, images } : { text: out };
  }
}

/** Whether a paste should show as a placeholder rather than inline. */
export function wantsPlaceholder(text: string): boolean {
  if (text.length > LONG_PASTE) return true;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10 && ++lines > PASTE_PLACEHOLDER_LINES) return true;
  return false;
}

export function isTokenChar(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code >= FIRST && code <= LAST;
}
