// The models a provider offers, from its GET /models list (OpenAI, compatible servers and
// Anthropic all answer one): sub-agents check a requested model against it, so a name that does
// not exist is an error for the model instead of a failed request later or a silent substitute.
import { endpointUrl, providerHeaders } from './create-client.js';
import type { Env, ProviderInfo } from './providers.js';

export const MODEL_LIST_TIMEOUT_MS = 5_000;

/** The model ids the provider lists; undefined when it cannot be asked or gives no usable list. */
export async function listProviderModels(provider: ProviderInfo, env: Env, timeoutMs = MODEL_LIST_TIMEOUT_MS): Promise<string[] | undefined> {
  let headers: Record<string, string>;
  try {
    headers = providerHeaders(provider, { env });
  } catch {
    return undefined;
  }
  delete headers['content-type'];
  headers.accept = 'application/json';
  try {
    const response = await fetch(endpointUrl(provider, '/models'), { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return undefined;
    }
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return undefined;
    return body.data.flatMap((entry) => (entry && typeof (entry as { id?: unknown }).id === 'string' ? [(entry as { id: string }).id] : []));
  } catch {
    return undefined;
  }
}
