// Splits a TOML document into statements by line: table headers, key/value statements (a value may
// run over several lines: multi-line strings, arrays, inline tables), comments and blank lines. The
// editor (toml-edit.ts) moves whole statements and never rewrites text inside one it does not own,
// which is how comments and formatting survive an edit.

export type Statement =
  | { kind: 'header'; path: string[]; array: boolean; start: number; end: number }
  /** `keys` is the dotted key as written; `table` the path of the section it is in. */
  | { kind: 'kv'; table: string[]; keys: string[]; start: number; end: number }
  | { kind: 'comment' | 'blank'; start: number; end: number };

type OpenString = '"""' | "'''" | undefined;

/** Statements in document order; `start`/`end` are 0-based inclusive line indexes. */
export function scanStatements(lines: readonly string[]): Statement[] {
  const out: Statement[] = [];
  let table: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (trimmed === '') {
      out.push({ kind: 'blank', start: i, end: i });
      continue;
    }
    if (trimmed.startsWith('#')) {
      out.push({ kind: 'comment', start: i, end: i });
      continue;
    }
    if (trimmed.startsWith('[')) {
      const array = trimmed.startsWith('[[');
      const parsed = parseKeys(trimmed, array ? 2 : 1);
      if (!parsed) throw new Error(`line ${i + 1}: cannot read the table header ${trimmed}`);
      table = parsed.keys;
      out.push({ kind: 'header', path: table, array, start: i, end: i });
      continue;
    }
    const parsed = parseKeys(line, 0);
    if (!parsed || line[parsed.end] !== '=') throw new Error(`line ${i + 1}: cannot read the key in ${trimmed}`);
    let state = scanValue(line, parsed.end + 1, undefined, 0);
    let end = i;
    while ((state.openString || state.depth > 0) && end + 1 < lines.length) {
      end++;
      state = scanValue(lines[end] ?? '', 0, state.openString, state.depth);
    }
    out.push({ kind: 'kv', table, keys: parsed.keys, start: i, end });
    i = end;
  }
  return out;
}

/** Parses `a."b.c".'d'` from `start`; stops at `=` or `]` (returned as `end`). */
export function parseKeys(line: string, start: number): { keys: string[]; end: number } | undefined {
  const keys: string[] = [];
  let i = start;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    const c = line[i];
    if (c === '"') {
      const close = closingQuote(line, i + 1);
      if (close < 0) return undefined;
      keys.push(unescapeBasic(line.slice(i + 1, close)));
      i = close + 1;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) return undefined;
      keys.push(line.slice(i + 1, close));
      i = close + 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(line.slice(i));
      if (!m) return undefined;
      keys.push(m[0]);
      i += m[0].length;
    }
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === '.') {
      i++;
      continue;
    }
    if (line[i] === '=' || line[i] === ']') return { keys, end: i };
    return undefined;
  }
}

function unescapeBasic(body: string): string {
  return body.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, esc: string) => {
    if (esc[0] === 'u' || esc[0] === 'U') return String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
    return ({ b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\u001b', '"': '"', '\\': '\\' } as Record<string, string>)[esc] ?? esc;
  });
}

function closingQuote(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '"') return i;
  }
  return -1;
}

/** Whether a value continues past this line: an open multi-line string or open brackets. */
function scanValue(line: string, from: number, openString: OpenString, depth: number): { openString: OpenString; depth: number } {
  let i = from;
  while (i < line.length) {
    if (openString) {
      const close = findMultilineClose(line, i, openString);
      if (close < 0) return { openString, depth };
      i = close;
      openString = undefined;
      continue;
    }
    const c = line[i];
    if (c === '#') break;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      openString = line.startsWith('"""', i) ? '"""' : "'''";
      i += 3;
    } else if (c === '"') {
      const close = closingQuote(line, i + 1);
      i = close < 0 ? line.length : close + 1;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      i = close < 0 ? line.length : close + 1;
    } else {
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
      i++;
    }
  }
  return { openString, depth };
}

/** Index just past the closing delimiter (up to two extra quotes belong to the string), or -1. */
function findMultilineClose(line: string, from: number, delimiter: '"""' | "'''"): number {
  let i = from;
  while (i < line.length) {
    if (delimiter === '"""' && line[i] === '\\') {
      i += 2;
      continue;
    }
    if (line.startsWith(delimiter, i)) {
      let end = i + 3;
      while (end < line.length && line[end] === delimiter[0] && end - i < 5) end++;
      return end;
    }
    i++;
  }
  return -1;
}
