// Request settings per wire and per model family (issue 11 item 2): the layering of by_wire and
// by_model, the Codex environment block only for the native harness, startup-context parts in the
// prompt's message, and per-wire tool reshaping.
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/model/types.js';
import { requestShapeSchema } from '../../src/harness/profile-schema.js';
import { shapeRequest } from '../../src/harness/request-shape.js';
import { effectiveSettings, reshapeSchema, reshapeTools } from '../../src/harness/request-settings.js';
import { userText } from '../../src/protocol/index.js';
import type { ResolvedTool } from '../../src/harness/profile.js';

const env = { now: new Date('2026-11-30T09:00:00Z'), cwd: '/srv/app', os: 'linux' };
const ENV_BLOCK = '<environment_context>\n  <cwd>/srv/app</cwd>\n</environment_context>';
const AGENTS = '# AGENTS.md instructions for /srv/app\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>';

function request(model = 'm1'): ModelRequest {
  return {
    model,
    instructions: '',
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: AGENTS }, { type: 'input_text', text: ENV_BLOCK }] },
      userText('fix it'),
    ],
    tools: [{ kind: 'function', name: 'read', description: 'd', parameters: { $schema: 'x', type: 'object', properties: { n: { type: 'integer', minimum: 0, default: 1 } }, additionalProperties: false } }],
  };
}

describe('request settings per wire and model', () => {
  const shape = requestShapeSchema.parse({
    max_tokens: 32000,
    by_wire: { messages: { max_tokens: 16000, extra_body: { thinking: { type: 'enabled', budget_tokens: 15999 } }, wire_shape: { tool_choice: { type: 'auto' } } } },
    by_model: [
      { match: '^claude-opus-4-[6-9]', max_tokens: 64000, by_wire: { messages: { extra_body: { thinking: { type: 'adaptive' } } } } },
      { match: 'opus', temperature: 1 },
    ],
  });

  it('base < by_wire < each matching by_model entry < its by_wire', () => {
    expect(effectiveSettings(shape, 'chat', 'gpt-5').maxTokens).toBe(32000);
    const older = effectiveSettings(shape, 'messages', 'claude-sonnet-4-5');
    expect(older).toMatchObject({ maxTokens: 16000, extraBody: { thinking: { type: 'enabled', budget_tokens: 15999 } }, wireShape: { tool_choice: { type: 'auto' } } });
    const newer = effectiveSettings(shape, 'messages', 'Claude-Opus-4-7');
    expect(newer).toMatchObject({ maxTokens: 64000, temperature: 1, extraBody: { thinking: { type: 'adaptive' } } });
    expect(effectiveSettings(shape, 'chat', 'claude-opus-4-7')).toMatchObject({ maxTokens: 64000, extraBody: {} });
  });

  it('reaches the request: output cap, body fields and the wire shape', () => {
    const shaped = shapeRequest({ prompt: 'p', request: shape }, request('claude-opus-4-6'), { ...env, wire: 'messages' });
    expect(shaped.maxOutputTokens).toBe(64000);
    expect(shaped.extraBody).toEqual({ thinking: { type: 'adaptive' } });
    expect(shaped.wireShape).toEqual({ toolChoice: { type: 'auto' } });
  });

  it('a configured effort wins over the per-model default', () => {
    const native = requestShapeSchema.parse({ by_model: [{ match: '^gpt-5', reasoning_effort: 'medium', verbosity: 'low' }] });
    expect(shapeRequest({ prompt: 'p', request: native }, request('gpt-5.5'), env)).toMatchObject({ reasoningEffort: 'medium', verbosity: 'low' });
    expect(shapeRequest({ prompt: 'p', request: native }, { ...request('gpt-5.5'), reasoningEffort: 'high' }, env).reasoningEffort).toBe('high');
    expect(shapeRequest({ prompt: 'p', request: native }, request('other'), env).reasoningEffort).toBeUndefined();
  });
});

describe('the environment_context block', () => {
  it('is dropped for every harness but the one that keeps it (native)', () => {
    const dropped = shapeRequest({ prompt: 'p', request: requestShapeSchema.parse({}) }, request(), env);
    expect(JSON.stringify(dropped.input)).not.toContain('<environment_context>');
    expect(dropped.input[0]).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: AGENTS }] });
    const kept = shapeRequest({ prompt: 'p', request: requestShapeSchema.parse({ environment_context: 'keep' }) }, request(), env);
    expect(kept.input).toEqual(request().input);
  });

  it('a message holding only the block goes with it', () => {
    const only: ModelRequest = { ...request(), input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: ENV_BLOCK }] }, userText('fix it')] };
    expect(shapeRequest({ prompt: 'p', request: requestShapeSchema.parse({}) }, only, env).input).toEqual([userText('fix it')]);
  });

  it('startup-context parts go into the prompt message, never into the injected-context message', () => {
    const shape = requestShapeSchema.parse({ startup_context: { text: 'A {{cwd}}', parts: ['B'], placement: 'first-user-message', wrap: '<r>{text}</r>' } });
    const shaped = shapeRequest({ prompt: 'p', request: shape }, request(), env);
    expect(shaped.input[0]).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: AGENTS }] });
    expect(shaped.input[1]).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '<r>A /srv/app</r>' }, { type: 'input_text', text: '<r>B</r>' }, { type: 'input_text', text: 'fix it' }],
    });
  });
});

describe('tool reshaping per wire', () => {
  const tools = request().tools;

  it('applies the named schema steps in order', () => {
    const schema = tools[0]!.kind === 'function' ? tools[0]!.parameters : {};
    expect(reshapeSchema(schema, ['drop-$schema', 'drop-numeric-bounds', 'drop-defaults', 'order-properties-required-type'])).toEqual({
      properties: { n: { type: 'integer' } },
      type: 'object',
      additionalProperties: false,
    });
    expect(Object.keys(reshapeSchema({ type: 'object', required: ['a'], properties: {} }, ['order-properties-required-type']))).toEqual(['properties', 'required', 'type']);
    expect(reshapeSchema(schema, ['drop-top-additional-properties'])).not.toHaveProperty('additionalProperties');
    // A property that happens to be called `default` or `minimum` is a parameter, not a keyword.
    expect(reshapeSchema({ type: 'object', properties: { default: { type: 'string' } } }, ['drop-defaults'])).toEqual({ type: 'object', properties: { default: { type: 'string' } } });
  });

  it('a per-wire schema and extras of the profile win; null sends no parameters object', () => {
    const declared = [
      { name: 'read', capability: 'fs.read', options: {}, exposure: 'advertised', extras: {}, at: 'tools[0]', parameters_by_wire: { chat: null, responses: { type: 'object' } }, extras_by_wire: { messages: { eager_input_streaming: true } } },
    ] as unknown as ResolvedTool[];
    expect(reshapeTools(tools, declared, 'chat', { toolSchema: [], toolExtras: {} }).withoutParameters).toEqual(['read']);
    expect(reshapeTools(tools, declared, 'responses', { toolSchema: ['drop-$schema'], toolExtras: {} }).tools[0]).toMatchObject({ parameters: { type: 'object' } });
    expect(reshapeTools(tools, declared, 'messages', { toolSchema: [], toolExtras: { strict: false } }).tools[0]).toMatchObject({ extras: { strict: false, eager_input_streaming: true } });
    const empty = [{ kind: 'function' as const, name: 'get_goal', description: 'd', parameters: { type: 'object', properties: {} } }];
    expect(reshapeTools(empty, [], 'chat', { toolSchema: ['omit-empty-parameters'], toolExtras: {} }).withoutParameters).toEqual(['get_goal']);
  });
});
