// Chat Completions servers differ in small ways; each quirk the parser tolerates has a case here.
import { describe, expect, it } from 'vitest';
import type { ModelEvent } from '../../src/protocol/index.js';
import { createChatParser } from '../../src/model/wires/chat.js';
import { backoffDelayMs, retryAfterFromHeaders, retryAfterFromText } from '../../src/model/transport/retry.js';
import { baseRequest } from './helpers.js';

function run(chunks: (object | string)[], withEnd = false): ModelEvent[] {
  const parser = createChatParser(baseRequest({ tools: [{ kind: 'custom', name: 'apply_patch', description: 'd' }] }));
  const events: ModelEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push({ data: typeof chunk === 'string' ? chunk : JSON.stringify(chunk) }));
  if (withEnd) events.push(...parser.end());
  return events;
}
const choice = (delta: object, finish_reason: string | null = null) => ({ id: 'c1', choices: [{ index: 0, delta, finish_reason }] });

describe('chat parser quirks', () => {
  it('reads `reasoning` (OpenRouter/Ollama) like `reasoning_content`', () => {
    const events = run([choice({ reasoning: 'hmm ' }), choice({ reasoning_content: 'ok' }), choice({ content: 'A' }, 'stop'), '[DONE]']);
    expect(events.filter((e) => e.type === 'reasoning_delta').map((e) => e.type === 'reasoning_delta' && e.delta)).toEqual(['hmm ', 'ok']);
    expect(events).toContainEqual({ type: 'item_done', item: { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'hmm ok' }] } });
  });

  it('tolerates tool-call chunks that repeat id and name, or omit index', () => {
    const events = run([
      choice({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'shell', arguments: '{"x"' } }] }),
      choice({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'shell', arguments: ':1}' } }] }),
      choice({ tool_calls: [{ id: 'b', type: 'function', function: { name: 'read', arguments: '{}' } }] }),
      choice({}, 'tool_calls'),
      '[DONE]',
    ]);
    const done = events.flatMap((e) => (e.type === 'item_done' ? [e.item] : []));
    expect(done).toEqual([
      { type: 'function_call', call_id: 'a', name: 'shell', arguments: '{"x":1}' },
      { type: 'function_call', call_id: 'b', name: 'read', arguments: '{}' },
    ]);
  });

  it('unwraps a custom tool sent as a JSON function with {input}', () => {
    const events = run([
      choice({ tool_calls: [{ index: 0, id: 'p', function: { name: 'apply_patch', arguments: '{"input":"*** Begin' } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: ' Patch"}' } }] }),
      choice({}, 'tool_calls'),
      '[DONE]',
    ]);
    expect(events).toContainEqual({ type: 'tool_call_started', call_id: 'p', name: 'apply_patch', kind: 'custom' });
    expect(events).toContainEqual({ type: 'item_done', item: { type: 'custom_tool_call', call_id: 'p', name: 'apply_patch', input: '*** Begin Patch' } });
  });

  it('completes without [DONE] once a finish_reason arrived, and maps DeepSeek cache hits', () => {
    const events = run(
      [choice({ content: 'hi' }, 'length'), { id: 'c1', choices: [], usage: { prompt_tokens: 50, completion_tokens: 9, prompt_cache_hit_tokens: 30 } }],
      true,
    );
    expect(events.at(-1)).toEqual({
      type: 'completed',
      stop_reason: 'max_tokens',
      response_id: 'c1',
      usage: { input_tokens: 50, cached_input_tokens: 30, cache_write_input_tokens: 0, output_tokens: 9, reasoning_output_tokens: 0 },
    });
  });

  it('treats an end without finish_reason as a broken stream', () => {
    expect(() => run([choice({ content: 'hi' })], true)).toThrow('stream closed before finish_reason');
  });
});

describe('retry timing helpers', () => {
  it('computes 200 ms x 2^(n-1) with ±10% jitter', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, () => 0.5))).toEqual([200, 400, 800, 1600]);
    expect(backoffDelayMs(1, () => 0)).toBe(180);
    expect(backoffDelayMs(1, () => 0.999999)).toBe(220);
  });

  it('reads Retry-After as seconds or an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2026-11-30T10:00:00Z');
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 10:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '3', 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterFromHeaders(new Headers(), now)).toBeUndefined();
  });

  it('reads "try again in" hints in s, ms and seconds', () => {
    expect(retryAfterFromText('Please try again in 1.5s.')).toBe(1500);
    expect(retryAfterFromText('please try again in 20ms')).toBe(20);
    expect(retryAfterFromText('Try again in 3 seconds')).toBe(3000);
    expect(retryAfterFromText('slow down')).toBeUndefined();
  });
});
