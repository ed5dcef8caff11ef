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
//   max_uses = 5                  # Anthropic's server search: searches per response
//   allowed_domains = ["..."]     # Anthropic: only these domains (or blocked_domains = [...])
//   user_location = { city = "Lyon", country = "FR", timezone = "Europe/Paris" }
//
// On the Messages wire "live" and "cached" both mean Anthropic's server tool: its search has no
// live/cached switch (Responses' external_web_access). max_results, timeout_ms and http_headers
// are the backend's; the provider's search has no such knobs.
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

/** How the provider's own search is asked for (Anthropic's server tool fields). */
export interface HostedSearchSettings {
  maxUses?: number;
  allowedDomains?: string[];
  blockedDomains?: string[];
  userLocation?: { city?: string; region?: string; country?: string; timezone?: string };
}

export interface ResolvedWebSearch {
  /** Codex's mode: whether web search is wanted at all, and live or cached where hosted. */
  mode: 'disabled' | 'cached' | 'live';
  /** Settings for the provider's own search, where the wire has one. */
  hosted: HostedSearchSettings;
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
  if (setting === undefined) return { mode: 'disabled', hosted: {} };
  if (typeof setting === 'string') return { mode: setting, hosted: {} };
  const hosted: HostedSearchSettings = {
    ...(setting.max_uses !== undefined ? { maxUses: setting.max_uses } : {}),
    ...(setting.allowed_domains?.length ? { allowedDomains: setting.allowed_domains } : {}),
    ...(setting.blocked_domains?.length ? { blockedDomains: setting.blocked_domains } : {}),
    ...(setting.user_location ? { userLocation: setting.user_location } : {}),
  };
  const mode = setting.mode ?? (setting.provider !== undefined ? 'live' : 'disabled');
  if (mode === 'disabled' || setting.provider === undefined) return { mode, hosted };
  const provider = setting.provider;
  const url = setting.url ?? DEFAULT_URLS[provider];
  if (url === undefined) return { mode, hosted, unavailable: `web_search provider "${provider}" needs url = "https://..." (its search endpoint)` };
  const keyEnv = setting.api_key_env ?? DEFAULT_KEY_ENVS[provider];
  const apiKey = keyEnv !== undefined ? env[keyEnv] : undefined;
  if ((provider === 'brave' || provider === 'tavily' || setting.api_key_env !== undefined) && !apiKey) {
    return {
      mode,
      hosted,
      unavailable: `web_search provider "${provider}" needs an API key: set the environment variable ${keyEnv} (or name another with web_search.api_key_env)`,
    };
  }
  return {
    mode,
    hosted,
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
