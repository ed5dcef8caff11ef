import { beforeAll, describe, expect, it } from 'vitest';
import { assistantText, messageText, userText, type ConversationItem, type MessageItem } from '../../src/protocol/index.js';
import {
  IMAGE_TOKEN_ESTIMATE,
  SUMMARY_PREFIX,
  autoCompactLimit,
  buildCompactedHistory,
  buildUserInstructionsMessage,
  contextWindowFor,
  estimateItemTokens,
  estimateTokens,
  injectBeforeLastUserMessage,
  isSummaryMessage,
  loadTokenizerSync,
  summaryRequestInput,
  SUMMARY_PROMPT,
  TokenTracker,
  truncateMiddle,
} from '../../src/context/index.js';

beforeAll(() => {
  loadTokenizerSync();
});

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

describe('buildCompactedHistory', () => {
  const history: ConversationItem[] = [
    buildUserInstructionsMessage('/repo', 'rules')!,
    userText('<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>'),
    userText('first request'),
    assistantText('ok'),
    userText('second request'),
    { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":["ls"]}' },
    { type: 'function_call_output', call_id: 'c1', output: 'a\nb' },
    userText(`${SUMMARY_PREFIX}\nold summary`),
    userText('third request'),
  ];

  it('keeps real user messages in order, then the summary; drops context and old summaries', () => {
    const out = buildCompactedHistory({ items: history, summary: '  did stuff  ' });
    expect(out.map((i) => messageText(i as MessageItem))).toEqual([
      'first request',
      'second request',
      'third request',
      `${SUMMARY_PREFIX}\ndid stuff`,
    ]);
    expect(isSummaryMessage(out.at(-1)!)).toBe(true);
    expect(out.every((i) => i.type === 'message' && i.role === 'user')).toBe(true);
  });

  it('says so when there is no summary', () => {
    const out = buildCompactedHistory({ items: [], summary: '' });
    expect(out).toEqual([userText(`${SUMMARY_PREFIX}\n(no summary available)`)]);
  });

  it('respects the budget newest first and middle-truncates the one that overflows', () => {
    const old = userText(words(3000, 'old'));
    const mid = userText(words(400, 'mid'));
    const last = userText(words(300, 'last'));
    const budget = estimateItemTokens(last) + estimateItemTokens(mid) + 500;
    const out = buildCompactedHistory({ items: [old, assistantText('x'), mid, last], summary: 's', maxUserTokens: budget });
    expect(out).toHaveLength(4);
    expect(out[1]).toBe(mid);
    expect(out[2]).toBe(last);
    const truncated = messageText(out[0] as MessageItem);
    expect(truncated).toMatch(/^old0 old1 /);
    expect(truncated).toMatch(/old2999$/);
    expect(truncated).toContain('tokens truncated]');
    const kept = out.slice(0, 3).reduce((n, i) => n + estimateItemTokens(i), 0);
    expect(kept).toBeLessThanOrEqual(budget);
  });

  it('middle-truncates the last request when it alone exceeds the budget, so compaction always shrinks', () => {
    const huge = userText(words(5000, 'big'));
    const out = buildCompactedHistory({ items: [userText('earlier'), huge], summary: 's', maxUserTokens: 1000 });
    expect(out).toHaveLength(2);
    const kept = messageText(out[0] as MessageItem);
    expect(kept).toMatch(/^big0 big1 /);
    expect(kept).toMatch(/big4999$/);
    expect(kept).toContain('tokens truncated]');
    expect(estimateItemTokens(out[0]!)).toBeLessThanOrEqual(1000);
  });

  it('keeps a last request that fits the budget verbatim (the same item)', () => {
    const last = userText(words(100, 'fits'));
    expect(buildCompactedHistory({ items: [last], summary: 's', maxUserTokens: 1000 })[0]).toBe(last);
  });

  it('drops an older message rather than keeping a tiny stub', () => {
    const last = userText(words(100, 'l'));
    const out = buildCompactedHistory({ items: [userText(words(500, 'o')), last], summary: 's', maxUserTokens: estimateItemTokens(last) + 20 });
    expect(out).toEqual([last, userText(`${SUMMARY_PREFIX}\ns`)]);
  });

  it('re-injects initial context before the last user request for mid-turn compaction', () => {
    const ctx = buildUserInstructionsMessage('/repo', 'rules')!;
    const compacted = buildCompactedHistory({ items: [userText('a'), userText('b')], summary: 's' });
    const out = injectBeforeLastUserMessage(compacted, [ctx]);
    expect(out.map((i) => messageText(i as MessageItem).slice(0, 9))).toEqual(['a', '# AGENTS.', 'b', '[Context ']);
    expect(injectBeforeLastUserMessage([assistantText('x')], [ctx])).toEqual([ctx, assistantText('x')]);
  });

  it('builds the summary request and the rollout record', () => {
    const input = summaryRequestInput([userText('q')]);
    expect(input.at(-1)).toEqual(userText(SUMMARY_PROMPT));
  });
});

describe('token estimates', () => {
  it('counts with the tokenizer and falls back to bytes/4 for huge text', () => {
    expect(estimateTokens('hello world')).toBe(2);
    // Special-token text is ordinary text here, never an exception.
    expect(estimateTokens('see <|endoftext|> and <|im_start|>')).toBeGreaterThan(5);
    const huge = 'x'.repeat(2_000_000);
    expect(estimateTokens(huge)).toBe(500_000);
    const items: ConversationItem[] = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello world' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA' }] },
      { type: 'function_call', call_id: 'c', name: 'shell', arguments: '' },
    ];
    expect(estimateTokens(items)).toBe(2 + IMAGE_TOKEN_ESTIMATE + 4 + 1 + 4);
  });

  it('truncateMiddle keeps both ends', () => {
    const text = words(1000, 'w');
    const out = truncateMiddle(text, 100);
    expect(estimateTokens(out)).toBeLessThanOrEqual(100);
    expect(estimateTokens(out)).toBeGreaterThan(80);
    expect(out.startsWith('w0 ')).toBe(true);
    expect(out.endsWith('w999')).toBe(true);
    expect(truncateMiddle('short', 100)).toBe('short');
  });

  it('TokenTracker uses the provider report plus estimates of newer items', () => {
    const tracker = new TokenTracker(50);
    const history: ConversationItem[] = [userText('hello world')];
    expect(tracker.current(history)).toBe(50 + 6);
    history.push(assistantText('hi'));
    tracker.recordUsage({ input_tokens: 1000, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 0 }, history.length);
    expect(tracker.current(history)).toBe(1020);
    history.push(userText('hello world'));
    expect(tracker.current(history)).toBe(1026);
    tracker.reset();
    expect(tracker.current(history)).toBe(50 + estimateTokens(history));
  });
});

describe('model catalog and auto-compact limit', () => {
  it('knows common models and defaults to 128K', () => {
    expect(contextWindowFor('gpt-5.1-codex')).toBe(272_000);
    expect(contextWindowFor('openai/gpt-4.1-mini')).toBe(1_047_576);
    expect(contextWindowFor('o3')).toBe(200_000);
    expect(contextWindowFor('claude-sonnet-4-5')).toBe(200_000);
    expect(contextWindowFor('moonshotai/kimi-k2-0711-preview')).toBe(131_072);
    expect(contextWindowFor('kimi-k2-0905-preview')).toBe(262_144);
    expect(contextWindowFor('Qwen/Qwen3-Coder-480B-A35B-Instruct')).toBe(262_144);
    expect(contextWindowFor('glm-4.6')).toBe(200_000);
    expect(contextWindowFor('gpt-oss-120b')).toBe(131_072);
    expect(contextWindowFor('deepseek-chat')).toBe(128_000);
    expect(contextWindowFor('some-new-model')).toBe(128_000);
    expect(contextWindowFor('some-new-model', 50_000)).toBe(50_000);
  });

  it('is 90% of the window, and a configured limit is capped there', () => {
    expect(autoCompactLimit('gpt-5')).toBe(244_800);
    expect(autoCompactLimit('gpt-5', { model_auto_compact_token_limit: 100_000 })).toBe(100_000);
    expect(autoCompactLimit('gpt-5', { model_auto_compact_token_limit: 999_999 })).toBe(244_800);
    expect(autoCompactLimit('x', { model_context_window: 10_000 })).toBe(9_000);
  });
});
