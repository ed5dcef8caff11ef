// A harness profile's per-tool `extras` (defer_loading, strict, eager_input_streaming...) reach the
// tool JSON on every wire, after the adapter's own fields, and tools without extras are unchanged.
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/model/types.js';
import { buildChatBody } from '../../src/model/wires/chat.js';
import { buildMessagesBody } from '../../src/model/wires/messages.js';
import { buildResponsesBody } from '../../src/model/wires/responses.js';

const parameters = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };

function request(): ModelRequest {
  return {
    model: 'm',
    instructions: '',
    input: [],
    tools: [
      { kind: 'function', name: 'Bash', description: 'run', parameters, strict: false, extras: { defer_loading: true } },
      { kind: 'function', name: 'Read', description: 'read', parameters },
      { kind: 'custom', name: 'apply_patch', description: 'patch', format: { type: 'text' }, extras: { eager_input_streaming: true } },
    ],
  };
}

describe('tool extras on each wire', () => {
  it('responses: merged into the top-level tool object', () => {
    const tools = buildResponsesBody(request())['tools'] as Record<string, unknown>[];
    expect(tools[0]).toEqual({ type: 'function', name: 'Bash', description: 'run', strict: false, parameters, defer_loading: true });
    expect(tools[1]).toEqual({ type: 'function', name: 'Read', description: 'read', strict: false, parameters });
    expect(tools[2]).toEqual({ type: 'custom', name: 'apply_patch', description: 'patch', format: { type: 'text' }, eager_input_streaming: true });
  });

  it('chat: merged into the function object (where `strict` lives)', () => {
    const tools = buildChatBody(request())['tools'] as { type: string; function: Record<string, unknown> }[];
    expect(tools[0]).toEqual({ type: 'function', function: { name: 'Bash', description: 'run', parameters, defer_loading: true } });
    expect(tools[1]).toEqual({ type: 'function', function: { name: 'Read', description: 'read', parameters } });
    expect(tools[2]!.function['eager_input_streaming']).toBe(true);
  });

  it('messages: merged into the tool object next to input_schema', () => {
    const tools = buildMessagesBody(request())['tools'] as Record<string, unknown>[];
    expect(tools[0]).toEqual({ name: 'Bash', description: 'run', input_schema: parameters, defer_loading: true });
    expect(tools[1]).toEqual({ name: 'Read', description: 'read', input_schema: parameters });
    expect(tools[2]!['eager_input_streaming']).toBe(true);
  });
});
