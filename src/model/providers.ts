// Model providers as data: a new OpenAI-compatible provider is one table entry. Field names are the
// config keys of `[model_providers.<id>]` (snake_case, as in Codex's config.toml).
//
// Base URLs checked against each vendor's public docs (2026-11): api-docs.deepseek.com ("base_url
// https://api.deepseek.com"), docs.z.ai ("https://api.z.ai/api/paas/v4/"), Kimi platform docs
// (api.moonshot.ai/v1, the global host; api.moonshot.cn is mainland China), Alibaba Model Studio
// docs (dashscope-intl.aliyuncs.com/compatible-mode/v1 = Singapore/international endpoint).
// Every provider has a model to fall back on, so a config that names only a provider works (as
// Codex's does): `default_model` below for the built-ins, CODEX_DEFAULT_MODEL for the user's own.
// The openai one is Codex's default; the others are OUR choice of each vendor's current flagship
// coding model, not something the vendors or Codex define; Ollama / LM Studio follow Codex's OSS
// defaults (gpt-oss 20B).
import type { WireApi } from './types.js';
import { ModelSetupError } from './errors.js';
import { COMPAT_FLAGS, type ProviderCompat } from './compat.js';

export interface ProviderInfo {
  id: string;
  name: string;
  base_url: string;
  /** Environment variable holding the API key; absent = no auth (local servers). */
  env_key?: string;
  wire_api: WireApi;
  query_params?: Record<string, string>;
  http_headers?: Record<string, string>;
  /** Header name -> environment variable whose value (when set and non-empty) is sent. */
  env_http_headers?: Record<string, string>;
  request_max_retries?: number;
  stream_max_retries?: number;
  stream_idle_timeout_ms?: number;
  /** Harness profile to use with this provider unless the user picks one. */
  harness?: string;
  /** The model used with this provider unless `model` (config or -m) names one. */
  default_model?: string;
  /** Server quirks (compat.ts); unset flags take the built-in provider's defaults. */
  compat?: ProviderCompat;
}

/**
 * The model Codex uses when none is configured: the first model of Codex 0.163's bundled catalog
 * (lowest `priority`, listed in the picker, supported in the API). A provider the user defines
 * falls back to it unless its `default_model` names another, as Codex falls back for any provider.
 */
export const CODEX_DEFAULT_MODEL = 'gpt-6.1-sol';

export const DEFAULT_REQUEST_MAX_RETRIES = 4;
export const DEFAULT_STREAM_MAX_RETRIES = 5;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;
/** Codex caps both retry counts at 100 so a typo cannot make a request retry for hours. */
export const MAX_RETRIES_CAP = 100;

const WIRE_APIS: readonly WireApi[] = ['responses', 'chat', 'messages'];

export const BUILTIN_PROVIDERS: Readonly<Record<string, ProviderInfo>> = {
  openai: {
    id: 'openai',
    name: 'OpenAI',
    base_url: 'https://api.openai.com/v1',
    env_key: 'OPENAI_API_KEY',
    wire_api: 'responses',
    default_model: CODEX_DEFAULT_MODEL,
  },
  anthropic: {
    id: 'anthropic',
    name: 'Anthropic',
    base_url: 'https://api.anthropic.com/v1',
    env_key: 'ANTHROPIC_API_KEY',
    wire_api: 'messages',
    default_model: 'claude-sonnet-4-6',
  },
  openrouter: {
    id: 'openrouter',
    name: 'OpenRouter',
    base_url: 'https://openrouter.ai/api/v1',
    env_key: 'OPENROUTER_API_KEY',
    wire_api: 'chat',
    default_model: `openai/${CODEX_DEFAULT_MODEL}`,
  },
  deepseek: {
    id: 'deepseek',
    name: 'DeepSeek',
    base_url: 'https://api.deepseek.com',
    env_key: 'DEEPSEEK_API_KEY',
    wire_api: 'chat',
    default_model: 'deepseek-v4-pro',
  },
  moonshot: {
    id: 'moonshot',
    name: 'Moonshot AI (Kimi)',
    base_url: 'https://api.moonshot.ai/v1',
    env_key: 'MOONSHOT_API_KEY',
    wire_api: 'chat',
    default_model: 'kimi-k2.6',
  },
  dashscope: {
    id: 'dashscope',
    name: 'Alibaba Cloud Model Studio (DashScope)',
    base_url: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
    env_key: 'DASHSCOPE_API_KEY',
    wire_api: 'chat',
    default_model: 'qwen3-coder-plus',
  },
  zai: {
    id: 'zai',
    name: 'Z.ai',
    base_url: 'https://api.z.ai/api/paas/v4',
    env_key: 'ZAI_API_KEY',
    wire_api: 'chat',
    default_model: 'glm-4.7',
  },
  ollama: {
    id: 'ollama',
    name: 'Ollama',
    base_url: 'http://localhost:11434/v1',
    wire_api: 'chat',
    default_model: 'gpt-oss:20b',
  },
  lmstudio: {
    id: 'lmstudio',
    name: 'LM Studio',
    base_url: 'http://localhost:1234/v1',
    wire_api: 'chat',
    default_model: 'openai/gpt-oss-20b',
  },
};

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The provider `id` with user config merged over the built-in entry (user keys win; header and
 * query maps are merged key by key). A user may define a new id; it then needs base_url.
 * `OPENAI_BASE_URL` overrides the built-in openai base URL unless the user config sets one.
 */
export function resolveProvider(
  id: string,
  userProviders: Record<string, Partial<ProviderInfo>> = {},
  env: Env = {},
): ProviderInfo {
  const builtin = BUILTIN_PROVIDERS[id];
  const user = userProviders[id];
  if (!builtin && !user) {
    const known = [...new Set([...Object.keys(BUILTIN_PROVIDERS), ...Object.keys(userProviders)])];
    throw new ModelSetupError(
      `unknown model provider '${id}'. Known providers: ${known.sort().join(', ')}. ` +
        `Define it under [model_providers.${id}] in config.toml.`,
    );
  }
  const base: Partial<ProviderInfo> = { ...builtin };
  if (id === 'openai' && env.OPENAI_BASE_URL) base.base_url = env.OPENAI_BASE_URL;
  const merged: Partial<ProviderInfo> = {
    ...base,
    ...definedOnly(user ?? {}),
    http_headers: mergeMaps(base.http_headers, user?.http_headers),
    env_http_headers: mergeMaps(base.env_http_headers, user?.env_http_headers),
    query_params: mergeMaps(base.query_params, user?.query_params),
    ...(user?.compat ? { compat: { ...base.compat, ...definedOnly(user.compat) } } : {}),
    id,
  };
  if (merged.name === undefined) merged.name = id;
  if (merged.wire_api === undefined) merged.wire_api = 'responses';
  if (merged.default_model === undefined) merged.default_model = CODEX_DEFAULT_MODEL;
  for (const key of ['http_headers', 'env_http_headers', 'query_params'] as const) {
    if (merged[key] === undefined) delete merged[key];
  }
  return validateProvider(merged);
}

function validateProvider(p: Partial<ProviderInfo>): ProviderInfo {
  const where = `model_providers.${p.id}`;
  if (typeof p.base_url !== 'string' || p.base_url === '') {
    throw new ModelSetupError(`${where}.base_url is missing: set it to the API root, e.g. "https://host/v1".`);
  }
  try {
    const url = new URL(p.base_url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ModelSetupError(`${where}.base_url "${p.base_url}" is not an http(s) URL.`);
  }
  if (!WIRE_APIS.includes(p.wire_api as WireApi)) {
    throw new ModelSetupError(
      `${where}.wire_api "${String(p.wire_api)}" is not supported: use "responses", "chat" or "messages".`,
    );
  }
  for (const key of ['request_max_retries', 'stream_max_retries', 'stream_idle_timeout_ms'] as const) {
    const value = p[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new ModelSetupError(`${where}.${key} must be a non-negative integer, got ${String(value)}.`);
    }
  }
  for (const key of Object.keys(p.compat ?? {})) {
    if (!(COMPAT_FLAGS as readonly string[]).includes(key)) {
      throw new ModelSetupError(`${where}.compat.${key} is not a known flag; known flags: ${COMPAT_FLAGS.join(', ')}.`);
    }
  }
  if (p.env_key !== undefined && (typeof p.env_key !== 'string' || p.env_key === '')) {
    throw new ModelSetupError(`${where}.env_key must be the name of an environment variable.`);
  }
  return p as ProviderInfo;
}

/**
 * The API key for `provider`, or undefined for providers without `env_key` (local servers).
 * Throws a ModelSetupError naming the variable to set.
 */
export function providerAuth(provider: ProviderInfo, env: Env): string | undefined {
  if (!provider.env_key) return undefined;
  const key = env[provider.env_key]?.trim();
  // The Codex SDK hands its key over as CODEX_API_KEY; accept it for the OpenAI provider.
  if (!key && provider.id === 'openai') {
    const sdkKey = env.CODEX_API_KEY?.trim();
    if (sdkKey) return sdkKey;
  }
  if (!key) {
    throw new ModelSetupError(
      `${provider.env_key} is not set. Export it, or pick another provider with --provider / model_provider.`,
    );
  }
  return key;
}

export function effectiveRetryLimits(provider: ProviderInfo): {
  requestMaxRetries: number;
  streamMaxRetries: number;
  streamIdleTimeoutMs: number;
} {
  return {
    requestMaxRetries: Math.min(provider.request_max_retries ?? DEFAULT_REQUEST_MAX_RETRIES, MAX_RETRIES_CAP),
    streamMaxRetries: Math.min(provider.stream_max_retries ?? DEFAULT_STREAM_MAX_RETRIES, MAX_RETRIES_CAP),
    streamIdleTimeoutMs: provider.stream_idle_timeout_ms ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  };
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function mergeMaps(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (!a && !b) return undefined;
  return { ...a, ...b };
}
