// Table-level edits of a TOML document that keep everything else byte for byte: comments, blank
// lines, key order and quoting outside the edited table. smol-toml can parse but not preserve a
// document, so the editor works on statements (toml-scan.ts) and checks every result by parsing
// it: the new document must equal the old one with exactly the intended change, or nothing is
// returned. `editConfigFile` writes the result atomically (temp file + rename).
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml, TomlDate, TomlError } from 'smol-toml';
import { ConfigError, formatKeyPath } from './errors.js';
import type { Table } from './overrides.js';
import { scanStatements, type Statement } from './toml-scan.js';

/** An edit that could not be made safely; the file was not touched. */
export class TomlEditError extends Error {
  override readonly name = 'TomlEditError';
}

type Value = unknown;

/** Marks a line that a rewritten statement no longer needs. */
const GONE = '\u0000gone';

/** `text` with the table at `keyPath` replaced by (or set to) `table`. */
export function setTomlTable(text: string, keyPath: readonly string[], table: Table): string {
  const doc = new Doc(text);
  const owned = doc.owned(keyPath);
  const container = doc.container(keyPath);
  let out: string[];
  if (container) {
    // The parent is an inline value (`mcp_servers = { ... }`): a header could not extend it.
    out = doc.rewriteContainer(container, keyPath, (parent) => void (parent[keyPath.at(-1)!] = table));
    out = doc.without(owned, out);
  } else {
    const first = owned.headers[0];
    if (first) {
      // A replaced table keeps the comments attached above it.
      const range = owned.ranges.find(([a, b]) => a <= first.start && first.start <= b)!;
      range[0] = first.start;
    }
    const at = first ? first.start : doc.insertionPoint(keyPath);
    out = doc.insert(at, renderSection(keyPath, table, doc.eol), owned, first !== undefined && doc.leadingStart(first) < first.start);
  }
  return doc.checked(out, (before) => setAt(before, keyPath, table));
}

/** `text` without the table at `keyPath`; `removed` is false (and `text` unchanged) if it was absent. */
export function removeTomlTable(text: string, keyPath: readonly string[]): { text: string; removed: boolean } {
  const doc = new Doc(text);
  if (getAt(doc.parsed, keyPath) === undefined) return { text, removed: false };
  const container = doc.container(keyPath);
  let out = container ? doc.rewriteContainer(container, keyPath, (parent) => void delete parent[keyPath.at(-1)!]) : doc.lines.slice();
  out = doc.without(doc.owned(keyPath), out);
  const expected = (before: Table, after: Table) => {
    deleteAt(before, keyPath);
    // A parent that only existed through this table (no header of its own) goes with it.
    for (let depth = keyPath.length - 1; depth > 0; depth--) {
      const parentPath = keyPath.slice(0, depth);
      const parent = getAt(before, parentPath);
      if (!isPlainTable(parent) || Object.keys(parent).length > 0 || getAt(after, parentPath) !== undefined) break;
      deleteAt(before, parentPath);
    }
  };
  return { text: doc.checked(out, expected), removed: true };
}

interface Owned {
  headers: Extract<Statement, { kind: 'header' }>[];
  /** Line ranges to delete: owned sections (with their attached comments) and owned key/values. */
  ranges: [number, number][];
}

class Doc {
  readonly lines: string[];
  readonly eol: string;
  readonly parsed: Table;
  private readonly statements: Statement[];
  private readonly endsWithNewline: boolean;

  constructor(readonly text: string) {
    this.parsed = parseOrThrow(text, 'the file');
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
    this.endsWithNewline = text === '' || text.endsWith('\n');
    const body = this.endsWithNewline && text !== '' ? text.slice(0, -this.eol.length) : text;
    this.lines = text === '' ? [] : body.split(this.eol);
    try {
      this.statements = scanStatements(this.lines);
    } catch (error) {
      throw new TomlEditError(`cannot edit this file safely: ${(error as Error).message}`);
    }
  }

  /** Sections and key/values that belong to `keyPath` (the table itself and anything under it). */
  owned(keyPath: readonly string[]): Owned {
    const headers: Owned['headers'] = [];
    const ranges: [number, number][] = [];
    for (let i = 0; i < this.statements.length; i++) {
      const s = this.statements[i]!;
      if (s.kind === 'header' && startsWith(s.path, keyPath)) {
        headers.push(s);
        ranges.push([this.leadingStart(s), this.sectionEnd(i)]);
      } else if (s.kind === 'kv' && startsWith([...s.table, ...s.keys], keyPath) && !this.inOwnedSection(s, keyPath)) {
        ranges.push([s.start, s.end]);
      }
    }
    return { headers, ranges };
  }

  /** A key/value whose value holds `keyPath` inside it (an inline table or dotted prefix key). */
  container(keyPath: readonly string[]): Extract<Statement, { kind: 'kv' }> | undefined {
    return this.statements.find(
      (s): s is Extract<Statement, { kind: 'kv' }> => s.kind === 'kv' && isStrictPrefix([...s.table, ...s.keys], keyPath),
    );
  }

  /** The first line of a header's attached comment block (comment lines right above it). */
  leadingStart(header: Statement): number {
    let start = header.start;
    while (start > 0 && /^\s*#/.test(this.lines[start - 1] ?? '') && !this.isValueLine(start - 1)) start--;
    return start;
  }

  /** Where a new table goes: after the last section of its parent's family, else at the end. */
  insertionPoint(keyPath: readonly string[]): number {
    const parent = keyPath.slice(0, -1);
    let index = -1;
    for (let i = 0; i < this.statements.length; i++) {
      const s = this.statements[i]!;
      if (s.kind === 'header' && parent.length > 0 && startsWith(s.path, parent)) index = i;
    }
    if (index < 0) return this.lines.length;
    const end = this.sectionEnd(index);
    // Before the next header's attached comments, not between them and their header.
    const next = this.statements.find((s) => s.kind === 'header' && s.start > end);
    return next ? Math.min(end + 1, this.leadingStart(next)) : end + 1;
  }

  /** `section` at line `at` (after removing `owned`); `attached`: right below the comments kept above it. */
  insert(at: number, section: string[], owned: Owned, attached: boolean): string[] {
    const keep = this.lines.map((line, i) => (inRanges(i, owned.ranges) ? undefined : line));
    const before = keep.slice(0, at).filter((l): l is string => l !== undefined);
    const after = keep.slice(at).filter((l): l is string => l !== undefined);
    if (!attached) trimTrailingBlank(before);
    while (after.length > 0 && after[0]!.trim() === '') after.shift();
    const gap = before.length > 0 && !attached ? [''] : [];
    return [...before, ...gap, ...section, ...(after.length > 0 ? ['', ...after] : [])];
  }

  without(owned: Owned, lines: string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (inRanges(i, owned.ranges)) continue;
      // Removing a section between two blank lines would leave two.
      if (lines[i]!.trim() === '' && out.length > 0 && out.at(-1)!.trim() === '' && inRanges(i - 1, owned.ranges)) continue;
      out.push(lines[i]!);
    }
    trimTrailingBlank(out);
    return out;
  }

  /** Re-renders one key/value statement whose value contains `keyPath`, after `change`. */
  rewriteContainer(statement: Extract<Statement, { kind: 'kv' }>, keyPath: readonly string[], change: (parent: Table) => void): string[] {
    const own = [...statement.table, ...statement.keys];
    const source = this.lines.slice(statement.start, statement.end + 1).join('\n');
    const fragment = parseToml(source, { integersAsBigInt: true }) as Table;
    const value = getAt(fragment, statement.keys) as Table;
    const parent = getAt(value, keyPath.slice(own.length, -1));
    if (!isPlainTable(parent)) throw new TomlEditError(`${formatKeyPath(keyPath.slice(0, -1))} is not a table`);
    change(parent);
    const indent = /^\s*/.exec(this.lines[statement.start] ?? '')![0];
    const rendered = `${indent}${statement.keys.map(renderKey).join('.')} = ${renderValue(value)}`;
    // Same line count (placeholders for the statement's other lines), so other ranges stay valid.
    return this.lines.map((line, i) => (i === statement.start ? rendered : i > statement.start && i <= statement.end ? GONE : line));
  }

  /** Joins `lines` and proves the result is the old document with `expected` applied. */
  checked(all: string[], expected: (before: Table, after: Table) => void): string {
    const lines = all.filter((line) => line !== GONE);
    let text = lines.join(this.eol);
    if (lines.length > 0 && (this.endsWithNewline || this.text === '')) text += this.eol;
    const want = parseToml(this.text) as Table;
    const got = parseOrThrow(text, 'the edited text');
    expected(want, got);
    if (canonical(got) !== canonical(want)) {
      throw new TomlEditError('the edit would change more than the intended table (an unusual layout of this file); edit it by hand');
    }
    return text;
  }

  private sectionEnd(index: number): number {
    for (let j = index + 1; j < this.statements.length; j++) {
      const s = this.statements[j]!;
      if (s.kind === 'header') return this.leadingStart(s) - 1;
    }
    return this.lines.length - 1;
  }

  private inOwnedSection(kv: Extract<Statement, { kind: 'kv' }>, keyPath: readonly string[]): boolean {
    return startsWith(kv.table, keyPath);
  }

  private isValueLine(line: number): boolean {
    return this.statements.some((s) => s.kind === 'kv' && s.start < line && s.end >= line);
  }
}

function parseOrThrow(text: string, what: string): Table {
  try {
    return parseToml(text) as Table;
  } catch (error) {
    if (error instanceof TomlError) {
      throw new TomlEditError(`${what} is not valid TOML (line ${error.line}, column ${error.column}): ${error.message.split('\n')[0]}`);
    }
    throw error;
  }
}

/** A `[keyPath]` section: plain keys first, then sub-tables of tables as their own sections. */
export function renderSection(keyPath: readonly string[], table: Table, eol = '\n'): string[] {
  const header = `[${keyPath.map(renderKey).join('.')}]`;
  const plain: string[] = [];
  const subsections: string[] = [];
  for (const [key, value] of Object.entries(table)) {
    if (value === undefined) continue;
    if (isPlainTable(value) && Object.values(value).some(isPlainTable)) {
      for (const [subKey, subValue] of Object.entries(value)) {
        const sub = [...keyPath, key, subKey];
        if (isPlainTable(subValue)) subsections.push('', ...renderSection(sub, subValue, eol));
        else plain.push(`${renderKey(key)}.${renderKey(subKey)} = ${renderValue(subValue)}`);
      }
    } else {
      plain.push(`${renderKey(key)} = ${renderValue(value)}`);
    }
  }
  return [header, ...plain, ...subsections];
}

export function renderKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : renderString(key);
}

/** A TOML inline value: bigint is an integer, number a float (as smol-toml's integersAsBigInt parses). */
export function renderValue(value: Value): string {
  if (typeof value === 'string') return renderString(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    // A JS number is written as a float (integers come as bigint), so 1.0 stays a float.
    if (Number.isNaN(value)) return 'nan';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
    return Number.isInteger(value) ? `${value}.0` : String(value);
  }
  if (value instanceof TomlDate) return value.toISOString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `[${value.map(renderValue).join(', ')}]`;
  if (isPlainTable(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${renderKey(k)} = ${renderValue(v)}`).join(', ')} }`;
  }
  throw new TomlEditError(`cannot write ${typeof value} values to TOML`);
}

function renderString(text: string): string {
  // JSON's escapes are TOML's, except that TOML also forbids a raw DEL.
  return JSON.stringify(text).replace(/\u007f/g, '\\u007F');
}

function isPlainTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function startsWith(full: readonly string[], prefix: readonly string[]): boolean {
  return full.length >= prefix.length && prefix.every((seg, i) => full[i] === seg);
}

function isStrictPrefix(prefix: readonly string[], full: readonly string[]): boolean {
  return prefix.length < full.length && startsWith(full, prefix);
}

function inRanges(line: number, ranges: readonly [number, number][]): boolean {
  return ranges.some(([a, b]) => line >= a && line <= b);
}

function trimTrailingBlank(lines: string[]): void {
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
}

function getAt(root: unknown, keyPath: readonly string[]): unknown {
  let cur = root;
  for (const key of keyPath) {
    if (!isPlainTable(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function setAt(root: Table, keyPath: readonly string[], value: Table): void {
  let cur = root;
  for (const key of keyPath.slice(0, -1)) {
    if (!isPlainTable(cur[key])) cur[key] = {};
    cur = cur[key] as Table;
  }
  cur[keyPath.at(-1)!] = structuredClone(value);
}

function deleteAt(root: Table, keyPath: readonly string[]): void {
  const parent = getAt(root, keyPath.slice(0, -1));
  if (isPlainTable(parent)) delete parent[keyPath.at(-1)!];
}

/** A comparable rendering of parsed TOML (key order ignored, dates by their TOML text). */
function canonical(value: Value): string {
  if (value instanceof Date) return `date:${value.toISOString()}`;
  if (typeof value === 'bigint') return `num:${value}`;
  if (typeof value === 'number') return `num:${Object.is(value, -0) ? '0' : String(value)}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainTable(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Rewrites `file` with `edit(text)` (text is '' when the file does not exist): the result is
 * written to a temp file in the same folder and renamed over the original, so a crash leaves
 * either version whole. A concurrent change between read and rename makes it start over.
 */
export function editConfigFile(file: string, edit: (text: string) => string): { changed: boolean } {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = readOrEmpty(file);
    let after: string;
    try {
      after = edit(before.text);
    } catch (error) {
      if (error instanceof TomlEditError) throw new ConfigError(`cannot edit ${file}: ${error.message}; the file was not changed`);
      throw error;
    }
    if (after === before.text) return { changed: false };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
    try {
      // A new file may hold server env values (tokens): readable by its owner only.
      const fd = fs.openSync(temp, 'wx', before.mode ?? 0o600);
      try {
        fs.writeFileSync(fd, after);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      if (before.mode !== undefined) fs.chmodSync(temp, before.mode);
      if (readOrEmpty(file).text !== before.text) continue;
      fs.renameSync(temp, file);
      return { changed: true };
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  throw new ConfigError(`cannot edit ${file}: it kept changing while rig was writing it; try again`);
}

function readOrEmpty(file: string): { text: string; mode?: number } {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return { text, mode: fs.statSync(file).mode & 0o7777 };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { text: '' };
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
}
