// The files `@path` mentions complete from, and the fuzzy ranking. Inside a git work tree the list
// is git's own (`git ls-files --cached --others --exclude-standard`: every .gitignore level, the
// global excludes and .git/info/exclude); elsewhere a directory walk that honours the root's
// .gitignore. Loaded once, in the background, the first time `@` is typed.
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { listPaths } from '../../../core/workspace-files.js';

const MAX_FILES = 50_000;

export class FileIndex {
  private files: string[] | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly root: string) {}

  get ready(): boolean {
    return this.files !== undefined;
  }

  /** Starts loading (once); resolves when the list is there. */
  load(): Promise<void> {
    this.loading ??= listFiles(this.root).then(
      (files) => {
        this.files = files;
      },
      () => {
        this.files = [];
      },
    );
    return this.loading;
  }

  /** The best matches for `query`, best first. */
  search(query: string, limit = 8): string[] {
    if (!this.files) return [];
    return rankPaths(this.files, query, limit);
  }
}

function gitFiles(root: string): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) return resolve(undefined);
      resolve(stdout.split('\0').filter((path) => path !== '').slice(0, MAX_FILES));
    });
  });
}

async function listFiles(root: string): Promise<string[]> {
  const fromGit = await gitFiles(root);
  if (fromGit) return fromGit;
  const paths = await listPaths({ root });
  return paths.slice(0, MAX_FILES).map((path) => relative(root, path));
}

/**
 * Subsequence match of `query` in `path` (case-insensitive), scored: matches in the file name,
 * at the start of a path segment or word, and consecutive matches count more; shorter paths win
 * ties. undefined when the query is not a subsequence.
 */
export function fuzzyScore(path: string, query: string): number | undefined {
  if (query === '') return -path.length;
  const haystack = path.toLowerCase();
  const needle = query.toLowerCase();
  const nameStart = path.lastIndexOf('/') + 1;
  let score = 0;
  let at = 0;
  let previous = -2;
  for (const char of needle) {
    const found = haystack.indexOf(char, at);
    if (found === -1) return undefined;
    let gain = 1;
    if (found === previous + 1) gain += 5;
    const before = path[found - 1];
    if (found === 0 || before === '/' || before === '_' || before === '-' || before === '.') gain += 4;
    if (found >= nameStart) gain += 2;
    score += gain;
    previous = found;
    at = found + 1;
  }
  // A query that is exactly the file name, or its start, is what was meant.
  if (haystack.slice(nameStart).startsWith(needle)) score += 10;
  return score * 10 - path.length / 10;
}

export function rankPaths(paths: readonly string[], query: string, limit: number): string[] {
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = fuzzyScore(path, query);
    if (score !== undefined) scored.push({ path, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  return scored.slice(0, limit).map((entry) => entry.path);
}

const IMAGE_EXTENSION = /\.(png|jpe?g|gif|webp|bmp)$/i;

export function isImagePath(path: string): boolean {
  return IMAGE_EXTENSION.test(path);
}
