// Every wire parses the same scripted turn from the loopback mock into the same neutral events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationItem, ModelEvent, TokenUsage } from '../../src/protocol/index.js';
import type { WireApi } from '../../src/model/types.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { baseRequest, clientFor, collect, textOf } from './helpers.js';

const tools = baseRequest({
  tools: [
    { kind: 'function', name: 'shell', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } },
    { kind: 'custom', name: 'apply_patch', description: 'Edit files', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
  ],
});

const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch';
const fullTurn = {
  reasoning: 'Let me think about the listing first.',
  text: 'Hello there, world! Running tools now.',
  toolCalls: [
    { name: 'shell', arguments: { command: ['ls', '-la'] } },
    { name: 'apply_patch', kind: 'custom' as const, input: PATCH },
  ],
  usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 20, reasoning_output_tokens: 7 },
};

const items = (events: ModelEvent[]): ConversationItem[] =>
  events.flatMap((e) => (e.type === 'item_done' ? [e.item] : []));

const expectedUsage: Record<WireApi, TokenUsage> = {
  responses: { input_tokens: 100, cached_input_tokens: 40, cache_write_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 7 },
  chat: { input_tokens: 100, cached_input_tokens: 40, cache_write_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 7 },
  // Anthropic does not report reasoning tokens separately.
  messages: { input_tokens: 100, cached_input_tokens: 40, cache_write_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 0 },
};

const expectedReasoning: Record<WireApi, ConversationItem> = {
  responses: { type: 'reasoning', id: 'rs_mock1', summary: [{ type: 'summary_text', text: fullTurn.reasoning }], encrypted_content: 'enc_mock1' },
  chat: { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: fullTurn.reasoning }] },
  messages: { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: fullTurn.reasoning }], signature: 'sig_mock1' },
};

const callId: Record<WireApi, (i: number) => string> = {
  responses: (i) => `call_1_${i}`,
  chat: (i) => `call_1_${i}`,
  messages: (i) => `toolu_mock1_${i}`,
};

describe.each<WireApi>(['responses', 'chat', 'messages'])('%s wire stream parsing', (wire) => {
  let mock: MockProvider;
  beforeAll(async () => {
    mock = await startMockProvider();
  });
  afterAll(() => mock.close());

  it('turns text, reasoning, split tool calls, a custom tool call and usage into neutral events', async () => {
    mock.enqueue(fullTurn);
    const client = await clientFor(mock.url, wire);
    const events = await collect(client.stream(tools));

    expect(events[0]?.type).toBe('created');
    expect(textOf(events)).toBe(fullTurn.text);
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
    const reasoningDeltas = events.filter((e) => e.type === 'reasoning_delta');
    expect(reasoningDeltas.map((e) => e.delta).join('')).toBe(fullTurn.reasoning);
    expect(reasoningDeltas.every((e) => e.summary === (wire === 'responses'))).toBe(true);

    const started = events.filter((e) => e.type === 'tool_call_started');
    expect(started).toEqual([
      { type: 'tool_call_started', call_id: callId[wire](0), name: 'shell', kind: 'function' },
      { type: 'tool_call_started', call_id: callId[wire](1), name: 'apply_patch', kind: 'custom' },
    ]);
    const shellDeltas = events.filter((e) => e.type === 'tool_call_delta' && e.call_id === callId[wire](0));
    expect(shellDeltas.length).toBeGreaterThan(1);
    expect(shellDeltas.map((e) => (e.type === 'tool_call_delta' ? e.delta : '')).join('')).toBe('{"command":["ls","-la"]}');

    const done = items(events).map((item) => ('id' in item && item.type !== 'reasoning' ? { ...item, id: undefined } : item));
    expect(done).toEqual([
      expectedReasoning[wire],
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: fullTurn.text }], id: undefined },
      { type: 'function_call', call_id: callId[wire](0), name: 'shell', arguments: '{"command":["ls","-la"]}', id: undefined },
      { type: 'custom_tool_call', call_id: callId[wire](1), name: 'apply_patch', input: PATCH, id: undefined },
    ]);
    expect(events.at(-1)).toEqual({
      type: 'completed',
      stop_reason: 'tool_use',
      usage: expectedUsage[wire],
      response_id: wire === 'chat' ? 'chatcmpl-mock1' : wire === 'responses' ? 'resp_mock1' : 'msg_mock1',
    });
    expect(events.filter((e) => e.type === 'completed' || e.type === 'error')).toHaveLength(1);
  });

  it('ends a plain answer with end_turn', async () => {
    mock.enqueue({ text: 'just text' });
    const client = await clientFor(mock.url, wire);
    const events = await collect(client.stream(baseRequest()));
    expect(textOf(events)).toBe('just text');
    expect(events.at(-1)).toMatchObject({ type: 'completed', stop_reason: 'end_turn' });
  });

  it('passes malformed tool-call argument JSON through as-is and skips unparseable events', async () => {
    mock.enqueue({ malformedJson: true, toolCalls: [{ name: 'shell', arguments: '{"command": ["ls"' }] });
    const client = await clientFor(mock.url, wire);
    const events = await collect(client.stream(tools));
    expect(items(events)).toMatchObject([{ type: 'function_call', name: 'shell', arguments: '{"command": ["ls"' }]);
    expect(events.at(-1)).toMatchObject({ type: 'completed', stop_reason: 'tool_use' });
  });
});
