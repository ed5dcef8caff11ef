// The text-protocol driver on its own: what each kind of reply turns into (a hidden tool call, a
// format error, the end of the task), the format-error cap, the Terminus completion after its
// last commands, mini-swe-agent's sentinel, and what reaches the wire.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationItem, ModelEvent } from '../../src/protocol/index.js';
import type { ModelRequest } from '../../src/model/types.js';
import { builtinProfileDir, readProfileFile } from '../../src/harness/loader.js';
import { shapeRequest } from '../../src/harness/request-shape.js';
import {
  FORMAT_ERROR_TOOL,
  MAX_CONSECUTIVE_FORMAT_ERRORS,
  TextProtocolClient,
  textProtocolFor,
} from '../../src/harness/text-protocol/index.js';
import { SWE_AGENT_FORMAT_ERROR } from '../../src/harness/text-actions/swe-agent.js';
import { MINI_SWE_FORMAT_ERROR } from '../../src/harness/text-actions/mini-swe-agent.js';
import { buildResponsesBody } from '../../src/model/wires/responses.js';
import { ScriptedClient, call, callTools, say } from '../support/scripted-client.js';

function driver(id: string, steps: ModelEvent[][]) {
  const profile = readProfileFile(join(builtinProfileDir(), `${id}.json`), 'builtin');
  const inner = new ScriptedClient(steps);
  const protocol = textProtocolFor(profile);
  if (!protocol) throw new Error(`${id} has no text protocol`);
  return { profile, inner, client: new TextProtocolClient(inner, protocol) };
}

function request(input: ConversationItem[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }]): ModelRequest {
  return { model: 'm', instructions: '', input, tools: [] };
}

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function calls(events: ModelEvent[]) {
  return events.flatMap((event) => (event.type === 'item_done' && event.item.type === 'function_call' ? [event.item] : []));
}

describe('which profiles get the driver', () => {
  it('swe-agent, terminus-2 and mini-swe-agent do; tool-calling profiles do not', () => {
    const has = (id: string) => textProtocolFor(readProfileFile(join(builtinProfileDir(), `${id}.json`), 'builtin')) !== undefined;
    expect(['swe-agent', 'terminus-2', 'mini-swe-agent'].map(has)).toEqual([true, true, true]);
    expect(['native', 'claude-code', 'pi', 'kimi-code'].map(has)).toEqual([false, false, false, false]);
  });
});

describe('swe-agent', () => {
  it('a fenced command becomes a bash call with a step-derived id, after the reply text', async () => {
    const { client } = driver('swe-agent', [say('DISCUSSION\nlist\n\n```\nls -la\n```')]);
    const events = await collect(client.stream(request()));
    const types = events.map((event) => (event.type === 'item_done' ? `${event.type}:${event.item.type}` : event.type));
    expect(types).toEqual(['created', 'text_delta', 'item_done:message', 'item_done:function_call', 'completed']);
    expect(calls(events)).toEqual([{ type: 'function_call', call_id: 'text_1', name: 'bash', arguments: '{"command":"ls -la"}' }]);
    expect(events.at(-1)).toMatchObject({ type: 'completed', stop_reason: 'tool_use' });
  });

  it('a str_replace_editor line becomes an editor call with parsed flags', async () => {
    const { client } = driver('swe-agent', [say('```\nstr_replace_editor str_replace /r/a.py --old_str "x = 1" --new_str \'x = 2\'\n```')]);
    const [editor] = calls(await collect(client.stream(request())));
    expect(editor?.name).toBe('str_replace_editor');
    expect(JSON.parse(editor!.arguments)).toEqual({ command: 'str_replace', path: '/r/a.py', old_str: 'x = 1', new_str: 'x = 2' });
  });

  it('no command: a format_error call carrying the correction message; submit: no call', async () => {
    const { client } = driver('swe-agent', [say('thinking aloud'), say('```\nsubmit\n```')]);
    const [error] = calls(await collect(client.stream(request())));
    expect(error?.name).toBe(FORMAT_ERROR_TOOL);
    expect(JSON.parse(error!.arguments)).toEqual({ message: SWE_AGENT_FORMAT_ERROR });
    expect(calls(await collect(client.stream(request())))).toEqual([]);
  });

  it('a bad editor line is a format error naming the problem', async () => {
    const { client } = driver('swe-agent', [say('```\nstr_replace_editor view /a --bogus 1\n```')]);
    const [error] = calls(await collect(client.stream(request())));
    expect(JSON.parse(error!.arguments)).toEqual({ message: 'Unknown str_replace_editor option --bogus' });
  });

  it(`after ${MAX_CONSECUTIVE_FORMAT_ERRORS} format errors in a row the reply is final`, async () => {
    const steps = Array.from({ length: MAX_CONSECUTIVE_FORMAT_ERRORS + 1 }, () => say('no command here'));
    const { client } = driver('swe-agent', steps);
    const counts: number[] = [];
    for (let i = 0; i <= MAX_CONSECUTIVE_FORMAT_ERRORS; i++) counts.push(calls(await collect(client.stream(request()))).length);
    expect(counts).toEqual([...Array(MAX_CONSECUTIVE_FORMAT_ERRORS).fill(1), 0]);
  });

  it('a reply that already calls a tool passes through untouched', async () => {
    const { client } = driver('swe-agent', [callTools(call('bash', { command: 'pwd' }, 'call_9'))]);
    expect(calls(await collect(client.stream(request())))).toEqual([call('bash', { command: 'pwd' }, 'call_9')]);
  });

  it('the Responses body carries no tools at all (a tool-calling one keeps tools: [])', () => {
    const profile = readProfileFile(join(builtinProfileDir(), 'swe-agent.json'), 'builtin');
    const responses = { wire: 'responses' as const, buildBody: buildResponsesBody, stream: new ScriptedClient([]).stream };
    const body = JSON.parse(JSON.stringify(new TextProtocolClient(responses, textProtocolFor(profile)!).buildBody(request())));
    expect(body).toEqual({ model: 'm', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }], store: false, stream: true });
    expect(buildResponsesBody(request())).toMatchObject({ tools: [], tool_choice: 'auto' });
  });
});

describe('terminus-2', () => {
  const reply = (commands: unknown[], complete = false) =>
    say(JSON.stringify({ analysis: 'a', plan: 'p', commands, ...(complete ? { task_complete: true } : {}) }));

  it('commands become one keystrokes call; a parse error is answered with the parse message', async () => {
    const { client } = driver('terminus-2', [reply([{ keystrokes: 'ls\n', duration: 0.1 }]), say('{"analysis": "a"}')]);
    const [keys] = calls(await collect(client.stream(request())));
    expect(keys?.name).toBe('keystrokes');
    expect(JSON.parse(keys!.arguments)).toEqual({ commands: [{ keystrokes: 'ls\n', duration: 0.1 }] });
    const [error] = calls(await collect(client.stream(request())));
    expect(JSON.parse(error!.arguments).message).toBe(
      'Previous response had parsing errors:\nERROR: Missing required fields: plan, commands\n\nPlease fix these issues and provide a proper JSON response.',
    );
  });

  it('task_complete with commands runs them, then ends without asking the model again', async () => {
    const text = JSON.stringify({ analysis: 'a', plan: 'p', commands: [{ keystrokes: 'make\n' }], task_complete: true });
    const { client, inner } = driver('terminus-2', [say(text)]);
    expect(calls(await collect(client.stream(request()))).map((c) => c.name)).toEqual(['keystrokes']);
    const history: ConversationItem[] = [
      ...request().input,
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'New Terminal Output:\nok' }] },
    ];
    const events = await collect(client.stream(request(history)));
    expect(events).toEqual([{ type: 'completed', stop_reason: 'end_turn' }]);
    expect(inner.requests).toHaveLength(1);
  });

  it('task_complete without commands ends at once', async () => {
    const { client } = driver('terminus-2', [reply([], true)]);
    expect(calls(await collect(client.stream(request())))).toEqual([]);
  });
});

describe('mini-swe-agent', () => {
  it('text without a tool call gets the format error; tools are still sent', async () => {
    const { client } = driver('mini-swe-agent', [say('I am done')]);
    const [error] = calls(await collect(client.stream({ ...request(), tools: [] })));
    expect(JSON.parse(error!.arguments)).toEqual({ message: MINI_SWE_FORMAT_ERROR });
  });

  it('a sentinel observation ends the turn with the submission, without a request', async () => {
    const { client, inner } = driver('mini-swe-agent', []);
    const history: ConversationItem[] = [
      ...request().input,
      call('bash', { command: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT; echo patch' }, 'call_1'),
      { type: 'function_call_output', call_id: 'call_1', output: '<returncode>0</returncode>\n<output>\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\npatch\n</output>' },
    ];
    const events = await collect(client.stream(request(history)));
    expect(events).toEqual([
      { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'patch\n' }] } },
      { type: 'completed', stop_reason: 'end_turn' },
    ]);
    expect(inner.requests).toHaveLength(0);
  });

  it('a failing sentinel command does not end the turn', async () => {
    const { client, inner } = driver('mini-swe-agent', [say('hm')]);
    const history: ConversationItem[] = [
      ...request().input,
      call('bash', { command: 'false' }, 'call_1'),
      { type: 'function_call_output', call_id: 'call_1', output: '<returncode>1</returncode>\n<output>\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n</output>' },
    ];
    await collect(client.stream(request(history)));
    expect(inner.requests).toHaveLength(1);
  });
});

describe('format errors on the wire', () => {
  it('the call disappears and its message is a plain user message (no OBSERVATION prefix)', () => {
    const profile = readProfileFile(join(builtinProfileDir(), 'swe-agent.json'), 'builtin');
    const shaped = shapeRequest(
      profile,
      request([
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hm' }] },
        call(FORMAT_ERROR_TOOL, { message: SWE_AGENT_FORMAT_ERROR }, 'text_1'),
        { type: 'function_call_output', call_id: 'text_1', output: SWE_AGENT_FORMAT_ERROR, is_error: true },
      ]),
      { now: new Date(0), cwd: '/r', os: 'linux' },
    );
    expect(shaped.input).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hm' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: SWE_AGENT_FORMAT_ERROR }] },
    ]);
  });
});
