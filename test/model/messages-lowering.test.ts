// Anthropic Messages request lowering: the exact body for a history with every item kind.
import { describe, expect, it } from 'vitest';
import { buildMessagesBody } from '../../src/model/wires/messages.js';
import { history } from './lowering-fixture.js';

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
