// Public surface of the web room (see docs/extensibility.md).
export {
  DEFAULT_FETCH_MAX_BYTES,
  DEFAULT_FETCH_MAX_CHARS,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_REDIRECTS,
  webFetch,
  WebFetchError,
} from './fetch.js';
export type { FetchApprovalRequest, WebFetchErrorCode, WebFetchOptions, WebFetchResult } from './fetch.js';
export { htmlToMarkdown } from './html.js';
export { formatSearchResults, webSearch, WebSearchError } from './search.js';
export type { SearchResult, WebSearchOptions } from './search.js';
export { resolveWebSearch, DEFAULT_SEARCH_RESULTS, DEFAULT_SEARCH_TIMEOUT_MS } from './search-config.js';
export type { ResolvedWebSearch, SearchProvider, WebSearchBackend } from './search-config.js';
