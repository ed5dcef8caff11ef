// Responses request lowering: the exact body for a history with every item kind.
import { describe, expect, it } from 'vitest';
import { buildResponsesBody } from '../../src/model/wires/responses.js';
import { history } from './lowering-fixture.js';
import { resolveCompat } from '../../src/model/compat.js';

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
  it('lowers a history item once and reuses it on later requests, unless a setting it reads changed', () => {
    const first = buildResponsesBody(history);
    const second = buildResponsesBody({ ...history, input: [...history.input] });
    const items = (body: Record<string, unknown>) => body['input'] as object[];
    expect(items(second)).toEqual(items(first));
    items(first).forEach((item, i) => expect(items(second)[i]).toBe(item));
    // The developer message under a provider that wants `system` is lowered anew.
    const asSystem = buildResponsesBody(history, { ...resolveCompat({ id: 'x', base_url: 'http://127.0.0.1:1/v1', wire_api: 'responses' }), developer_role: 'system' });
    expect(items(asSystem)[0]).toMatchObject({ role: 'system' });
    expect(items(asSystem)[0]).not.toBe(items(first)[0]);
    expect(items(buildResponsesBody(history))[0]).toMatchObject({ role: 'developer' });
  });
});
