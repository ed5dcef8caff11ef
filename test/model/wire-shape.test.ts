// The layout choices a harness profile sets per wire (WireShape): each one changes exactly the
// part of the body it names, and an unset shape leaves the adapters' own form.
import { describe, expect, it } from 'vitest';
import { buildChatBody } from '../../src/model/wires/chat.js';
import { buildResponsesBody } from '../../src/model/wires/responses.js';
import { buildMessagesBody } from '../../src/model/wires/messages.js';
import type { ModelRequest, WireShape } from '../../src/model/types.js';
import { baseRequest } from './helpers.js';

const tools: ModelRequest['tools'] = [
  { kind: 'function', name: 'a', description: 'd', parameters: { type: 'object', properties: {} } },
  { kind: 'function', name: 'b', description: 'd', parameters: { type: 'object' } },
];
const request = (wireShape?: WireShape, extra: Partial<ModelRequest> = {}) =>
  baseRequest({ tools, parallelToolCalls: true, maxOutputTokens: 10, ...(wireShape ? { wireShape } : {}), ...extra });

describe('wire shapes', () => {
  it('Responses: the system prompt as a role item, items without a type field, no tool_choice / parallel_tool_calls / strict', () => {
    const body = buildResponsesBody(request({ system: 'system-item', itemTypeField: false, toolChoice: null, omitParallelToolCalls: true, omitToolStrict: true }));
    expect(body).not.toHaveProperty('instructions');
    expect(body['input']).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
    ]);
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect((body['tools'] as object[])[0]).not.toHaveProperty('strict');
    const plain = buildResponsesBody(request());
    expect(plain).toMatchObject({ instructions: 'You are a test.', tool_choice: 'auto', parallel_tool_calls: true });
    expect((plain['input'] as object[])[0]).toMatchObject({ type: 'message', role: 'user' });
  });

  it('Chat: user text as parts, the output cap field, store, no stream usage, a tool without parameters', () => {
    const body = buildChatBody(
      request({ userContent: 'parts', maxTokensField: 'max_completion_tokens', store: true, streamUsage: false, toolChoice: null, toolsWithoutParameters: ['a'] }),
    );
    expect((body['messages'] as object[])[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    expect(body).toMatchObject({ max_completion_tokens: 10, store: false });
    expect(body).not.toHaveProperty('stream_options');
    expect(body).not.toHaveProperty('tool_choice');
    const [a, b] = body['tools'] as { function: Record<string, unknown> }[];
    expect(a!.function).not.toHaveProperty('parameters');
    expect(b!.function['parameters']).toEqual({ type: 'object' });
  });

  it('Messages: cache breakpoints where the original puts them, tool_choice, effort in output_config', () => {
    const body = buildMessagesBody(
      request({ cacheControl: { lastTool: false }, toolChoice: { type: 'auto' }, effortInOutputConfig: true }, { reasoningEffort: 'xhigh', extraBody: { output_config: { effort: 'medium' } } }),
    );
    expect((body['tools'] as object[]).some((tool) => 'cache_control' in tool)).toBe(false);
    expect(body['system']).toEqual([{ type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } }]);
    expect(body['tool_choice']).toEqual({ type: 'auto' });
    // The configured effort wins over the profile's per-model default.
    expect(body['output_config']).toEqual({ effort: 'high' });
    const noCache = buildMessagesBody(request({ cacheControl: { system: false, lastMessage: false } }));
    expect(JSON.stringify(noCache['system'])).not.toContain('cache_control');
    expect(JSON.stringify(noCache['messages'])).not.toContain('cache_control');
  });

  it('puts the original\'s field order first on every wire', () => {
    const order = ['stream', 'tools', 'model'];
    expect(Object.keys(buildChatBody(request({ fieldOrder: order }))).slice(0, 3)).toEqual(order);
    expect(Object.keys(buildResponsesBody(request({ fieldOrder: order }))).slice(0, 3)).toEqual(order);
    expect(Object.keys(buildMessagesBody(request({ fieldOrder: order }))).slice(0, 3)).toEqual(order);
  });
});
