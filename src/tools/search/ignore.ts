// Ignore files the way ripgrep reads them, for the in-process fallback: `.gitignore` (only inside a
// git repository, from the repository root down), `.git/info/exclude`, `.ignore` and `.rgignore`
// (anywhere, parents of the search root included). Precedence as in ripgrep: .rgignore over .ignore
// over .gitignore over info/exclude; within one kind the deepest directory that has a matching rule
// decides, and within one file the last matching rule (a `!` rule re-includes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface IgnoreRule {
  regex: RegExp;
  negated: boolean;
  dirOnly: boolean;
  /** Matched against the whole path relative to the rule's directory, else against the name. */
  anchored: boolean;
}

/** Rules of one kind from one directory. */
export interface RuleSet {
  /** Absolute directory the patterns are relative to. */
  dir: string;
  rules: IgnoreRule[];
}

export type IgnoreKind = 'rgignore' | 'ignore' | 'gitignore' | 'exclude';
export const IGNORE_KINDS: readonly IgnoreKind[] = ['rgignore', 'ignore', 'gitignore', 'exclude'];

export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split('\n')) {
    const rule = parseLine(raw.replace(/\r$/, ''));
    if (rule) rules.push(rule);
  }
  return rules;
}

function parseLine(line: string): IgnoreRule | undefined {
  if (line === '' || line.startsWith('#')) return undefined;
  let body = line;
  // Trailing spaces are dropped unless escaped with a backslash.
  while (body.endsWith(' ') && !body.endsWith('\\ ')) body = body.slice(0, -1);
  if (body === '') return undefined;
  let negated = false;
  if (body.startsWith('!')) {
    negated = true;
    body = body.slice(1);
  } else if (body.startsWith('\\!') || body.startsWith('\\#')) {
    body = body.slice(1);
  }
  let dirOnly = false;
  if (body.endsWith('/') && !body.endsWith('\\/')) {
    dirOnly = true;
    body = body.replace(/\/+$/, '');
  }
  if (body === '') return undefined;
  const anchored = body.includes('/');
  if (body.startsWith('/')) body = body.slice(1);
  const regex = globToRegExp(body);
  return regex ? { regex, negated, dirOnly, anchored } : undefined;
}

/** A gitignore glob as a RegExp over `/`-separated paths; undefined for an unusable pattern. */
export function globToRegExp(glob: string): RegExp | undefined {
  let out = '';
  let i = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const atStart = i === 0 || glob[i - 1] === '/';
      const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
      if (atStart && atEnd) {
        if (i + 2 === glob.length) {
          // `x/**` is everything inside x; a lone `**` is everything.
          out += i === 0 ? '.*' : '.*';
          i += 2;
        } else {
          // `**/` is zero or more leading directories.
          out += '(?:.*/)?';
          i += 3;
        }
        continue;
      }
      out += '[^/]*';
      i += 2;
      continue;
    }
    if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + (glob[i + 1] === '!' || glob[i + 1] === '^' ? 3 : 2));
      if (close === -1) {
        out += '\\[';
      } else {
        let inner = glob.slice(i + 1, close);
        if (inner.startsWith('!') || inner.startsWith('^')) inner = `^${inner.slice(1)}`;
        out += `[${inner.replace(/\\/g, '\\\\').replace(/\[/g, '\\[')}]`;
        i = close + 1;
        continue;
      }
    } else if (c === '\\') {
      const next = glob[i + 1];
      if (next === undefined) return undefined;
      out += escapeChar(next);
      i += 2;
      continue;
    } else {
      out += escapeChar(c);
    }
    i++;
  }
  try {
    return new RegExp(`^${out}$`);
  } catch {
    return undefined;
  }
}

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/** The last rule of the set matching `rel` (relative to the set's dir) decides; undefined = no opinion. */
export function matchRules(rules: IgnoreRule[], rel: string, name: string, isDir: boolean): boolean | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.dirOnly && !isDir) continue;
    if (rule.regex.test(rule.anchored ? rel : name)) return !rule.negated;
  }
  return undefined;
}

export function readRules(path: string): IgnoreRule[] {
  try {
    return parseIgnoreFile(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** The ignore files of one directory that the search honours. */
export function directoryRules(dir: string, inRepo: boolean): Partial<Record<IgnoreKind, RuleSet>> {
  const sets: Partial<Record<IgnoreKind, RuleSet>> = {};
  const add = (kind: IgnoreKind, file: string): void => {
    const rules = readRules(join(dir, file));
    if (rules.length > 0) sets[kind] = { dir, rules };
  };
  add('rgignore', '.rgignore');
  add('ignore', '.ignore');
  if (inRepo) add('gitignore', '.gitignore');
  return sets;
}
