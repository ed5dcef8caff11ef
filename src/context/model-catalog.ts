// Context windows of common models, for the auto-compaction limit. Values are input-context
// tokens from each vendor's public model pages (late 2025) and, for OpenAI models used through
// Codex, Codex's own model metadata (272K for the GPT-5 family). Config
// `model_context_window` overrides; unknown models get 128K.

export interface ModelCatalogEntry {
  /** Matched against the model name (lowercased, provider prefix stripped) as a prefix; longest wins. */
  prefix: string;
  contextWindow: number;
}

export const DEFAULT_CONTEXT_WINDOW = 128_000;

export const MODEL_CATALOG: readonly ModelCatalogEntry[] = [
  // OpenAI
  { prefix: 'gpt-5', contextWindow: 272_000 },
  { prefix: 'gpt-5-chat', contextWindow: 128_000 },
  { prefix: 'gpt-4.1', contextWindow: 1_047_576 },
  { prefix: 'gpt-4o', contextWindow: 128_000 },
  { prefix: 'gpt-4-turbo', contextWindow: 128_000 },
  { prefix: 'gpt-3.5-turbo', contextWindow: 16_385 },
  { prefix: 'o1', contextWindow: 200_000 },
  { prefix: 'o1-mini', contextWindow: 128_000 },
  { prefix: 'o3', contextWindow: 200_000 },
  { prefix: 'o4-mini', contextWindow: 200_000 },
  { prefix: 'codex-mini', contextWindow: 200_000 },
  { prefix: 'gpt-oss', contextWindow: 131_072 },
  // Anthropic (1M for Sonnet needs a beta header; the default window is 200K)
  { prefix: 'claude', contextWindow: 200_000 },
  // Google
  { prefix: 'gemini-2.5', contextWindow: 1_048_576 },
  { prefix: 'gemini-3', contextWindow: 1_048_576 },
  // DeepSeek API (V3.x chat and reasoner)
  { prefix: 'deepseek', contextWindow: 128_000 },
  // Moonshot: the first K2 preview had 128K, later K2 models 256K
  { prefix: 'kimi-k2', contextWindow: 262_144 },
  { prefix: 'kimi-k2-0711', contextWindow: 131_072 },
  // Qwen: open-weight Qwen3-Coder is 256K native; the hosted Plus/Flash offer 1M
  { prefix: 'qwen3-coder', contextWindow: 262_144 },
  { prefix: 'qwen3-coder-plus', contextWindow: 1_000_000 },
  { prefix: 'qwen3-coder-flash', contextWindow: 1_000_000 },
  // Zhipu
  { prefix: 'glm-4.5', contextWindow: 131_072 },
  { prefix: 'glm-4.6', contextWindow: 200_000 },
  // xAI
  { prefix: 'grok-code-fast', contextWindow: 256_000 },
  { prefix: 'grok-4', contextWindow: 256_000 },
];

/** `openai/gpt-5`, `accounts/fireworks/models/kimi-k2` and `Qwen/Qwen3-Coder-480B` all match by their last segment. */
function normalizeModelName(model: string): string {
  const lower = model.trim().toLowerCase();
  const slash = lower.lastIndexOf('/');
  return slash >= 0 ? lower.slice(slash + 1) : lower;
}

export function lookupModel(model: string): ModelCatalogEntry | undefined {
  const name = normalizeModelName(model);
  let best: ModelCatalogEntry | undefined;
  for (const entry of MODEL_CATALOG) {
    if (name.startsWith(entry.prefix) && (!best || entry.prefix.length > best.prefix.length)) best = entry;
  }
  return best;
}

export function contextWindowFor(model: string, configured?: number): number {
  if (configured !== undefined && configured > 0) return configured;
  return lookupModel(model)?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
}

export interface AutoCompactConfig {
  /** `model_context_window` from config. */
  model_context_window?: number;
  /** `model_auto_compact_token_limit` from config. */
  model_auto_compact_token_limit?: number;
}

/**
 * Tokens at which a thread compacts before the next turn: the configured limit capped at 90% of
 * the window (Codex's rule), or 90% of the window when none is configured.
 */
export function autoCompactLimit(model: string, config: AutoCompactConfig = {}): number {
  const ninetyPercent = Math.floor((contextWindowFor(model, config.model_context_window) * 9) / 10);
  const configured = config.model_auto_compact_token_limit;
  return configured !== undefined && configured > 0 ? Math.min(configured, ninetyPercent) : ninetyPercent;
}
