// Provider table merging/validation and the headers a client sends.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient, endpointUrl, providerHeaders } from '../../src/model/create-client.js';
import { ModelSetupError } from '../../src/model/errors.js';
import { BUILTIN_PROVIDERS, CODEX_DEFAULT_MODEL, providerAuth, resolveProvider } from '../../src/model/providers.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { baseRequest, collect } from './helpers.js';

describe('resolveProvider', () => {
  it('returns built-ins as data', () => {
    expect(resolveProvider('deepseek')).toEqual({
      id: 'deepseek',
      name: 'DeepSeek',
      base_url: 'https://api.deepseek.com',
      env_key: 'DEEPSEEK_API_KEY',
      wire_api: 'chat',
      default_model: 'deepseek-v4-pro',
    });
    expect(Object.keys(BUILTIN_PROVIDERS).sort()).toEqual(
      ['anthropic', 'dashscope', 'deepseek', 'lmstudio', 'moonshot', 'ollama', 'openai', 'openrouter', 'zai'],
    );
  });

  it('lets OPENAI_BASE_URL move the openai provider, and user config win over both', () => {
    expect(resolveProvider('openai', {}, { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }).base_url).toBe('http://127.0.0.1:1/v1');
    expect(
      resolveProvider('openai', { openai: { base_url: 'http://127.0.0.1:2/v1' } }, { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }).base_url,
    ).toBe('http://127.0.0.1:2/v1');
  });

  it('merges user keys over a built-in, header maps key by key', () => {
    const p = resolveProvider('openrouter', { openrouter: { http_headers: { 'X-Title': 'rig' }, stream_max_retries: 2 } });
    expect(p).toMatchObject({ base_url: 'https://openrouter.ai/api/v1', wire_api: 'chat', http_headers: { 'X-Title': 'rig' }, stream_max_retries: 2 });
  });

  it("accepts a new user provider, defaulting its wire to responses and its model to Codex's default", () => {
    expect(resolveProvider('corp', { corp: { base_url: 'https://llm.corp/v1', env_key: 'CORP_KEY' } })).toEqual({
      id: 'corp',
      name: 'corp',
      base_url: 'https://llm.corp/v1',
      env_key: 'CORP_KEY',
      wire_api: 'responses',
      default_model: CODEX_DEFAULT_MODEL,
    });
    expect(resolveProvider('corp', { corp: { base_url: 'https://llm.corp/v1', default_model: 'corp-coder' } }).default_model).toBe('corp-coder');
  });

  it('gives every built-in provider a default model', () => {
    for (const id of Object.keys(BUILTIN_PROVIDERS)) expect(resolveProvider(id).default_model, id).toMatch(/\S/);
    expect(resolveProvider('openai').default_model).toBe(CODEX_DEFAULT_MODEL);
  });

  it('explains what is wrong with a bad provider', () => {
    expect(() => resolveProvider('nope')).toThrow(
      "unknown model provider 'nope'. Known providers: anthropic, dashscope, deepseek, lmstudio, moonshot, ollama, openai, openrouter, zai. Define it under [model_providers.nope] in config.toml.",
    );
    expect(() => resolveProvider('x', { x: { wire_api: 'chat' } })).toThrow(
      'model_providers.x.base_url is missing: set it to the API root, e.g. "https://host/v1".',
    );
    expect(() => resolveProvider('x', { x: { base_url: 'ftp://h', wire_api: 'chat' } })).toThrow('model_providers.x.base_url "ftp://h" is not an http(s) URL.');
    expect(() => resolveProvider('x', { x: { base_url: 'http://h', wire_api: 'grpc' as never } })).toThrow(
      'model_providers.x.wire_api "grpc" is not supported: use "responses", "chat" or "messages".',
    );
    expect(() => resolveProvider('x', { x: { base_url: 'http://h', request_max_retries: -1 } })).toThrow(ModelSetupError);
  });
});

describe('providerAuth', () => {
  it('needs no key for local servers and names the variable otherwise', () => {
    expect(providerAuth(resolveProvider('ollama'), {})).toBeUndefined();
    expect(() => providerAuth(resolveProvider('openai'), {})).toThrow(
      'OPENAI_API_KEY is not set. Export it, or pick another provider with --provider / model_provider.',
    );
    expect(providerAuth(resolveProvider('openai'), { CODEX_API_KEY: 'sdk-key' })).toBe('sdk-key');
    expect(providerAuth(resolveProvider('anthropic'), { ANTHROPIC_API_KEY: ' k ' })).toBe('k');
  });
});

describe('client headers and URL', () => {
  it('appends the wire path and query params to base_url', () => {
    const p = resolveProvider('az', { az: { base_url: 'https://h.example/openai/', query_params: { 'api-version': '2025-04-01' } } });
    expect(endpointUrl(p, '/responses')).toBe('https://h.example/openai/responses?api-version=2025-04-01');
  });

  it('uses the originator override and env_http_headers, never echoing unset ones', () => {
    const p = resolveProvider('openai', { openai: { env_http_headers: { 'X-Team': 'TEAM_ID', 'X-Missing': 'NOPE' } } });
    const headers = providerHeaders(p, {
      env: { OPENAI_API_KEY: 'sk-1', CODEX_INTERNAL_ORIGINATOR_OVERRIDE: 'codex_sdk_ts', TEAM_ID: 't-9', OPENAI_PROJECT: 'proj' },
      userAgent: 'rig/0.1.0',
    });
    expect(headers).toEqual({
      'content-type': 'application/json',
      accept: 'text/event-stream',
      originator: 'codex_sdk_ts',
      'user-agent': 'rig/0.1.0',
      authorization: 'Bearer sk-1',
      'openai-project': 'proj',
      'x-team': 't-9',
    });
  });
});

describe('keys never leak into events', () => {
  let mock: MockProvider;
  beforeAll(async () => {
    mock = await startMockProvider();
  });
  afterAll(() => mock.close());

  it('does not put the key into error messages', async () => {
    mock.enqueue({ status: 401, message: 'bad key' });
    const provider = resolveProvider('m', { m: { base_url: mock.url, env_key: 'M_KEY', wire_api: 'chat' } });
    const client = await createModelClient(provider, { env: { M_KEY: 'sk-secret-123' } });
    const events = await collect(client.stream(baseRequest()));
    expect(JSON.stringify(events)).not.toContain('sk-secret-123');
    expect(events.at(-1)).toMatchObject({ error: { kind: 'auth', message: "provider 'm' returned HTTP 401: bad key. Check M_KEY." } });
  });

  it('sends user:pass@ of base_url as Basic auth and never shows the password', async () => {
    const withCredentials = mock.url.replace('http://', 'http://alice:s3cr%40t-pass@');
    // A server that echoes what it was sent back into its error (proxies do).
    mock.enqueue({ status: 404, message: 'no such deployment for alice:s3cr@t-pass' });
    const provider = resolveProvider('m', { m: { base_url: withCredentials, wire_api: 'chat' } });
    const events = await collect((await createModelClient(provider, { env: {} })).stream(baseRequest()));
    expect(mock.requests.at(-1)!.headers['authorization']).toBe(`Basic ${Buffer.from('alice:s3cr@t-pass').toString('base64')}`);
    expect(mock.requests.at(-1)!.path).toBe('/v1/chat/completions');
    const text = JSON.stringify(events);
    expect(text).not.toContain('s3cr');
    expect(events.at(-1)).toMatchObject({
      error: { kind: 'bad_request', message: expect.stringContaining(`for ${mock.url}/chat/completions: no such deployment for ***`) },
    });

    const unreachable = resolveProvider('m', { m: { base_url: 'http://bob:hunter22@127.0.0.1:9/v1', wire_api: 'chat', request_max_retries: 0 } });
    const failed = await collect((await createModelClient(unreachable, { env: {} })).stream(baseRequest()));
    expect(JSON.stringify(failed)).not.toContain('hunter22');
    expect(failed.at(-1)).toMatchObject({ error: { kind: 'connection', message: expect.stringContaining('cannot reach http://127.0.0.1:9/v1/chat/completions') } });
  });
});

describe('startup cost', () => {
  it('loads wire adapters only through dynamic import', () => {
    const source = readFileSync(new URL('../../src/model/create-client.ts', import.meta.url), 'utf8');
    const staticImports = source.split('\n').filter((line) => /^import .* from /.test(line) && !line.startsWith('import type'));
    expect(staticImports.filter((line) => /wires|transport|eventsource/.test(line))).toEqual([]);
    expect(source).toContain("import('./wires/responses.js')");
  });
});
