// Tokenizer for the Starlark subset used by .rules files: names, strings
// (single, double, triple-quoted, raw), integers, brackets, `,`, `=`, `;`,
// comments and newlines. Newlines inside brackets are not tokens (implicit
// line joining, as in Starlark).

import { ExecPolicyLoadError, type SourcePosition } from './load-error.js';

export type TokenKind =
  | 'name'
  | 'string'
  | 'int'
  | '('
  | ')'
  | '['
  | ']'
  | ','
  | '='
  | ';'
  | 'newline'
  | 'eof';

export interface Token extends SourcePosition {
  kind: TokenKind;
  /** Name text, decoded string value, or integer digits. */
  text: string;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'name':
      return `name '${token.text}'`;
    case 'string':
      return 'string';
    case 'int':
      return `number ${token.text}`;
    case 'newline':
      return 'end of line';
    case 'eof':
      return 'end of file';
    default:
      return `'${token.kind}'`;
  }
}

export function tokenize(source: string, file: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let depth = 0;
  const pos = (at: number): SourcePosition => ({ line, column: at - lineStart + 1 });
  const fail = (at: SourcePosition, detail: string): never => {
    throw new ExecPolicyLoadError(file, at, detail);
  };

  while (i < source.length) {
    const ch = source[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\f') {
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (ch === '\\' && source[i + 1] === '\n') {
      i += 2;
      line++;
      lineStart = i;
      continue;
    }
    if (ch === '\n') {
      if (depth === 0) tokens.push({ kind: 'newline', text: '', ...pos(i) });
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      const start = i;
      while (i < source.length && /[A-Za-z0-9_]/.test(source[i]!)) i++;
      const word = source.slice(start, i);
      const quote = source[i];
      if ((word === 'r' || word === 'R') && (quote === '"' || quote === "'")) {
        i = readString(start, i, true);
        continue;
      }
      tokens.push({ kind: 'name', text: word, ...pos(start) });
      continue;
    }
    if (/[0-9]/.test(ch)) {
      const start = i;
      while (i < source.length && /[0-9]/.test(source[i]!)) i++;
      tokens.push({ kind: 'int', text: source.slice(start, i), ...pos(start) });
      continue;
    }
    if (ch === '"' || ch === "'") {
      i = readString(i, i, false);
      continue;
    }
    if (ch === '(' || ch === '[') {
      depth++;
      tokens.push({ kind: ch, text: ch, ...pos(i) });
      i++;
      continue;
    }
    if (ch === ')' || ch === ']') {
      if (depth > 0) depth--;
      tokens.push({ kind: ch, text: ch, ...pos(i) });
      i++;
      continue;
    }
    if (ch === ',' || ch === '=' || ch === ';') {
      tokens.push({ kind: ch, text: ch, ...pos(i) });
      i++;
      continue;
    }
    fail(pos(i), `unexpected character '${ch}' (expected a name, a string, a list or a call)`);
  }
  if (depth === 0) tokens.push({ kind: 'newline', text: '', ...pos(i) });
  tokens.push({ kind: 'eof', text: '', ...pos(i) });
  return tokens;

  /** Reads a string literal whose token starts at `start` and whose quote is at `quoteAt`; returns the index after it. */
  function readString(start: number, quoteAt: number, raw: boolean): number {
    const startPos = pos(start);
    const quote = source[quoteAt]!;
    const triple = source.startsWith(quote.repeat(3), quoteAt);
    const delimiter = triple ? quote.repeat(3) : quote;
    let j = quoteAt + delimiter.length;
    let value = '';
    for (;;) {
      if (j >= source.length) {
        fail(startPos, `unterminated string (expected a closing ${delimiter})`);
      }
      const c = source[j]!;
      if (source.startsWith(delimiter, j)) {
        j += delimiter.length;
        break;
      }
      if (c === '\n') {
        if (!triple) fail(startPos, `unterminated string (expected a closing ${quote} before the end of the line)`);
        value += c;
        j++;
        line++;
        lineStart = j;
        continue;
      }
      if (c === '\\') {
        const next = source[j + 1];
        if (next === undefined) fail(pos(j), 'unterminated string (expected a character after \\)');
        if (raw) {
          // Raw strings keep the backslash; it still protects a quote from ending the string.
          value += c + next;
          j += 2;
          if (next === '\n') {
            line++;
            lineStart = j;
          }
          continue;
        }
        if (next === '\n') {
          j += 2;
          line++;
          lineStart = j;
          continue;
        }
        const simple = SIMPLE_ESCAPES[next!];
        if (simple !== undefined) {
          value += simple;
          j += 2;
          continue;
        }
        const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
        if (hexLength > 0) {
          const digits = source.slice(j + 2, j + 2 + hexLength);
          if (!new RegExp(`^[0-9A-Fa-f]{${hexLength}}$`).test(digits)) {
            fail(pos(j), `invalid escape sequence \\${next} (expected ${hexLength} hex digits)`);
          }
          value += String.fromCodePoint(parseInt(digits, 16));
          j += 2 + hexLength;
          continue;
        }
        fail(pos(j), `invalid escape sequence \\${next} (expected one of \\n \\t \\r \\\\ \\' \\" \\xHH \\uHHHH)`);
      }
      value += c;
      j++;
    }
    tokens.push({ kind: 'string', text: value, ...startPos });
    return j;
  }
}
