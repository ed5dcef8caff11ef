// POSIX-shell word splitting and quoting, for rule examples written as strings
// ("git push origin") and for rendering commands inside approval reasons.

/** Splits like a POSIX shell would (quotes, backslashes, `#` comments); null when quotes are unbalanced. */
export function shlexSplit(text: string): string[] | null {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (inWord) {
        words.push(current);
        current = '';
        inWord = false;
      }
      i++;
      continue;
    }
    if (ch === '#' && !inWord) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    inWord = true;
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return null;
      current += text.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (ch === '"') {
      i++;
      let closed = false;
      while (i < text.length) {
        const c = text[i]!;
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        if (c === '\\' && i + 1 < text.length) {
          const next = text[i + 1]!;
          // Inside double quotes a backslash only escapes these characters.
          if (next === '$' || next === '`' || next === '"' || next === '\\') {
            current += next;
            i += 2;
            continue;
          }
          if (next === '\n') {
            i += 2;
            continue;
          }
        }
        current += c;
        i++;
      }
      if (!closed) return null;
      continue;
    }
    if (ch === '\\') {
      if (i + 1 >= text.length) return null;
      const next = text[i + 1]!;
      if (next !== '\n') current += next;
      i += 2;
      continue;
    }
    current += ch;
    i++;
  }
  if (inWord) words.push(current);
  return words;
}

// Quoting follows the POSIX rules used by Codex's reason strings: a word is split into runs, each
// emitted bare, in single quotes, or in double quotes (with \ escapes), whichever covers the most.
const BARE_OK = /^[+\-./:@\]_0-9A-Za-z]$/;

function bareOk(ch: string): boolean {
  return ch.charCodeAt(0) < 0x80 && BARE_OK.test(ch);
}
function singleQuotedOk(ch: string): boolean {
  return ch !== "'" && ch !== '^' && ch !== '\\';
}
function doubleQuotedOk(ch: string): boolean {
  return ch !== '`' && ch !== '$' && ch !== '!' && ch !== '^';
}

const BARE = 1;
const SINGLE = 2;
const DOUBLE = 4;

/** Quotes one word so a POSIX shell reads it back unchanged. */
export function shlexQuote(word: string): string {
  if (word === '') return "''";
  const chars = [...word];
  let out = '';
  let start = 0;
  while (start < chars.length) {
    let ok = BARE | SINGLE | DOUBLE;
    let i = start;
    // A leading ^ is only safe inside single quotes.
    if (chars[i] === '^') {
      ok = SINGLE;
      i++;
    }
    for (; i < chars.length; i++) {
      const ch = chars[i]!;
      let next = ok;
      if (!bareOk(ch)) next &= ~BARE;
      if (!singleQuotedOk(ch)) next &= ~SINGLE;
      if (!doubleQuotedOk(ch)) next &= ~DOUBLE;
      if (next === 0) break;
      ok = next;
    }
    const chunk = chars.slice(start, i).join('');
    if (ok & BARE) out += chunk;
    else if (ok & SINGLE) out += `'${chunk}'`;
    else out += `"${chunk.replace(/[$`"\\]/g, (c) => `\\${c}`)}"`;
    start = i;
  }
  return out;
}

/** Joins words into one shell-safe line; words holding a NUL cannot be quoted, so they are joined plainly. */
export function shlexJoin(words: readonly string[]): string {
  if (words.some((word) => word.includes('\0'))) return words.join(' ');
  return words.map(shlexQuote).join(' ');
}
