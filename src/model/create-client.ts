// Builds the ModelClient for one provider. Only the adapter of the provider's wire is loaded
// (dynamic import), so starting rig never pays for the other two.
import type { ModelEvent } from '../protocol/index.js';
import type { ModelClient, ModelRequest, WireApi } from './types.js';
import { effectiveRetryLimits, providerAuth, type Env, type ProviderInfo } from './providers.js';
import type { HttpPost } from './transport/http-post.js';
import type { RetryClock } from './transport/retry.js';
import type { WireAdapter } from './transport/wire-adapter.js';
import { splitUrlCredentials } from './url.js';
import { resolveCompat } from './compat.js';

export interface CreateModelClientOptions {
  env: Env;
  /** Injected POST (tests); defaults to node:http(s), see transport/http-post.ts. */
  post?: HttpPost;
  /** Value of the `originator` header unless CODEX_INTERNAL_ORIGINATOR_OVERRIDE is set. */
  originator?: string;
  userAgent?: string;
  /** Injected sleep/random/now so retry tests run instantly and deterministically. */
  clock?: RetryClock;
}

const DEFAULT_ORIGINATOR = 'rig';

async function loadAdapter(wire: WireApi): Promise<WireAdapter> {
  switch (wire) {
    case 'responses':
      return (await import('./wires/responses.js')).responsesAdapter;
    case 'chat':
      return (await import('./wires/chat.js')).chatAdapter;
    case 'messages':
      return (await import('./wires/messages.js')).messagesAdapter;
  }
}

/**
 * base_url + path, keeping any path the base URL has and appending query_params. A `user:pass@`
 * in base_url is left out (fetch refuses it); providerHeaders sends it as Basic auth.
 */
export function endpointUrl(provider: ProviderInfo, path: string): string {
  const url = new URL(splitUrlCredentials(provider.base_url.replace(/\/+$/, '') + path).url);
  for (const [key, value] of Object.entries(provider.query_params ?? {})) url.searchParams.set(key, value);
  return url.toString();
}

/** Values no message may show: the API key, configured header values, base_url's password. */
export function providerSecrets(provider: ProviderInfo, env: Env): string[] {
  const secrets = [...splitUrlCredentials(provider.base_url).secrets];
  const key = provider.env_key ? env[provider.env_key]?.trim() : undefined;
  if (key) secrets.push(key);
  if (provider.id === 'openai' && env.CODEX_API_KEY?.trim()) secrets.push(env.CODEX_API_KEY.trim());
  for (const value of Object.values(provider.http_headers ?? {})) secrets.push(value);
  for (const name of Object.values(provider.env_http_headers ?? {})) if (env[name]) secrets.push(env[name]!);
  for (const value of Object.values(provider.query_params ?? {})) secrets.push(value);
  return secrets.filter((secret) => secret.length >= 6);
}

/** Static headers for every request of this provider (auth, versions, configured headers). */
export function providerHeaders(provider: ProviderInfo, options: CreateModelClientOptions): Record<string, string> {
  const key = providerAuth(provider, options.env);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    originator: options.env.CODEX_INTERNAL_ORIGINATOR_OVERRIDE || options.originator || DEFAULT_ORIGINATOR,
  };
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  if (provider.wire_api === 'messages') {
    headers['anthropic-version'] = '2023-06-01';
    if (key) headers['x-api-key'] = key;
  } else if (key) {
    headers.authorization = `Bearer ${key}`;
  }
  // Credentials in base_url, as HTTP clients such as Codex's send them, unless a key already signs.
  const { basicAuth } = splitUrlCredentials(provider.base_url);
  if (basicAuth && headers.authorization === undefined) headers.authorization = basicAuth;
  if (provider.id === 'openai') {
    if (options.env.OPENAI_ORGANIZATION) headers['openai-organization'] = options.env.OPENAI_ORGANIZATION;
    if (options.env.OPENAI_PROJECT) headers['openai-project'] = options.env.OPENAI_PROJECT;
  }
  for (const [name, value] of Object.entries(provider.http_headers ?? {})) headers[name.toLowerCase()] = value;
  for (const [name, envVar] of Object.entries(provider.env_http_headers ?? {})) {
    const value = options.env[envVar];
    if (value) headers[name.toLowerCase()] = value;
  }
  return headers;
}

export async function createModelClient(provider: ProviderInfo, options: CreateModelClientOptions): Promise<ModelClient> {
  const headers = providerHeaders(provider, options); // throws ModelSetupError for a missing key
  const [wireAdapter, transport, retry, http] = await Promise.all([
    loadAdapter(provider.wire_api),
    import('./transport/model-stream.js'),
    import('./transport/retry.js'),
    import('./transport/http-post.js'),
  ]);
  const compat = resolveCompat(provider);
  const adapter: WireAdapter = { ...wireAdapter, buildBody: (request) => wireAdapter.buildBody(request, compat) };
  const limits = effectiveRetryLimits(provider);
  const clock = options.clock ?? retry.realClock();
  const post = options.post ?? http.httpPost;
  const url = endpointUrl(provider, adapter.path);
  const secrets = providerSecrets(provider, options.env);
  return {
    wire: provider.wire_api,
    buildBody: (request: ModelRequest) => adapter.buildBody(request),
    stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelEvent> {
      const requestHeaders = { ...headers };
      if (provider.wire_api === 'responses' && request.sessionId) requestHeaders['session-id'] = request.sessionId;
      return transport.runModelStream(
        {
          providerId: provider.id,
          ...(provider.env_key ? { envKey: provider.env_key } : {}),
          url,
          secrets,
          headers: requestHeaders,
          post,
          requestMaxRetries: limits.requestMaxRetries,
          streamMaxRetries: limits.streamMaxRetries,
          streamIdleTimeoutMs: limits.streamIdleTimeoutMs,
          clock,
        },
        adapter,
        request,
        signal,
      );
    },
  };
}
