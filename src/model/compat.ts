// Server quirks as named flags (pi's `compat` idea): what one OpenAI-compatible or
// Anthropic-compatible server accepts, so a wire adapter never applies a fix-up to every server.
// A flag is set in `[model_providers.<id>.compat]`; unset flags take the built-in provider's
// default, then the default of a built-in whose host the base URL names, then the generic one.
//
// Facts behind the defaults: DeepSeek and Z.ai take neither `store` nor the developer role
// (pi-mono packages/ai/src/providers/openai-completions.ts, detectCompat); DeepSeek, Kimi, Qwen
// and GLM want the model's reasoning sent back as `reasoning_content` on assistant turns with tool
// calls in thinking mode; OpenAI's Chat Completions take `max_completion_tokens` (its `max_tokens`
// is deprecated and refused by reasoning models), DeepSeek and Z.ai document `max_tokens`; vLLM/Qwen chat
// templates raise on a system message after the first (Codex's DeepSeek fix-up sends them as user).
import type { WireApi } from './types.js';

export const COMPAT_FLAGS = [
  'developer_role',
  'later_system_as_user',
  'reasoning_content',
  'max_tokens_field',
  'store',
  'stream_usage',
  'encrypted_reasoning',
  'prompt_cache_key',
] as const;

export interface ProviderCompat {
  /** The role developer-role messages are sent as: `developer` (OpenAI), `system` or `user`. */
  developer_role?: 'developer' | 'system' | 'user';
  /** Chat: system (and developer) messages after the first system message are sent as user messages. */
  later_system_as_user?: boolean;
  /** Chat: the model's reasoning is sent back on assistant messages as `reasoning_content`. */
  reasoning_content?: boolean;
  /** Chat: the field the output cap goes in; unset = the harness's choice, else `max_tokens`. */
  max_tokens_field?: 'max_tokens' | 'max_completion_tokens';
  /** The server takes `store` (rig sends `store: false`); false = never send it. */
  store?: boolean;
  /** Chat: the server takes `stream_options.include_usage`. */
  stream_usage?: boolean;
  /** Responses: the server returns encrypted reasoning (`include: ["reasoning.encrypted_content"]`). */
  encrypted_reasoning?: boolean;
  /** Responses: the server takes `prompt_cache_key`. */
  prompt_cache_key?: boolean;
}

/** Every flag decided: what the adapters read. `max_tokens_field` stays optional (harness decides). */
export type ResolvedCompat = Required<Omit<ProviderCompat, 'max_tokens_field' | 'developer_role'>> &
  Pick<ProviderCompat, 'max_tokens_field'> & { developer_role: NonNullable<ProviderCompat['developer_role']> };

/** The defaults of the built-in providers, by id (see the header for the sources). */
export const BUILTIN_COMPAT: Readonly<Record<string, ProviderCompat>> = {
  openai: { developer_role: 'developer', later_system_as_user: false, reasoning_content: false, max_tokens_field: 'max_completion_tokens' },
  anthropic: {},
  // OpenRouter passes reasoning back through its own `reasoning` field and takes OpenAI's roles.
  openrouter: { developer_role: 'developer', later_system_as_user: false, reasoning_content: false },
  deepseek: { developer_role: 'system', reasoning_content: true, max_tokens_field: 'max_tokens', store: false },
  moonshot: { reasoning_content: true },
  dashscope: { reasoning_content: true },
  zai: { developer_role: 'system', reasoning_content: true, max_tokens_field: 'max_tokens', store: false },
  ollama: {},
  lmstudio: {},
};

/** Hosts that identify a built-in's server behind a provider the user named differently. */
const HOSTS: readonly (readonly [string, string])[] = [
  ['api.openai.com', 'openai'],
  ['openrouter.ai', 'openrouter'],
  ['api.deepseek.com', 'deepseek'],
  ['api.moonshot.ai', 'moonshot'],
  ['api.moonshot.cn', 'moonshot'],
  ['api.kimi.com', 'moonshot'],
  ['dashscope.aliyuncs.com', 'dashscope'],
  ['dashscope-intl.aliyuncs.com', 'dashscope'],
  ['api.z.ai', 'zai'],
  ['open.bigmodel.cn', 'zai'],
];

/**
 * The generic defaults, per wire, for a server rig knows nothing about: what most OpenAI-compatible
 * servers accept. On Chat a developer message goes as system (and, being after the first, as user);
 * on Responses the developer role is the wire's own.
 */
function genericCompat(wire: WireApi): ResolvedCompat {
  return {
    developer_role: wire === 'responses' ? 'developer' : 'system',
    later_system_as_user: true,
    reasoning_content: true,
    store: true,
    stream_usage: true,
    encrypted_reasoning: true,
    prompt_cache_key: true,
  };
}

function builtinFor(id: string, baseUrl: string): ProviderCompat {
  if (BUILTIN_COMPAT[id]) return BUILTIN_COMPAT[id]!;
  let host = '';
  try {
    host = new URL(baseUrl).host.toLowerCase();
  } catch {
    return {};
  }
  const match = HOSTS.find(([needle]) => host === needle || host.endsWith(`.${needle}`));
  return match ? BUILTIN_COMPAT[match[1]] ?? {} : {};
}

function definedOnly(compat: ProviderCompat | undefined): ProviderCompat {
  return Object.fromEntries(Object.entries(compat ?? {}).filter(([, value]) => value !== undefined)) as ProviderCompat;
}

/** The flags in force for one provider: its own, over its built-in's (by id or host), over the generic. */
export function resolveCompat(provider: { id: string; base_url: string; wire_api: WireApi; compat?: ProviderCompat }): ResolvedCompat {
  return { ...genericCompat(provider.wire_api), ...definedOnly(builtinFor(provider.id, provider.base_url)), ...definedOnly(provider.compat) };
}
