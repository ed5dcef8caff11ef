// The in-process search used when no rg binary is available: a directory walk that honours ignore
// files as ripgrep does (see ignore.ts), and a JavaScript-regex content search with ripgrep's
// file rules (skip binary files and files over 1 MiB). It yields to the event loop every few
// milliseconds; normally it runs in a worker thread (offthread.ts) anyway.
import { existsSync, readFileSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Override } from './path-filter.js';
import { IGNORE_KINDS, type IgnoreKind, type RuleSet, directoryRules, matchRules, readRules } from './ignore.js';
import {
  type FileHits,
  type GrepNeed,
  type GrepQuery,
  type GrepResult,
  type LineHit,
  type ListQuery,
  MAX_RESULT_LINES,
  MAX_SEARCH_FILE_BYTES,
  SKIPPED_DIR_NAMES,
  SearchError,
} from './types.js';

type Chain = Record<IgnoreKind, RuleSet[]> & {
  /** Inside a git repository, so .gitignore files count (ripgrep's default). */
  inRepo: boolean;
};

const EMPTY_CHAIN: Chain = { rgignore: [], ignore: [], gitignore: [], exclude: [], inRepo: false };

const SLICE_MS = 8;

/** Lets other work run between slices of a long walk or search. */
class Slicer {
  private started = performance.now();
  constructor(private readonly signal?: AbortSignal) {}
  async maybeYield(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.signal?.aborted) throw new SearchError('aborted', 'Search interrupted');
    this.started = performance.now();
  }
}

function ancestorsOf(dir: string): string[] {
  const chain: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    chain.unshift(current);
    if (dirname(current) === current) return chain;
  }
}

/** The ignore rules in force at `root` from its parent directories. */
function initialChain(root: string): Chain {
  const chain: Chain = { ...EMPTY_CHAIN };
  const ancestors = ancestorsOf(root);
  let repoIndex = -1;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    if (existsSync(join(ancestors[i]!, '.git'))) {
      repoIndex = i;
      break;
    }
  }
  ancestors.forEach((dir, index) => {
    if (index === ancestors.length - 1) return; // the root's own files are read by the walk
    const sets = directoryRules(dir, repoIndex !== -1 && index >= repoIndex);
    for (const kind of IGNORE_KINDS) if (sets[kind]) chain[kind].push(sets[kind]);
  });
  if (repoIndex !== -1 && repoIndex < ancestors.length - 1) addExclude(chain, ancestors[repoIndex]!);
  chain.inRepo = repoIndex !== -1 && repoIndex < ancestors.length - 1;
  return chain;
}

function addExclude(chain: Chain, repoRoot: string): void {
  const rules = readRules(join(repoRoot, '.git', 'info', 'exclude'));
  chain.exclude = rules.length > 0 ? [{ dir: repoRoot, rules }] : [];
}

/** Chain for the entries of `dir`: its own ignore files added, git rules reset at a repository root. */
function enter(chain: Chain, dir: string, entries: Dirent[]): Chain {
  const isRepoRoot = entries.some((entry) => entry.name === '.git');
  const sets = directoryRules(dir, chain.inRepo || isRepoRoot);
  const next: Chain = {
    rgignore: sets.rgignore ? [...chain.rgignore, sets.rgignore] : chain.rgignore,
    ignore: sets.ignore ? [...chain.ignore, sets.ignore] : chain.ignore,
    gitignore: isRepoRoot ? (sets.gitignore ? [sets.gitignore] : []) : sets.gitignore ? [...chain.gitignore, sets.gitignore] : chain.gitignore,
    exclude: chain.exclude,
    inRepo: chain.inRepo || isRepoRoot,
  };
  if (isRepoRoot) addExclude(next, dir);
  return next;
}

function ignored(chain: Chain, path: string, name: string, isDir: boolean): boolean {
  for (const kind of IGNORE_KINDS) {
    const sets = chain[kind];
    for (let i = sets.length - 1; i >= 0; i--) {
      const set = sets[i]!;
      const verdict = matchRules(set.rules, relative(set.dir, path), name, isDir);
      if (verdict !== undefined) return verdict;
    }
  }
  return false;
}

/** Absolute paths of the files a search covers under root (unsorted), skipping symlinks. */
export async function fallbackList(
  query: ListQuery,
  onFile?: (path: string) => void | Promise<void>,
  signal?: AbortSignal,
  override?: Override,
): Promise<string[]> {
  const files: string[] = [];
  const slicer = new Slicer(signal);
  const visit = async (dir: string, parent: Chain): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const chain = query.includeIgnored ? parent : enter(parent, dir, entries);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!query.includeIgnored && (SKIPPED_DIR_NAMES as readonly string[]).includes(entry.name)) continue;
        const decided = override?.(path, true);
        if (decided === 'exclude') continue;
        if (decided === undefined && !query.includeIgnored && ignored(chain, path, entry.name, true)) continue;
        await visit(path, chain);
      } else if (entry.isFile()) {
        const decided = override?.(path, false);
        if (decided === 'exclude') continue;
        if (decided === undefined && !query.includeIgnored && ignored(chain, path, entry.name, false)) continue;
        files.push(path);
        if (onFile) await onFile(path);
      }
      await slicer.maybeYield();
    }
  };
  const start = query.includeIgnored ? EMPTY_CHAIN : initialChain(query.root);
  await visit(query.root, start);
  return files;
}

function compileRegex(query: GrepQuery): RegExp {
  try {
    return new RegExp(query.pattern, `g${query.ignoreCase ? 'i' : ''}${query.multiline ? 's' : ''}m`);
  } catch (error) {
    throw new SearchError('pattern', (error as Error).message);
  }
}

export async function fallbackGrep(query: GrepQuery, need: GrepNeed, override: Override | undefined, signal?: AbortSignal): Promise<GrepResult> {
  const regex = compileRegex(query);
  const files: FileHits[] = [];
  let searched = 0;
  let lines = 0;
  let truncated = false;
  const slicer = new Slicer(signal);
  const searchOne = async (path: string): Promise<void> => {
    if (truncated) return;
    let bytes: Buffer;
    try {
      if (statSync(path).size > MAX_SEARCH_FILE_BYTES) return;
      bytes = readFileSync(path);
    } catch {
      return;
    }
    searched++;
    if (bytes.includes(0)) return;
    const content = bytes.toString('utf8');
    // Most files do not match at all: one test of the whole text spares splitting it into lines.
    regex.lastIndex = 0;
    if (!query.multiline && !regex.test(content)) return void (await slicer.maybeYield());
    const hits = searchText(content, regex, query, need);
    if (hits) {
      files.push({ path, ...hits });
      lines += hits.lines.length;
      if (lines >= MAX_RESULT_LINES) truncated = true;
    }
    await slicer.maybeYield();
  };
  if (statSync(query.root).isFile()) await searchOne(query.root);
  else await fallbackList({ root: query.root, includeIgnored: query.includeIgnored }, searchOne, signal, override);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, searched, truncated };
}

export function searchText(content: string, regex: RegExp, query: GrepQuery, need: GrepNeed = 'lines'): { matches: number; lines: LineHit[] } | null {
  const lines = content.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const matched = new Set<number>();
  let matches = 0;
  if (query.multiline) {
    const starts: number[] = [];
    let offset = 0;
    for (const line of lines) {
      starts.push(offset);
      offset += line.length + 1;
    }
    const lineAt = (index: number): number => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] ?? 0) <= index) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    regex.lastIndex = 0;
    for (let m = regex.exec(content); m; m = regex.exec(content)) {
      matches++;
      const first = lineAt(m.index);
      const last = lineAt(m.index + Math.max(m[0].length - 1, 0));
      for (let i = first; i <= last; i++) matched.add(i);
      if (m[0].length === 0) regex.lastIndex++;
    }
  } else {
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      regex.lastIndex = 0;
      if (!regex.test(line)) continue;
      matched.add(index);
      if (need === 'files') return { matches: 1, lines: [] };
      regex.lastIndex = 0;
      matches += need === 'counts' ? [...line.matchAll(regex)].length : 1;
    }
  }
  if (matched.size === 0) return null;
  if (need !== 'lines') return { matches, lines: [] };
  const shown = new Map<number, boolean>();
  for (const index of matched) {
    for (let i = Math.max(index - query.before, 0); i <= Math.min(index + query.after, lines.length - 1); i++) {
      if (!shown.has(i)) shown.set(i, false);
    }
    shown.set(index, true);
  }
  const hitLines = [...shown.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([index, match]) => ({ line: index + 1, text: (lines[index] ?? '').replace(/\r$/, ''), match }));
  return { matches, lines: hitLines };
}
