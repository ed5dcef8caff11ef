// One fallback search as plain data, so it can cross into a worker thread: listing (with glob
// filtering) or content search. Glob filters are compiled where the search runs.
import { fallbackGrep, fallbackList } from './fallback.js';
import { compileOverride } from './path-filter.js';
import type { GrepNeed, GrepQuery, GrepResult, ListQuery } from './types.js';

export type FallbackRequest = { op: 'list'; query: ListQuery } | { op: 'grep'; query: GrepQuery; need: GrepNeed };

export type FallbackResult = { paths: string[]; truncated: boolean } | GrepResult;

export async function runFallback(request: FallbackRequest, signal?: AbortSignal): Promise<FallbackResult> {
  if (request.op === 'list') return { paths: await fallbackList(request.query, undefined, signal), truncated: false };
  return fallbackGrep(request.query, request.need, await compileOverride(request.query), signal);
}
