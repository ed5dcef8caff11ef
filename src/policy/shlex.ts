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

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes one word so a POSIX shell reads it back unchanged. */
export function shlexQuote(word: string): string {
  if (word === '') return "''";
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

export function shlexJoin(words: readonly string[]): string {
  return words.map(shlexQuote).join(' ');
}
