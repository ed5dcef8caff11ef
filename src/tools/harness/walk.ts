// Listing files for Glob and Grep with a real glob engine (tinyglobby), skipping VCS and
// dependency folders the way the originals' ripgrep-based searches do by default.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const SKIPPED_DIRS = ['**/.git/**', '**/node_modules/**', '**/.hg/**', '**/.svn/**'];

export interface ListOptions {
  root: string;
  /** Glob patterns relative to root; default everything. */
  patterns?: string[];
  includeDirs?: boolean;
  /** Also list what SKIPPED_DIRS would hide. */
  includeIgnored?: boolean;
  /** More glob patterns to leave out. */
  exclude?: string[];
  signal?: AbortSignal;
}

/** Absolute paths matching the patterns under root (files only unless includeDirs). */
export async function listPaths(options: ListOptions): Promise<string[]> {
  // Loaded on first use: picomatch costs startup time for sessions that never glob.
  const { glob } = await import('tinyglobby');
  const paths = await glob(options.patterns ?? ['**/*'], {
    cwd: options.root,
    absolute: true,
    dot: true,
    onlyFiles: !options.includeDirs,
    expandDirectories: false,
    followSymbolicLinks: false,
    ignore: [...(options.includeIgnored ? [] : [...SKIPPED_DIRS, ...gitignorePatterns(options.root)]), ...(options.exclude ?? [])],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return paths.map((path) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path));
}

/**
 * The root's .gitignore as ignore globs, so searches skip what ripgrep-based originals skip.
 * Covers plain and anchored patterns and directory suffixes; negations (`!`) are not supported.
 */
export function gitignorePatterns(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(root, '.gitignore'), 'utf8');
  } catch {
    return [];
  }
  const patterns: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const body = line.replace(/\/+$/, '');
    const anchored = body.startsWith('/') || body.slice(0, -1).includes('/');
    const base = anchored ? body.replace(/^\//, '') : `**/${body}`;
    patterns.push(base, `${base}/**`);
  }
  return patterns;
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

export function byMtime(paths: string[], order: 'newest-first' | 'oldest-first'): string[] {
  const stamped = paths.map((path) => ({ path, mtime: mtimeMs(path) }));
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
