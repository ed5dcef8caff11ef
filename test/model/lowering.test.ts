// Request lowering: the exact body each wire sends for one history that uses every item kind.
// buildBody() must equal what stream() POSTs, checked against the mock's recorded request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/model/types.js';
import { buildChatBody } from '../../src/model/wires/chat.js';
import { buildMessagesBody } from '../../src/model/wires/messages.js';
import { buildResponsesBody } from '../../src/model/wires/responses.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { clientFor, collect } from './helpers.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

const history: ModelRequest = {
  model: 'm-1',
  instructions: 'SYS',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Follow the rules.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List files' }, { type: 'input_image', image_url: PNG }] },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'summary' }],
      content: [{ type: 'reasoning_text', text: 'raw thinking' }],
      encrypted_content: 'enc_1',
      signature: 'sig_1',
    },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }], id: 'msg_1' },
    { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":["ls"]}', id: 'fc_1' },
    { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: 'PATCH' },
    { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' },
    { type: 'custom_tool_call_output', call_id: 'call_2', output: 'bad patch', is_error: true },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'thanks' }] },
  ],
  tools: [
    { kind: 'function', name: 'shell', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'array' } } } },
    { kind: 'custom', name: 'apply_patch', description: 'Edit files', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
  ],
  parallelToolCalls: true,
  reasoningEffort: 'medium',
  reasoningSummary: 'auto',
  outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  promptCacheKey: 'thread-1',
  extraBody: { service_tier: 'flex' },
};

describe('responses lowering', () => {
  it('builds the Codex-shaped body', () => {
    const body = buildResponsesBody(history);
    expect(Object.keys(body)).toEqual([
      'model', 'instructions', 'input', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning',
      'store', 'stream', 'include', 'prompt_cache_key', 'text', 'service_tier',
    ]);
    expect(body).toMatchInlineSnapshot(`
      {
        "include": [
          "reasoning.encrypted_content",
        ],
        "input": [
          {
            "content": [
              {
                "text": "Follow the rules.",
                "type": "input_text",
              },
            ],
            "role": "developer",
            "type": "message",
          },
          {
            "content": [
              {
                "text": "List files",
                "type": "input_text",
              },
              {
                "image_url": "data:image/png;base64,iVBORw0KGgo=",
                "type": "input_image",
              },
            ],
            "role": "user",
            "type": "message",
          },
          {
            "content": [
              {
                "text": "raw thinking",
                "type": "reasoning_text",
              },
            ],
            "encrypted_content": "enc_1",
            "id": "rs_1",
            "summary": [
              {
                "text": "summary",
                "type": "summary_text",
              },
            ],
            "type": "reasoning",
          },
          {
            "content": [
              {
                "text": "Looking.",
                "type": "output_text",
              },
            ],
            "id": "msg_1",
            "role": "assistant",
            "type": "message",
          },
          {
            "arguments": "{"command":["ls"]}",
            "call_id": "call_1",
            "id": "fc_1",
            "name": "shell",
            "type": "function_call",
          },
          {
            "call_id": "call_2",
            "input": "PATCH",
            "name": "apply_patch",
            "type": "custom_tool_call",
          },
          {
            "call_id": "call_1",
            "output": "a.txt",
            "type": "function_call_output",
          },
          {
            "call_id": "call_2",
            "output": "bad patch",
            "type": "custom_tool_call_output",
          },
          {
            "content": [
              {
                "text": "thanks",
                "type": "input_text",
              },
            ],
            "role": "user",
            "type": "message",
          },
        ],
        "instructions": "SYS",
        "model": "m-1",
        "parallel_tool_calls": true,
        "prompt_cache_key": "thread-1",
        "reasoning": {
          "effort": "medium",
          "summary": "auto",
        },
        "service_tier": "flex",
        "store": false,
        "stream": true,
        "text": {
          "format": {
            "name": "codex_output_schema",
            "schema": {
              "properties": {
                "ok": {
                  "type": "boolean",
                },
              },
              "type": "object",
            },
            "strict": true,
            "type": "json_schema",
          },
        },
        "tool_choice": "auto",
        "tools": [
          {
            "description": "Run a command",
            "name": "shell",
            "parameters": {
              "properties": {
                "command": {
                  "type": "array",
                },
              },
              "type": "object",
            },
            "strict": false,
            "type": "function",
          },
          {
            "description": "Edit files",
            "format": {
              "definition": "start: /.+/",
              "syntax": "lark",
              "type": "grammar",
            },
            "name": "apply_patch",
            "type": "custom",
          },
        ],
      }
    `);
  });

  it('omits reasoning, include and instructions when unused', () => {
    const body = buildResponsesBody({ model: 'm', instructions: '', input: [], tools: [] });
    expect(body).toEqual({ model: 'm', input: [], tools: [], tool_choice: 'auto', parallel_tool_calls: false, store: false, stream: true });
  });
});

describe('chat lowering', () => {
  it('builds messages with system first, assistant tool_calls, reasoning_content and tool results', () => {
    const body = buildChatBody(history);
    expect(Object.keys(body)).toEqual([
      'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'stream', 'stream_options',
      'reasoning_effort', 'response_format', 'service_tier',
    ]);
    expect(body).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "SYS",
            "role": "system",
          },
          {
            "content": "Follow the rules.",
            "role": "user",
          },
          {
            "content": [
              {
                "text": "List files",
                "type": "text",
              },
              {
                "image_url": {
                  "url": "data:image/png;base64,iVBORw0KGgo=",
                },
                "type": "image_url",
              },
            ],
            "role": "user",
          },
          {
            "content": "Looking.",
            "reasoning_content": "raw thinking",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"command":["ls"]}",
                  "name": "shell",
                },
                "id": "call_1",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"input":"PATCH"}",
                  "name": "apply_patch",
                },
                "id": "call_2",
                "type": "function",
              },
            ],
          },
          {
            "content": "a.txt",
            "role": "tool",
            "tool_call_id": "call_1",
          },
          {
            "content": "bad patch",
            "role": "tool",
            "tool_call_id": "call_2",
          },
          {
            "content": "thanks",
            "role": "user",
          },
        ],
        "model": "m-1",
        "parallel_tool_calls": true,
        "reasoning_effort": "medium",
        "response_format": {
          "json_schema": {
            "name": "codex_output_schema",
            "schema": {
              "properties": {
                "ok": {
                  "type": "boolean",
                },
              },
              "type": "object",
            },
            "strict": true,
          },
          "type": "json_schema",
        },
        "service_tier": "flex",
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
        "tool_choice": "auto",
        "tools": [
          {
            "function": {
              "description": "Run a command",
              "name": "shell",
              "parameters": {
                "properties": {
                  "command": {
                    "type": "array",
                  },
                },
                "type": "object",
              },
            },
            "type": "function",
          },
          {
            "function": {
              "description": "Edit files

      Put the whole tool input in the string field \`input\`. It must match this lark grammar:
      start: /.+/",
              "name": "apply_patch",
              "parameters": {
                "additionalProperties": false,
                "properties": {
                  "input": {
                    "description": "The raw tool input, in the format described above.",
                    "type": "string",
                  },
                },
                "required": [
                  "input",
                ],
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
      }
    `);
  });
});

describe('messages lowering', () => {
  it('builds system blocks, merged turns, thinking with signature, tool_use/tool_result and cache breakpoints', () => {
    const body = buildMessagesBody(history);
    expect(Object.keys(body)).toEqual(['model', 'max_tokens', 'system', 'messages', 'tools', 'stream', 'service_tier']);
    expect(body).toMatchInlineSnapshot(`
      {
        "max_tokens": 32000,
        "messages": [
          {
            "content": [
              {
                "text": "Follow the rules.",
                "type": "text",
              },
              {
                "text": "List files",
                "type": "text",
              },
              {
                "source": {
                  "data": "iVBORw0KGgo=",
                  "media_type": "image/png",
                  "type": "base64",
                },
                "type": "image",
              },
            ],
            "role": "user",
          },
          {
            "content": [
              {
                "signature": "sig_1",
                "thinking": "raw thinking",
                "type": "thinking",
              },
              {
                "text": "Looking.",
                "type": "text",
              },
              {
                "id": "call_1",
                "input": {
                  "command": [
                    "ls",
                  ],
                },
                "name": "shell",
                "type": "tool_use",
              },
              {
                "id": "call_2",
                "input": {
                  "input": "PATCH",
                },
                "name": "apply_patch",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "a.txt",
                "tool_use_id": "call_1",
                "type": "tool_result",
              },
              {
                "content": "bad patch",
                "is_error": true,
                "tool_use_id": "call_2",
                "type": "tool_result",
              },
              {
                "cache_control": {
                  "type": "ephemeral",
                },
                "text": "thanks",
                "type": "text",
              },
            ],
            "role": "user",
          },
        ],
        "model": "m-1",
        "service_tier": "flex",
        "stream": true,
        "system": [
          {
            "cache_control": {
              "type": "ephemeral",
            },
            "text": "SYS",
            "type": "text",
          },
        ],
        "tools": [
          {
            "description": "Run a command",
            "input_schema": {
              "properties": {
                "command": {
                  "type": "array",
                },
              },
              "type": "object",
            },
            "name": "shell",
          },
          {
            "cache_control": {
              "type": "ephemeral",
            },
            "description": "Edit files

      Put the whole tool input in the string field \`input\`. It must match this lark grammar:
      start: /.+/",
            "input_schema": {
              "additionalProperties": false,
              "properties": {
                "input": {
                  "description": "The raw tool input, in the format described above.",
                  "type": "string",
                },
              },
              "required": [
                "input",
              ],
              "type": "object",
            },
            "name": "apply_patch",
          },
        ],
      }
    `);
  });

  it('uses maxOutputTokens over the 32000 default', () => {
    expect(buildMessagesBody({ ...history, maxOutputTokens: 1234 }).max_tokens).toBe(1234);
    expect(buildMessagesBody(history).max_tokens).toBe(32000);
  });
});

describe.each(['responses', 'chat', 'messages'] as const)('%s: buildBody equals what stream sends', (wire) => {
  let mock: MockProvider;
  beforeAll(async () => {
    mock = await startMockProvider();
  });
  afterAll(() => mock.close());

  it('posts exactly buildBody(request) with the wire headers', async () => {
    mock.enqueue({ text: 'ok' });
    const client = await clientFor(mock.url, wire, { http_headers: { 'X-Extra': 'yes' }, query_params: { 'api-version': '7' } });
    await collect(client.stream({ ...history, sessionId: 'sess-1', extraHeaders: { 'x-harness': 'h1' } }));
    const request = await mock.waitForRequest(1);
    expect(request.body).toEqual(JSON.parse(JSON.stringify(client.buildBody(history))));
    expect(request.path).toBe({ responses: '/v1/responses', chat: '/v1/chat/completions', messages: '/v1/messages' }[wire]);
    expect(request.query).toEqual({ 'api-version': '7' });
    expect(request.headers['x-extra']).toBe('yes');
    expect(request.headers['x-harness']).toBe('h1');
    expect(request.headers.originator).toBe('rig');
    expect(request.headers.accept).toBe('text/event-stream');
    if (wire === 'messages') {
      expect(request.headers['x-api-key']).toBe('sk-test-key');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(request.headers.authorization).toBeUndefined();
    } else {
      expect(request.headers.authorization).toBe('Bearer sk-test-key');
      expect(request.headers['x-api-key']).toBeUndefined();
    }
    expect(request.headers['session-id']).toBe(wire === 'responses' ? 'sess-1' : undefined);
  });
});
