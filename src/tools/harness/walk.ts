// Listing files for Glob, file_search and the TUI's `@` completion through the search backend
// (src/tools/search: ripgrep, else an in-process walk in a worker), which skips VCS and dependency
// folders and honours nested .gitignore/.ignore files as ripgrep does. Glob patterns are matched
// with picomatch the way tinyglobby matched them before (dot files included).
import { statSync } from 'node:fs';
import { dirname, isAbsolute, posix, relative } from 'node:path';
import { listFiles } from '../search/index.js';

export interface ListOptions {
  root: string;
  /** Glob patterns relative to root; default everything. */
  patterns?: string[];
  includeDirs?: boolean;
  /** Also list what ignore files and the skipped folders would hide. */
  includeIgnored?: boolean;
  /** More glob patterns to leave out. */
  exclude?: string[];
  signal?: AbortSignal;
}

/** Absolute paths matching the patterns under root (files only unless includeDirs). */
export async function listPaths(options: ListOptions): Promise<string[]> {
  let root = options.root;
  let patterns = (options.patterns ?? ['**/*']).map(normalizePattern);
  // `../x/*.ts` searches from the parent, as tinyglobby did.
  while (patterns.length > 0 && patterns.every((pattern) => pattern.startsWith('../'))) {
    root = dirname(root);
    patterns = patterns.map((pattern) => pattern.slice(3));
  }
  const { paths } = await listFiles({ root, includeIgnored: options.includeIgnored === true }, options.signal ? { signal: options.signal } : {});
  const candidates = options.includeDirs ? withDirectories(root, paths) : paths;
  const everything = patterns.length === 1 && (patterns[0] === '**/*' || patterns[0] === '**');
  if (everything && !options.exclude?.length) return candidates;
  const { default: picomatch } = await import('picomatch');
  const matchOptions = { dot: true, posix: true };
  const match = picomatch(patterns, matchOptions);
  const excluded = options.exclude?.length ? picomatch(options.exclude.map(normalizePattern), matchOptions) : undefined;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return candidates.filter((path) => {
    // Every candidate lies under root: slicing is much cheaper than path.relative.
    const rel = path.startsWith(prefix) ? path.slice(prefix.length) : relative(root, path);
    return match(rel) && !(excluded && excluded(rel));
  });
}

function normalizePattern(pattern: string): string {
  const trimmed = pattern.length > 1 && pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
  return isAbsolute(trimmed) ? trimmed : posix.normalize(trimmed);
}

/** The files plus every directory between them and root (directories holding listed files). */
function withDirectories(root: string, files: string[]): string[] {
  const dirs = new Set<string>();
  for (const file of files) {
    for (let dir = dirname(file); dir !== root && dir.startsWith(root) && !dirs.has(dir); dir = dirname(dir)) dirs.add(dir);
  }
  return [...files, ...dirs];
}

/** A ripgrep-style `--glob`: a pattern without `/` matches the file name at any depth. */
export function anyDepth(pattern: string): string {
  return pattern.includes('/') ? pattern : `**/${pattern}`;
}

export function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Sorted by modification time; the stat calls yield to the event loop every few milliseconds. */
export async function byMtime(paths: string[], order: 'newest-first' | 'oldest-first'): Promise<string[]> {
  const stamped: { path: string; mtime: number }[] = [];
  let slice = performance.now();
  for (const path of paths) {
    stamped.push({ path, mtime: mtimeMs(path) });
    if (performance.now() - slice > 8) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  stamped.sort((a, b) => (order === 'newest-first' ? b.mtime - a.mtime : a.mtime - b.mtime) || (a.path < b.path ? -1 : 1));
  return stamped.map((entry) => entry.path);
}

export function byName(paths: string[]): string[] {
  return [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}


/** ripgrep's common `--type` names and their extensions. */
export const FILE_TYPES: Record<string, string[]> = {
  js: ['js', 'mjs', 'cjs', 'jsx'],
  ts: ['ts', 'tsx', 'mts', 'cts'],
  typescript: ['ts', 'tsx', 'mts', 'cts'],
  py: ['py', 'pyi'],
  python: ['py', 'pyi'],
  rust: ['rs'],
  rs: ['rs'],
  go: ['go'],
  java: ['java'],
  kotlin: ['kt', 'kts'],
  c: ['c', 'h'],
  cpp: ['cpp', 'cc', 'cxx', 'hpp', 'hh', 'hxx', 'h'],
  cs: ['cs'],
  rb: ['rb'],
  ruby: ['rb'],
  php: ['php'],
  swift: ['swift'],
  sh: ['sh', 'bash', 'zsh'],
  md: ['md', 'markdown'],
  markdown: ['md', 'markdown'],
  json: ['json'],
  yaml: ['yaml', 'yml'],
  toml: ['toml'],
  html: ['html', 'htm'],
  css: ['css', 'scss', 'less'],
  sql: ['sql'],
};
