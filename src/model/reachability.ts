// Whether a provider's endpoint answers, without spending tokens: one GET of its models list
// (every wire's API has one: OpenAI and compatible servers, Anthropic) with a short timeout. The
// key is sent as a request would send it, so a rejected key shows up too; it is never printed.
import { endpointUrl, providerHeaders, providerSecrets } from './create-client.js';
import type { Env, ProviderInfo } from './providers.js';
import { connectionFailure } from './transport/http-errors.js';
import { displayUrl, scrubSecrets } from './url.js';

export const REACHABILITY_TIMEOUT_MS = 5_000;

export interface Reachability {
  /** False when requests to this provider cannot work as things are. */
  ok: boolean;
  /** One line for the report. */
  message: string;
  status?: number;
}

export async function checkReachability(
  provider: ProviderInfo,
  env: Env,
  options: { timeoutMs?: number; fetch?: typeof fetch; now?: () => number } = {},
): Promise<Reachability> {
  const url = endpointUrl(provider, '/models');
  const shown = displayUrl(url);
  const timeoutMs = options.timeoutMs ?? REACHABILITY_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  let headers: Record<string, string>;
  let keySent = true;
  try {
    headers = providerHeaders(provider, { env });
  } catch {
    // No key: ask anyway; an answer still proves the server is there.
    keySent = false;
    const { env_key: _unset, ...keyless } = provider;
    headers = providerHeaders(keyless, { env });
  }
  delete headers['content-type'];
  headers.accept = 'application/json';
  const started = now();
  const secrets = providerSecrets(provider, env);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return { ok: false, message: `no answer from ${shown} within ${timeoutMs} ms: check base_url, the network, or a proxy` };
    }
    const failure = connectionFailure(error, { providerId: provider.id, url: shown, now: now() });
    return { ok: false, message: scrubSecrets(failure.message, secrets) };
  }
  await response.body?.cancel().catch(() => undefined);
  const elapsed = `${Math.max(0, now() - started)} ms`;
  const status = response.status;
  const said = `GET ${shown} answered HTTP ${status} in ${elapsed}`;
  if (response.ok) return { ok: true, status, message: `reachable (${said})` };
  if (status === 401 || status === 403) {
    if (!keySent) return { ok: true, status, message: `reachable (${said} without a key)` };
    return { ok: false, status, message: `the provider rejected the key (${said})${provider.env_key ? `: check ${provider.env_key}` : ''}` };
  }
  if (status === 404 || status === 405) {
    return { ok: true, status, message: `reachable (${said}; this server lists no models there, which is fine if requests work)` };
  }
  if (status >= 500) return { ok: false, status, message: `the provider answers with a server error (${said})` };
  return { ok: true, status, message: `reachable (${said})` };
}
