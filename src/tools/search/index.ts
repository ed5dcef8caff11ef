// The search backend the harness tools use: ripgrep when a binary is available (bundled, system or
// configured; see locate.ts), else the in-process fallback in a worker thread. Both honour nested
// .gitignore/.ignore files the way ripgrep does, skip SKIPPED_DIR_NAMES, and give the same results.
import { searchBackend, type SearchBackend } from './locate.js';
import { runOffThread } from './offthread.js';
import type { GrepNeed, GrepQuery, GrepResult, ListQuery, SearchOptions } from './types.js';
import { SearchError } from './types.js';

export interface BackendChoice {
  /** Overrides the environment's choice (tests pin each backend with it). */
  backend?: SearchBackend;
}

/** Absolute paths of the (non-ignored) files under root, unsorted. */
export async function listFiles(query: ListQuery, options: SearchOptions & BackendChoice = {}): Promise<{ paths: string[]; truncated: boolean }> {
  const backend = options.backend ?? searchBackend();
  if (backend.kind === 'ripgrep') {
    try {
      const { ripgrepList } = await import('./ripgrep.js');
      return await ripgrepList(backend.path, query, options);
    } catch (error) {
      if (!unrunnable(error)) throw error;
    }
  }
  const result = await runOffThread({ op: 'list', query }, options);
  return result as { paths: string[]; truncated: boolean };
}

export async function grepFiles(query: GrepQuery, need: GrepNeed, options: SearchOptions & BackendChoice & { stats?: boolean } = {}): Promise<GrepResult> {
  const backend = options.backend ?? searchBackend();
  if (backend.kind === 'ripgrep') {
    try {
      const { ripgrepGrep } = await import('./ripgrep.js');
      return await ripgrepGrep(backend.path, query, need, options);
    } catch (error) {
      if (!unrunnable(error)) throw error;
    }
  }
  return (await runOffThread({ op: 'grep', query, need }, options)) as GrepResult;
}

/** rg could not be started at all (removed, wrong architecture): the fallback takes over. */
function unrunnable(error: unknown): boolean {
  return error instanceof SearchError && error.kind === 'failed' && error.message.startsWith('could not run');
}

export { searchBackend, type SearchBackend } from './locate.js';
export * from './types.js';
