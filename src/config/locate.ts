// Finds the line of a TOML document where a key path is defined, so validation messages can say
// `file:line`. The document has already parsed, so this scanner only needs to recognise table headers,
// (dotted, quoted) keys, and to skip the inside of multi-line strings and arrays/inline tables.

interface Definition {
  path: string[];
  line: number;
}

/** 1-based line where `path` (or its nearest defined ancestor) is defined, or undefined. */
export function findKeyLine(text: string, path: readonly PropertyKey[]): number | undefined {
  const want = path.map(String);
  const defs = scanDefinitions(text);
  let best: Definition | undefined;
  for (const def of defs) {
    if (def.path.length > want.length || !def.path.every((seg, i) => seg === want[i])) continue;
    if (!best || def.path.length > best.path.length) best = def;
  }
  if (best) return best.line;
  // Only deeper definitions exist (e.g. `[a.b]` when asking for `a`): point at the first one.
  return defs.find((def) => want.every((seg, i) => def.path[i] === seg))?.line;
}

function scanDefinitions(text: string): Definition[] {
  const defs: Definition[] = [];
  const arrayCounts = new Map<string, number>();
  let table: string[] = [];
  let openString: '"""' | "'''" | undefined;
  let depth = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (openString || depth > 0) {
      ({ openString, depth } = scanValue(line, 0, openString, depth));
      continue;
    }
    const trimmed = line.trimStart();
    if (trimmed.startsWith('[')) {
      const isArray = trimmed.startsWith('[[');
      const keys = parseKeys(trimmed, isArray ? 2 : 1);
      if (!keys) continue;
      // `[[a.b]]` after `[[a]]` belongs to a's latest element: name it by its index.
      table = [];
      keys.keys.forEach((key, k) => {
        table.push(key);
        const count = arrayCounts.get(table.join('\u0000'));
        if (k < keys.keys.length - 1 && count !== undefined) table.push(String(count - 1));
      });
      if (isArray) {
        const id = table.join('\u0000');
        const index = arrayCounts.get(id) ?? 0;
        arrayCounts.set(id, index + 1);
        table = [...table, String(index)];
      }
      defs.push({ path: table, line: i + 1 });
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const parsed = parseKeys(line, 0);
    if (!parsed || line[parsed.end] !== '=') continue;
    defs.push({ path: [...table, ...parsed.keys], line: i + 1 });
    ({ openString, depth } = scanValue(line, parsed.end + 1, undefined, 0));
  }
  return defs;
}

/** Parses `a."b.c".'d'` starting at `start`; stops at `=` or `]` (returned as `end`). */
function parseKeys(line: string, start: number): { keys: string[]; end: number } | undefined {
  const keys: string[] = [];
  let i = start;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    const c = line[i];
    if (c === '"') {
      const close = findClosingQuote(line, i + 1);
      if (close < 0) return undefined;
      try {
        keys.push(JSON.parse(line.slice(i, close + 1)) as string);
      } catch {
        keys.push(line.slice(i + 1, close));
      }
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

function findClosingQuote(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '"') return i;
  }
  return -1;
}

/** Tracks whether a value continues past this line (open multi-line string, open brackets). */
function scanValue(
  line: string,
  from: number,
  openString: '"""' | "'''" | undefined,
  depth: number,
): { openString: '"""' | "'''" | undefined; depth: number } {
  let i = from;
  while (i < line.length) {
    if (openString) {
      const close = line.indexOf(openString, i);
      if (close < 0) return { openString, depth };
      i = close + 3;
      openString = undefined;
      continue;
    }
    const c = line[i];
    if (c === '#') break;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      openString = line.startsWith('"""', i) ? '"""' : "'''";
      i += 3;
    } else if (c === '"') {
      const close = findClosingQuote(line, i + 1);
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
