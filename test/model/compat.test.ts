// Each server quirk is a named flag on the provider (issue 11 item 6): one case per flag, showing
// the body with the flag on and off, and the defaults of the built-in providers.
import { describe, expect, it } from 'vitest';
import { buildChatBody } from '../../src/model/wires/chat.js';
import { buildResponsesBody } from '../../src/model/wires/responses.js';
import { BUILTIN_COMPAT, resolveCompat, type ProviderCompat } from '../../src/model/compat.js';
import { BUILTIN_PROVIDERS, resolveProvider } from '../../src/model/providers.js';
import type { ModelRequest, WireApi } from '../../src/model/types.js';
import { startMockProvider } from '../support/mock-provider/index.js';
import { baseRequest, clientFor, collect } from './helpers.js';

const flags = (compat: ProviderCompat, wire: WireApi = 'chat') => resolveCompat({ id: 'custom', base_url: 'http://127.0.0.1:1/v1', wire_api: wire, compat });

function conversation(extra: Partial<ModelRequest> = {}): ModelRequest {
  return baseRequest({
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'think' }] },
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'ok' },
    ],
    tools: [{ kind: 'function', name: 'shell', description: 'd', parameters: { type: 'object' } }],
    maxOutputTokens: 100,
    reasoningEffort: 'high',
    promptCacheKey: 'thread-1',
    ...extra,
  });
}

const roles = (body: Record<string, unknown>) => (body['messages'] as { role: string }[]).map((m) => m.role);

describe('provider compat flags', () => {
  it('later_system_as_user: a developer/system message after the first goes as user only where set', () => {
    expect(roles(buildChatBody(conversation(), flags({ later_system_as_user: true })))).toEqual(['system', 'user', 'user', 'assistant', 'tool']);
    expect(roles(buildChatBody(conversation(), flags({ later_system_as_user: false })))).toEqual(['system', 'system', 'user', 'assistant', 'tool']);
  });

  it('developer_role: developer messages keep their role or become system / user', () => {
    const off = { later_system_as_user: false };
    expect(roles(buildChatBody(conversation(), flags({ ...off, developer_role: 'developer' })))[1]).toBe('developer');
    expect(roles(buildChatBody(conversation(), flags({ ...off, developer_role: 'user' })))[1]).toBe('user');
    const responses = buildResponsesBody(conversation(), flags({ developer_role: 'system' }, 'responses'));
    expect((responses['input'] as { role?: string }[])[0]?.role).toBe('system');
    expect((buildResponsesBody(conversation(), flags({}, 'responses'))['input'] as { role?: string }[])[0]?.role).toBe('developer');
  });

  it('reasoning_content: the reasoning is echoed on the assistant message only where set', () => {
    const assistant = (compat: ProviderCompat) =>
      (buildChatBody(conversation(), flags(compat))['messages'] as Record<string, unknown>[]).find((m) => m['role'] === 'assistant');
    expect(assistant({ reasoning_content: true })?.['reasoning_content']).toBe('think');
    expect(assistant({ reasoning_content: false })).not.toHaveProperty('reasoning_content');
  });

  it('max_tokens_field: the server field wins over the harness; unset, the harness decides', () => {
    expect(buildChatBody(conversation(), flags({}))).toMatchObject({ max_tokens: 100 });
    expect(buildChatBody(conversation(), flags({ max_tokens_field: 'max_completion_tokens' }))).toMatchObject({ max_completion_tokens: 100 });
    const harness = conversation({ wireShape: { maxTokensField: 'max_completion_tokens' } });
    expect(buildChatBody(harness, flags({}))).toMatchObject({ max_completion_tokens: 100 });
    expect(buildChatBody(harness, flags({ max_tokens_field: 'max_tokens' }))).not.toHaveProperty('max_completion_tokens');
  });

  it('store: `store: false` is sent only to servers that take the field', () => {
    expect(buildResponsesBody(conversation(), flags({}, 'responses'))['store']).toBe(false);
    expect(buildResponsesBody(conversation(), flags({ store: false }, 'responses'))).not.toHaveProperty('store');
    // On chat only a harness asks for it (pi), and a server without the field still never gets it.
    const pi = conversation({ wireShape: { store: true } });
    expect(buildChatBody(pi, flags({}))['store']).toBe(false);
    expect(buildChatBody(pi, flags({ store: false }))).not.toHaveProperty('store');
  });

  it('stream_usage: stream_options only for servers that take it', () => {
    expect(buildChatBody(conversation(), flags({}))['stream_options']).toEqual({ include_usage: true });
    expect(buildChatBody(conversation(), flags({ stream_usage: false }))).not.toHaveProperty('stream_options');
  });

  it('encrypted_reasoning and prompt_cache_key: Responses fields a server may not take', () => {
    const on = buildResponsesBody(conversation(), flags({}, 'responses'));
    expect(on).toMatchObject({ include: ['reasoning.encrypted_content'], prompt_cache_key: 'thread-1' });
    const off = buildResponsesBody(conversation(), flags({ encrypted_reasoning: false, prompt_cache_key: false }, 'responses'));
    expect(off).not.toHaveProperty('include');
    expect(off).not.toHaveProperty('prompt_cache_key');
  });

  it('has a default per built-in provider, and a user provider on a known host gets that host\'s', () => {
    expect(Object.keys(BUILTIN_COMPAT).sort()).toEqual(Object.keys(BUILTIN_PROVIDERS).sort());
    expect(resolveCompat(resolveProvider('openai'))).toMatchObject({ developer_role: 'developer', reasoning_content: false, max_tokens_field: 'max_completion_tokens', later_system_as_user: false });
    expect(resolveCompat(resolveProvider('deepseek'))).toMatchObject({ reasoning_content: true, max_tokens_field: 'max_tokens', store: false });
    const mine = resolveProvider('ds', { ds: { base_url: 'https://api.deepseek.com/v1', wire_api: 'chat' } });
    expect(resolveCompat(mine)).toMatchObject({ store: false, max_tokens_field: 'max_tokens' });
    // The user's own flags win over the built-in defaults.
    const tuned = resolveProvider('deepseek', { deepseek: { compat: { reasoning_content: false } } });
    expect(resolveCompat(tuned)).toMatchObject({ reasoning_content: false, max_tokens_field: 'max_tokens' });
  });

  it('rejects an unknown flag, naming it and the known ones', () => {
    expect(() => resolveProvider('x', { x: { base_url: 'http://127.0.0.1:9/v1', compat: { nope: true } as ProviderCompat } })).toThrow(
      /model_providers\.x\.compat\.nope is not a known flag; known flags: developer_role, /,
    );
  });

  it('reaches the wire: a configured provider sends what its flags say', async () => {
    const mock = await startMockProvider();
    try {
      mock.enqueue({ text: 'ok' });
      const client = await clientFor(mock.url, 'chat', { compat: { max_tokens_field: 'max_completion_tokens', stream_usage: false, reasoning_content: false } });
      await collect(client.stream(conversation()));
      const body = mock.requests[0]!.body as Record<string, unknown>;
      expect(body['max_completion_tokens']).toBe(100);
      expect(body).not.toHaveProperty('stream_options');
      expect(JSON.stringify(body)).not.toContain('reasoning_content');
    } finally {
      await mock.close();
    }
  });
});
