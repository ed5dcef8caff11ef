// `web_search`: the checks its schema cannot make. Codex's string form needs none; rig's backend
// table must name where to search and must not hold a key (keys live in the environment, as MCP
// bearer tokens do).
import { ConfigError, formatKeyPath } from './errors.js';
import type { ConfigLayer } from './schema.js';

type Where = (path: readonly string[]) => string;

export function checkWebSearchLayer(layer: ConfigLayer, where: Where): void {
  const problems: string[] = [];
  const sections: [string[], ConfigLayer['web_search']][] = [[[], layer.web_search]];
  for (const [name, profile] of Object.entries(layer.profiles ?? {})) sections.push([['profiles', name], profile.web_search]);
  for (const [prefix, value] of sections) {
    if (value === undefined || typeof value === 'string') continue;
    const base = [...prefix, 'web_search'];
    const at = (key?: string) => where(key === undefined ? base : [...base, key]);
    if (value.api_key !== undefined) {
      problems.push(
        `${at('api_key')}: ${formatKeyPath([...base, 'api_key'])} is not supported: a key does not belong in config.toml. ` +
          'Put it in an environment variable and set api_key_env = "THAT_VARIABLE"',
      );
    }
    if (value.provider === undefined && (value.url !== undefined || value.api_key_env !== undefined)) {
      problems.push(
        `${at()}: ${formatKeyPath(base)} sets a search endpoint but no provider: add provider = "brave", "tavily", "searxng" or "custom"`,
      );
    }
    if ((value.provider === 'custom' || value.provider === 'searxng') && value.url === undefined) {
      problems.push(
        `${at('provider')}: ${formatKeyPath([...base, 'provider'])} = "${value.provider}" needs url = "https://..." (the search endpoint)`,
      );
    }
    if (value.allowed_domains?.length && value.blocked_domains?.length) {
      problems.push(
        `${at('blocked_domains')}: ${formatKeyPath(base)} sets both allowed_domains and blocked_domains: the provider's search takes one of the two; keep one`,
      );
    }
    if (value.url !== undefined && !/^https?:\/\//i.test(value.url)) {
      problems.push(`${at('url')}: invalid value for ${formatKeyPath([...base, 'url'])}: found ${JSON.stringify(value.url)}, expected an http:// or https:// URL`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
}
