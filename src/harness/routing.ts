// Which harness a session uses when the config does not say, and whether a harness can speak the
// chosen wire. The defaults are a table (first matching rule wins), not code branches.
import type { WireApi } from '../model/types.js';

export interface HarnessSelectionInput {
  /** Provider id from config (e.g. `openai`, `moonshot`). */
  provider?: string;
  /** Provider display name from config. */
  providerName?: string;
  baseUrl?: string;
  model: string;
  wire: WireApi;
  /** The `harness` config value; when set it always wins. */
  configured?: string;
}

export interface DefaultHarnessRule {
  harness: string;
  /** Why, shown by `rig harness which`. */
  reason: string;
  /** Any one condition matching selects the rule. All texts are compared lower-cased. */
  when: {
    wire?: WireApi[];
    model_contains?: string[];
    model_starts_with?: string[];
    provider_contains?: string[];
    base_url_contains?: string[];
  };
}

/**
 * Z.ai comes first so its Anthropic-compatible endpoint gets the GLM harness rather than
 * claude-code; otherwise the order follows the reference's default table (§3).
 */
export const DEFAULT_HARNESS_RULES: readonly DefaultHarnessRule[] = [
  {
    harness: 'zcode',
    reason: 'Z.ai / GLM endpoint or model',
    when: {
      model_starts_with: ['glm-', 'zai/', 'z.ai/', 'z-ai/', 'zai-org/'],
      provider_contains: ['zai', 'z.ai', 'zhipu', 'bigmodel'],
      base_url_contains: ['api.z.ai', 'open.bigmodel.cn'],
    },
  },
  {
    harness: 'claude-code',
    reason: 'Anthropic-style endpoint or Claude model',
    when: {
      wire: ['messages'],
      model_contains: ['anthropic/', 'claude'],
      provider_contains: ['anthropic'],
      base_url_contains: ['api.anthropic.com'],
    },
  },
  {
    harness: 'kimi-code',
    reason: 'Kimi / Moonshot endpoint or model',
    when: {
      model_contains: ['kimi', 'moonshot'],
      provider_contains: ['kimi', 'moonshot'],
      base_url_contains: ['api.kimi.com', 'api.moonshot.ai', 'api.moonshot.cn'],
    },
  },
  {
    harness: 'qwen-code',
    reason: 'Qwen / DashScope endpoint or model',
    when: {
      model_contains: ['qwen', '/qwq'],
      model_starts_with: ['qwq'],
      provider_contains: ['qwen', 'dashscope'],
      base_url_contains: [
        'dashscope.aliyuncs.com/compatible-mode',
        'dashscope-intl.aliyuncs.com/compatible-mode',
      ],
    },
  },
  {
    harness: 'claude-code-bare',
    reason: 'DeepSeek endpoint or model',
    when: {
      model_contains: ['deepseek'],
      provider_contains: ['deepseek'],
      base_url_contains: ['api.deepseek.com'],
    },
  },
];

export const NATIVE_HARNESS = 'native';

export interface HarnessChoice {
  id: string;
  reason: string;
}

function ruleMatches(rule: DefaultHarnessRule, input: HarnessSelectionInput): boolean {
  const model = input.model.toLowerCase();
  const providerTexts = [input.provider, input.providerName]
    .filter((text): text is string => typeof text === 'string')
    .map((text) => text.toLowerCase());
  const baseUrl = (input.baseUrl ?? '').toLowerCase();
  const { when } = rule;
  return (
    (when.wire ?? []).includes(input.wire) ||
    (when.model_contains ?? []).some((needle) => model.includes(needle)) ||
    (when.model_starts_with ?? []).some((prefix) => model.startsWith(prefix)) ||
    (when.provider_contains ?? []).some((needle) => providerTexts.some((text) => text.includes(needle))) ||
    (when.base_url_contains ?? []).some((needle) => baseUrl !== '' && baseUrl.includes(needle))
  );
}

/** The harness for a session: the configured one, else the first matching default rule, else native. */
export function chooseHarness(
  input: HarnessSelectionInput,
  rules: readonly DefaultHarnessRule[] = DEFAULT_HARNESS_RULES,
): HarnessChoice {
  const configured = input.configured?.trim();
  if (configured) return { id: configured, reason: 'set by the `harness` config key' };
  for (const rule of rules) {
    if (ruleMatches(rule, input)) return { id: rule.harness, reason: rule.reason };
  }
  return { id: NATIVE_HARNESS, reason: 'no default rule matched' };
}

/** Null when the profile speaks the wire, else a message saying which wires work. */
export function checkWireSupport(profile: { id: string; wires: readonly WireApi[] }, wire: WireApi): string | null {
  if (profile.wires.includes(wire)) return null;
  return (
    `harness "${profile.id}" does not support wire_api = "${wire}"; it supports ${profile.wires
      .map((w) => `"${w}"`)
      .join(', ')}. ` + 'Set wire_api to one of those for this provider, or choose another harness with -c harness=...'
  );
}
