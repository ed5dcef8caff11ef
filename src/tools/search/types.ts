// What a search asks for and what it gives back, shared by the ripgrep backend, the in-process
// fallback (which may run in a worker thread, so everything here is plain structured-cloneable data)
// and the harness tools that render the results.

/** Directories every search skips unless ignored files are asked for (like the originals' rg calls). */
export const SKIPPED_DIR_NAMES = ['.git', 'node_modules', '.hg', '.svn'] as const;

/** Files larger than this are not searched for content (the originals skip them too). */
export const MAX_SEARCH_FILE_BYTES = 1024 * 1024;

/** Result lines collected before a search is stopped, so one call cannot exhaust memory. */
export const MAX_RESULT_LINES = 200_000;

export interface ListQuery {
  /** Absolute directory. */
  root: string;
  /** Also list what .gitignore/.ignore files and SKIPPED_DIR_NAMES would hide. */
  includeIgnored: boolean;
}

export interface GrepQuery {
  pattern: string;
  /** Absolute file or directory. */
  root: string;
  /** ripgrep-style `--glob` filters: a pattern without `/` matches the file name at any depth. */
  globs: string[];
  /** Globs to leave out (same form). */
  excludes: string[];
  /** File extensions the search is limited to (from a `type` argument); undefined = any. */
  extensions?: string[];
  ignoreCase: boolean;
  multiline: boolean;
  before: number;
  after: number;
  includeIgnored: boolean;
}

/** How much of each match the caller needs: the cheaper, the faster rg answers. */
export type GrepNeed = 'files' | 'counts' | 'lines';

export interface LineHit {
  line: number;
  text: string;
  /** False for context lines. */
  match: boolean;
}

export interface FileHits {
  /** Absolute path. */
  path: string;
  matches: number;
  lines: LineHit[];
}

export interface GrepResult {
  /** Sorted by path. */
  files: FileHits[];
  /** Files whose content was searched (what DeepSeek's files_searched reports). */
  searched: number;
  /** The search stopped at MAX_RESULT_LINES. */
  truncated: boolean;
}

export type SearchFailure = 'pattern' | 'timeout' | 'aborted' | 'failed';

/** A search that did not complete; `kind` tells the tool how to word it. */
export class SearchError extends Error {
  constructor(
    readonly kind: SearchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SearchError';
  }
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** Kill the search after this long (default DEFAULT_SEARCH_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Long enough for a cold cache on a large monorepo, short enough that a runaway search ends. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 20_000;

export function timeoutError(timeoutMs: number): SearchError {
  const shown = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
  return new SearchError('timeout', `Search timed out after ${shown}`);
}
