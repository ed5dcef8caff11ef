// What `web_search` asks for. Codex's string keeps Codex's meaning: "live" or "cached" ask for the
// provider's own search tool where the wire has one (the Responses API's web_search, Anthropic's
// server web search), "disabled" for none. rig's table adds a search backend rig calls itself,
// for wires without a search of their own:
//
//   [web_search]
//   provider = "brave"            # brave | tavily | searxng | custom
//   api_key_env = "BRAVE_API_KEY" # the variable holding the key (default per provider)
//   url = "https://..."           # endpoint (required for searxng and custom)
//   max_results = 5
//   timeout_ms = 15000
//   mode = "live"                 # the hosted search is still used where the wire has one
//
// A backend that cannot work (no key in the environment) is reported as unavailable, and the
// web_search tool is then left out of the request.
import type { WebSearchSetting } from '../config/schema.js';

export type SearchProvider = 'brave' | 'tavily' | 'searxng' | 'custom';

export interface WebSearchBackend {
  provider: SearchProvider;
  url: string;
  apiKey?: string;
  maxResults: number;
  timeoutMs: number;
  headers: Record<string, string>;
}

export interface ResolvedWebSearch {
  /** Codex's mode: whether web search is wanted at all, and live or cached where hosted. */
  mode: 'disabled' | 'cached' | 'live';
  /** A backend rig can call, when one is configured and usable. */
  backend?: WebSearchBackend;
  /** Why the configured backend cannot be used (shown to the user; the tool is left out). */
  unavailable?: string;
}

const DEFAULT_URLS: Partial<Record<SearchProvider, string>> = {
  brave: 'https://api.search.brave.com/res/v1/web/search',
  tavily: 'https://api.tavily.com/search',
};
const DEFAULT_KEY_ENVS: Partial<Record<SearchProvider, string>> = {
  brave: 'BRAVE_API_KEY',
  tavily: 'TAVILY_API_KEY',
};
export const DEFAULT_SEARCH_RESULTS = 5;
export const DEFAULT_SEARCH_TIMEOUT_MS = 15_000;

export function resolveWebSearch(setting: WebSearchSetting | undefined, env: NodeJS.ProcessEnv = process.env): ResolvedWebSearch {
  if (setting === undefined) return { mode: 'disabled' };
  if (typeof setting === 'string') return { mode: setting };
  const mode = setting.mode ?? (setting.provider !== undefined ? 'live' : 'disabled');
  if (mode === 'disabled' || setting.provider === undefined) return { mode };
  const provider = setting.provider;
  const url = setting.url ?? DEFAULT_URLS[provider];
  if (url === undefined) return { mode, unavailable: `web_search provider "${provider}" needs url = "https://..." (its search endpoint)` };
  const keyEnv = setting.api_key_env ?? DEFAULT_KEY_ENVS[provider];
  const apiKey = keyEnv !== undefined ? env[keyEnv] : undefined;
  if ((provider === 'brave' || provider === 'tavily' || setting.api_key_env !== undefined) && !apiKey) {
    return {
      mode,
      unavailable: `web_search provider "${provider}" needs an API key: set the environment variable ${keyEnv} (or name another with web_search.api_key_env)`,
    };
  }
  return {
    mode,
    backend: {
      provider,
      url,
      ...(apiKey ? { apiKey } : {}),
      maxResults: setting.max_results ?? DEFAULT_SEARCH_RESULTS,
      timeoutMs: setting.timeout_ms ?? DEFAULT_SEARCH_TIMEOUT_MS,
      headers: setting.http_headers ?? {},
    },
  };
}
