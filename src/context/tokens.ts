// Token estimates between provider reports. The provider's usage is the truth for what it has
// seen; items added since are estimated with gpt-tokenizer (o200k) once it is loaded, bytes/4
// before that and for very large texts. The tokenizer costs ~150 ms to load, so it is loaded
// lazily and off the startup path.
import { createRequire } from 'node:module';
import type { ConversationItem, ContentPart, TokenUsage, ToolOutput } from '../protocol/index.js';

type CountTokens = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;

// Text like "<|endoftext|>" in a file or message is plain text to us; by default the tokenizer
// throws on it.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const TOKENIZER_MODULE = 'gpt-tokenizer/encoding/o200k_base';
/** Above this many characters a text is estimated (the tokenizer runs at ~30 MB/s). */
const TOKENIZER_MAX_CHARS = 512 * 1024;
/** Roughly what a high-detail image tile costs; providers differ, this errs on the safe side. */
export const IMAGE_TOKEN_ESTIMATE = 765;
/** Role/framing tokens every item costs on the wire. */
const PER_ITEM_OVERHEAD = 4;

let countTokens: CountTokens | undefined;
let loading: Promise<void> | undefined;

/** Starts loading the tokenizer; resolves when exact counts are available. */
export function loadTokenizer(): Promise<void> {
  // A literal specifier so the bundler splits the tokenizer into its own lazily loaded chunk.
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((mod) => {
    countTokens = mod.countTokens;
  });
  return loading;
}

/** Blocking load, for tools and tests where ~150 ms once does not matter. */
export function loadTokenizerSync(): void {
  if (countTokens) return;
  const mod = createRequire(import.meta.url)(TOKENIZER_MODULE) as { countTokens: CountTokens };
  countTokens = mod.countTokens;
}

export function tokenizerLoaded(): boolean {
  return countTokens !== undefined;
}

/** Tokens of one text: exact when the tokenizer is loaded and the text is not huge. */
export function estimateTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (countTokens && text.length <= TOKENIZER_MAX_CHARS) return countTokens(text, PLAIN_TEXT);
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

function partTokens(part: ContentPart): number {
  return part.type === 'input_image' ? IMAGE_TOKEN_ESTIMATE : estimateTextTokens(part.text);
}

function outputTokens(output: ToolOutput): number {
  return typeof output === 'string' ? estimateTextTokens(output) : output.reduce((n, p) => n + partTokens(p), 0);
}

function itemTokensUncached(item: ConversationItem): number {
  switch (item.type) {
    case 'message':
      return item.content.reduce((n, p) => n + partTokens(p), 0);
    case 'reasoning': {
      let n = item.summary.reduce((sum, s) => sum + estimateTextTokens(s.text), 0);
      for (const c of item.content ?? []) n += estimateTextTokens(c.text);
      // Encrypted reasoning is opaque base64: bytes/4 is the honest estimate.
      if (item.encrypted_content) n += Math.ceil(item.encrypted_content.length / 4);
      if (item.redacted_data) n += Math.ceil(item.redacted_data.length / 4);
      return n;
    }
    case 'function_call':
      return estimateTextTokens(item.name) + estimateTextTokens(item.arguments);
    case 'custom_tool_call':
      return estimateTextTokens(item.name) + estimateTextTokens(item.input);
    case 'function_call_output':
    case 'custom_tool_call_output':
      return outputTokens(item.output);
    case 'web_search_call':
      // Anthropic's blocks go back whole, encrypted page content included, and count as input.
      return estimateTextTokens(JSON.stringify(item.raw?.blocks ?? item.action ?? {}));
  }
}

// History items are not mutated once appended, so exact counts can be cached per object.
const exactCache = new WeakMap<object, number>();

export function estimateItemTokens(item: ConversationItem): number {
  const cached = exactCache.get(item);
  if (cached !== undefined) return cached;
  const exact = countTokens !== undefined;
  const n = itemTokensUncached(item) + PER_ITEM_OVERHEAD;
  if (exact) exactCache.set(item, n);
  return n;
}

export function estimateTokens(items: readonly ConversationItem[] | string): number {
  if (typeof items === 'string') return estimateTextTokens(items);
  let n = 0;
  for (const item of items) n += estimateItemTokens(item);
  return n;
}

/**
 * How full the context is: the last provider-reported request (its input plus the output that
 * joined the history) plus estimates for items appended since.
 */
export class TokenTracker {
  private reportedTokens: number | undefined;
  private reportedLength = 0;

  /** `baseline`: tokens outside the history (instructions, tool schemas), used until a report. */
  constructor(private readonly baseline = 0) {}

  /**
   * Call when a response completes. `historyLength` = number of history items once the
   * response's output items were appended.
   */
  recordUsage(usage: TokenUsage, historyLength: number): void {
    this.reportedTokens = usage.input_tokens + usage.output_tokens;
    this.reportedLength = historyLength;
  }

  /** The history was replaced (compaction, rollback): estimates only until the next report. */
  reset(): void {
    this.reportedTokens = undefined;
    this.reportedLength = 0;
  }

  current(history: readonly ConversationItem[]): number {
    if (this.reportedTokens === undefined || history.length < this.reportedLength) {
      return this.baseline + estimateTokens(history);
    }
    let n = this.reportedTokens;
    for (let i = this.reportedLength; i < history.length; i++) n += estimateItemTokens(history[i]!);
    return n;
  }
}
