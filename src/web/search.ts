// The web_search backend client: one HTTP request to the configured provider, its answer reduced
// to titled links with a snippet. Each provider's request and answer shape is its own; `custom`
// is a GET with `q` and `count` whose answer may use any of the common shapes.
import type { WebSearchBackend } from './search-config.js';
import type { FetchApprovalRequest } from './fetch.js';

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface WebSearchOptions {
  networkAllowed: boolean;
  approve?: (request: FetchApprovalRequest) => Promise<boolean> | boolean;
  maxResults?: number;
  signal?: AbortSignal;
}

export class WebSearchError extends Error {
  override readonly name = 'WebSearchError';
}

type Json = Record<string, unknown>;

function request(backend: WebSearchBackend, query: string, count: number): { url: URL; init: RequestInit } {
  const headers: Record<string, string> = { accept: 'application/json', ...backend.headers };
  switch (backend.provider) {
    case 'brave': {
      const url = new URL(backend.url);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      if (backend.apiKey) headers['x-subscription-token'] = backend.apiKey;
      return { url, init: { method: 'GET', headers } };
    }
    case 'tavily': {
      if (backend.apiKey) headers['authorization'] = `Bearer ${backend.apiKey}`;
      headers['content-type'] = 'application/json';
      return { url: new URL(backend.url), init: { method: 'POST', headers, body: JSON.stringify({ query, max_results: count }) } };
    }
    case 'searxng': {
      const url = new URL(backend.url);
      if (!url.pathname.endsWith('/search')) url.pathname = url.pathname.replace(/\/?$/, '/search');
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      if (backend.apiKey) headers['authorization'] = `Bearer ${backend.apiKey}`;
      return { url, init: { method: 'GET', headers } };
    }
    default: {
      const url = new URL(backend.url);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      if (backend.apiKey) headers['authorization'] = `Bearer ${backend.apiKey}`;
      return { url, init: { method: 'GET', headers } };
    }
  }
}

function str(value: unknown): string {
  return typeof value === 'string' ? value.replace(/<\/?strong>/g, '').replace(/\s+/g, ' ').trim() : '';
}

function results(provider: WebSearchBackend['provider'], data: Json): SearchResult[] {
  const list = (provider === 'brave' ? (data['web'] as Json | undefined)?.['results'] : (data['results'] ?? (data['web'] as Json | undefined)?.['results'] ?? data['items'])) as unknown;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    if (item === null || typeof item !== 'object') return [];
    const r = item as Json;
    const url = str(r['url'] ?? r['link']);
    if (url === '') return [];
    return [{ title: str(r['title']) || url, url, snippet: str(r['description'] ?? r['snippet'] ?? r['content']) }];
  });
}

export async function webSearch(query: string, backend: WebSearchBackend, options: WebSearchOptions): Promise<SearchResult[]> {
  if (query.trim() === '') throw new WebSearchError('web_search: the query is empty');
  if (!options.networkAllowed) {
    throw new WebSearchError('web_search: network access is off in this sandbox, so the search was not sent');
  }
  const count = Math.min(options.maxResults ?? backend.maxResults, 20);
  const { url, init } = request(backend, query, count);
  if (options.approve && !(await options.approve({ url: url.href, host: url.host, reason: 'fetch' }))) {
    throw new WebSearchError(`web_search: the search request to ${url.host} was not approved`);
  }
  const timeout = AbortSignal.timeout(backend.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout, redirect: 'error' });
  } catch (error) {
    if (timeout.aborted) throw new WebSearchError(`web_search: ${backend.provider} did not answer within ${backend.timeoutMs} ms`);
    throw new WebSearchError(`web_search: could not reach ${url.host}: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) {
    const hint = response.status === 401 || response.status === 403 ? ' (is the API key right?)' : '';
    throw new WebSearchError(`web_search: ${backend.provider} answered HTTP ${response.status}${hint}: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new WebSearchError(`web_search: ${backend.provider} answered with something that is not JSON`);
  }
  if (data === null || typeof data !== 'object') throw new WebSearchError(`web_search: ${backend.provider} answered with an unexpected shape`);
  return results(backend.provider, data as Json).slice(0, count);
}

/** The results as the tool's text for the model. */
export function formatSearchResults(query: string, found: readonly SearchResult[]): string {
  if (found.length === 0) return `No results for "${query}".`;
  return [`Results for "${query}":`, ...found.map((r, i) => `${i + 1}. [${r.title}](${r.url})${r.snippet ? `\n   ${r.snippet}` : ''}`)].join('\n');
}
