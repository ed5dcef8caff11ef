// The web_search backend against loopback servers speaking each provider's shape, and the
// resolution of the `web_search` setting (Codex's string, rig's table) from a real config file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { formatSearchResults, resolveWebSearch, webSearch, type WebSearchBackend } from '../../src/web/index.js';
import { removeDir, tempDir } from '../support/workspace.js';
import { startServer, type TestServer } from './server.js';

const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) removeDir(d);
});

const json = (body: unknown) => () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function backend(provider: WebSearchBackend['provider'], url: string, apiKey?: string): WebSearchBackend {
  return { provider, url, ...(apiKey ? { apiKey } : {}), maxResults: 2, timeoutMs: 5000, headers: {} };
}

describe('webSearch', () => {
  test('brave: GET with the subscription token, results from web.results', async () => {
    const s = await startServer({
      '/res/v1/web/search': json({ web: { results: [{ title: 'Vitest', url: 'https://vitest.dev', description: 'Next generation <strong>testing</strong>' }, { title: 'b', url: 'https://b' }, { title: 'c', url: 'https://c' }] } }),
    });
    servers.push(s);
    const found = await webSearch('vitest docs', backend('brave', `${s.url}/res/v1/web/search`, 'brave-key'), { networkAllowed: true });
    expect(found).toEqual([
      { title: 'Vitest', url: 'https://vitest.dev', snippet: 'Next generation testing' },
      { title: 'b', url: 'https://b', snippet: '' },
    ]);
    expect(s.requests[0]).toMatchObject({ method: 'GET', url: '/res/v1/web/search?q=vitest+docs&count=2' });
    expect(s.requests[0]!.headers['x-subscription-token']).toBe('brave-key');
    expect(formatSearchResults('vitest docs', found)).toBe('Results for "vitest docs":\n1. [Vitest](https://vitest.dev)\n   Next generation testing\n2. [b](https://b)');
  });

  test('tavily: POST JSON with a bearer key; searxng: GET /search?format=json', async () => {
    const s = await startServer({
      '/search': (req) =>
        req.method === 'POST'
          ? json({ results: [{ title: 'T', url: 'https://t', content: 'tavily says' }] })()
          : json({ results: [{ title: 'S', url: 'https://s', content: 'searx says' }] })(),
    });
    servers.push(s);
    expect(await webSearch('q1', backend('tavily', `${s.url}/search`, 'tvly-1'), { networkAllowed: true })).toEqual([{ title: 'T', url: 'https://t', snippet: 'tavily says' }]);
    expect(s.requests[0]).toMatchObject({ method: 'POST', body: JSON.stringify({ query: 'q1', max_results: 2 }) });
    expect(s.requests[0]!.headers['authorization']).toBe('Bearer tvly-1');
    expect(await webSearch('q2', backend('searxng', s.url), { networkAllowed: true })).toEqual([{ title: 'S', url: 'https://s', snippet: 'searx says' }]);
    expect(s.requests[1]!.url).toBe('/search?q=q2&format=json');
  });

  test('errors say what went wrong; nothing is sent with the network off', async () => {
    const s = await startServer({ '/s': () => ({ status: 401, body: 'bad key' }) });
    servers.push(s);
    await expect(webSearch('x', backend('custom', `${s.url}/s`, 'k'), { networkAllowed: true })).rejects.toThrow('web_search: custom answered HTTP 401 (is the API key right?): bad key');
    await expect(webSearch('x', backend('custom', `${s.url}/s`), { networkAllowed: false })).rejects.toThrow(/network access is off/);
    await expect(webSearch('x', backend('custom', `${s.url}/s`), { networkAllowed: true, approve: () => false })).rejects.toThrow(/was not approved/);
    expect(s.requests).toHaveLength(1);
  });
});

describe('the web_search setting', () => {
  function config(toml: string, env: NodeJS.ProcessEnv = {}) {
    const home = tempDir('ws-home');
    dirs.push(home);
    writeFileSync(join(home, 'config.toml'), toml);
    const loaded = loadConfig({ home, cwd: home, env: { HOME: home } });
    return { resolved: resolveWebSearch(loaded.config.web_search, env), warnings: loaded.warnings, home };
  }

  test("Codex's string keeps its meaning; a table names a backend, usable once its key is set", () => {
    expect(config('web_search = "live"\n').resolved).toEqual({ mode: 'live', hosted: {} });
    expect(config('web_search = "disabled"\n').resolved).toEqual({ mode: 'disabled', hosted: {} });
    expect(config('[web_search]\nprovider = "brave"\n').resolved).toEqual({
      mode: 'live',
      hosted: {},
      unavailable: 'web_search provider "brave" needs an API key: set the environment variable BRAVE_API_KEY (or name another with web_search.api_key_env)',
    });
    expect(config('[web_search]\nprovider = "brave"\nmax_results = 3\n', { BRAVE_API_KEY: 'k' }).resolved).toEqual({
      mode: 'live',
      hosted: {},
      backend: { provider: 'brave', url: 'https://api.search.brave.com/res/v1/web/search', apiKey: 'k', maxResults: 3, timeoutMs: 15000, headers: {} },
    });
    expect(config('[web_search]\nprovider = "searxng"\nurl = "http://127.0.0.1:8888"\n').resolved.backend).toMatchObject({ provider: 'searxng', url: 'http://127.0.0.1:8888' });
    expect(config('[web_search]\nprovider = "custom"\nurl = "https://s.example/api"\nmode = "disabled"\n').resolved).toEqual({ mode: 'disabled', hosted: {} });
    // The provider's own search (Anthropic's server tool) takes its settings from the same table.
    expect(
      config('[web_search]\nmode = "cached"\nmax_uses = 3\nallowed_domains = ["docs.python.org"]\nuser_location = { city = "Lyon", country = "FR" }\n').resolved,
    ).toEqual({ mode: 'cached', hosted: { maxUses: 3, allowedDomains: ['docs.python.org'], userLocation: { city: 'Lyon', country: 'FR' } } });
  });

  test('a table that cannot work is an error naming the file, line and key', () => {
    const bad = (toml: string) => () => config(toml);
    expect(bad('[web_search]\nprovider = "custom"\n')).toThrow(/config\.toml:2: web_search\.provider = "custom" needs url = "https:\/\/\.\.\."/);
    expect(bad('[web_search]\nprovider = "brave"\napi_key = "sk-123"\n')).toThrow(/config\.toml:3: web_search\.api_key is not supported: a key does not belong in config\.toml/);
    expect(bad('[web_search]\nprovider = "bing"\n')).toThrow(ConfigError);
    expect(bad('[web_search]\nurl = "https://x"\n')).toThrow(/sets a search endpoint but no provider/);
    expect(bad('[web_search]\nmode = "live"\nallowed_domains = ["a.example"]\nblocked_domains = ["b.example"]\n')).toThrow(
      /config\.toml:4: web_search sets both allowed_domains and blocked_domains: the provider's search takes one of the two; keep one/,
    );
  });

  test('web search is in effect, so loading the setting warns about nothing', () => {
    expect(config('web_search = "live"\n').warnings).toEqual([]);
    expect(config('web_search = "disabled"\n').warnings).toEqual([]);
  });
});
