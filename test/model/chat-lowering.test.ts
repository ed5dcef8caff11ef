// Chat Completions request lowering: the exact body for a history with every item kind.
import { describe, expect, it } from 'vitest';
import { buildChatBody } from '../../src/model/wires/chat.js';
import { history } from './lowering-fixture.js';

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

describe('chat lowering of images in tool results', () => {
  it('names each image in the tool message and sends them in one user message after the run of tool results', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const body = buildChatBody({
      model: 'm',
      instructions: '',
      tools: [],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'look' }] },
        { type: 'function_call', call_id: 'a', name: 'Read', arguments: '{"file_path":"/x.png"}' },
        { type: 'function_call', call_id: 'b', name: 'Read', arguments: '{"file_path":"/y.txt"}' },
        { type: 'function_call_output', call_id: 'a', output: [{ type: 'input_text', text: 'x.png:' }, { type: 'input_image', image_url: png }] },
        { type: 'function_call_output', call_id: 'b', output: 'plain text' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'next' }] },
      ],
    } as never);
    const messages = body['messages'] as Record<string, unknown>[];
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'x.png:\n[image: sent in the next user message]' },
      { role: 'tool', tool_call_id: 'b', content: 'plain text' },
      { role: 'user', content: [{ type: 'text', text: 'The image returned by tool call a:' }, { type: 'image_url', image_url: { url: png } }] },
      { role: 'user', content: 'next' },
    ]);
  });
});
