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
  INITIAL_SCREEN_CALL_ID,
  MAX_CONSECUTIVE_FORMAT_ERRORS,
  TextProtocolClient,
  textProtocolFor,
} from '../../src/harness/text-protocol/index.js';
import { SWE_AGENT_FORMAT_ERROR, SWE_AGENT_SUBMISSION_MARKER, SWE_AGENT_TOOLS_FORMAT_ERROR } from '../../src/harness/text-actions/swe-agent.js';
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
  it('swe-agent, swe-agent-fc, terminus-2 and mini-swe-agent do; other tool-calling profiles do not', () => {
    const has = (id: string) => textProtocolFor(readProfileFile(join(builtinProfileDir(), `${id}.json`), 'builtin')) !== undefined;
    expect(['swe-agent', 'swe-agent-fc', 'terminus-2', 'mini-swe-agent'].map(has)).toEqual([true, true, true, true]);
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

  it('no command: a format_error call carrying the correction message; submit: a call of the hidden submit tool', async () => {
    const { client } = driver('swe-agent', [say('thinking aloud'), say('```\nsubmit\n```')]);
    const [error] = calls(await collect(client.stream(request())));
    expect(error?.name).toBe(FORMAT_ERROR_TOOL);
    expect(JSON.parse(error!.arguments)).toEqual({ message: SWE_AGENT_FORMAT_ERROR });
    expect(calls(await collect(client.stream(request()))).map((c) => [c.name, c.arguments])).toEqual([['submit', '{}']]);
  });

  it('an observation holding the submission ends the task with the patch, without asking the model', async () => {
    const { client, inner } = driver('swe-agent', []);
    const history: ConversationItem[] = [
      ...request().input,
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'DISCUSSION\nDone.\n\n```\nsubmit\n```' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `OBSERVATION:\n${SWE_AGENT_SUBMISSION_MARKER}\ndiff --git a/x b/x\n${SWE_AGENT_SUBMISSION_MARKER}` }] },
    ];
    expect(await collect(client.stream(request(history)))).toEqual([
      { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'diff --git a/x b/x' }] } },
      { type: 'completed', stop_reason: 'end_turn' },
    ]);
    expect(inner.requests).toHaveLength(0);
  });

  it('the user\'s own prompt naming the markers does not end anything', async () => {
    const { client, inner } = driver('swe-agent', [say('```\nls\n```')]);
    const prompt = `print ${SWE_AGENT_SUBMISSION_MARKER} twice: ${SWE_AGENT_SUBMISSION_MARKER}`;
    await collect(client.stream(request([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] }])));
    expect(inner.requests).toHaveLength(1);
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
  const assistant = (text: string): ConversationItem => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

  /** A driver that has already made its first look at the terminal. */
  async function started(steps: ModelEvent[][]) {
    const made = driver('terminus-2', steps);
    await collect(made.client.stream(request()));
    return made;
  }

  it('before the model is asked, the terminal is looked at once (an empty keystrokes call)', async () => {
    const { client, inner } = driver('terminus-2', [reply([{ keystrokes: 'ls\n', duration: 0.1 }])]);
    const first = await collect(client.stream(request()));
    expect(first).toEqual([
      { type: 'item_done', item: { type: 'function_call', call_id: INITIAL_SCREEN_CALL_ID, name: 'keystrokes', arguments: '{"commands":[]}' } },
      { type: 'completed', stop_reason: 'tool_use' },
    ]);
    expect(inner.requests).toHaveLength(0);
    expect(calls(await collect(client.stream(request()))).map((c) => c.call_id)).toEqual(['text_1']);
    expect(inner.requests).toHaveLength(1);
  });

  it('a resumed conversation (a reply already in it) is not looked at again', async () => {
    const { client, inner } = driver('terminus-2', [reply([])]);
    await collect(client.stream(request([...request().input, assistant('{}'), ...request().input])));
    expect(inner.requests).toHaveLength(1);
  });

  it('commands become one keystrokes call; warnings ride along; a parse error is answered with the parse message', async () => {
    const { client } = await started([reply([{ keystrokes: 'ls\n', duration: 0.1 }]), say('{"analysis": "a"}'), say(`ok ${JSON.stringify({ analysis: 'a', plan: 'p', commands: [] })}`)]);
    const [keys] = calls(await collect(client.stream(request())));
    expect(keys?.name).toBe('keystrokes');
    expect(JSON.parse(keys!.arguments)).toEqual({ commands: [{ keystrokes: 'ls\n', duration: 0.1 }] });
    const [error] = calls(await collect(client.stream(request())));
    expect(JSON.parse(error!.arguments).message).toBe(
      'Previous response had parsing errors:\nERROR: Missing required fields: plan, commands\n\nPlease fix these issues and provide a proper JSON response.',
    );
    const [warned] = calls(await collect(client.stream(request())));
    expect(JSON.parse(warned!.arguments)).toEqual({ commands: [], warnings: ['Extra text detected before JSON object'] });
  });

  it('the first task_complete runs its commands and asks for confirmation; the second ends the task', async () => {
    const { client, inner } = await started([reply([{ keystrokes: 'make\n' }], true), reply([], true)]);
    const [check] = calls(await collect(client.stream(request())));
    expect(JSON.parse(check!.arguments)).toEqual({ commands: [{ keystrokes: 'make\n', duration: 1 }], confirm_completion: true });
    // Confirmed: no commands, so the reply itself is the answer and no tool runs.
    expect(calls(await collect(client.stream(request())))).toEqual([]);
    expect(inner.requests).toHaveLength(2);
  });

  it('a reply without task_complete in between cancels the pending confirmation', async () => {
    const { client } = await started([reply([], true), reply([{ keystrokes: 'ls\n' }]), reply([], true)]);
    for (let i = 0; i < 2; i++) await collect(client.stream(request()));
    const [again] = calls(await collect(client.stream(request())));
    expect(JSON.parse(again!.arguments)).toMatchObject({ confirm_completion: true });
  });

  it('a confirmed task_complete with commands runs them, then ends without asking the model again', async () => {
    const text = JSON.stringify({ analysis: 'a', plan: 'p', commands: [{ keystrokes: 'make\n' }], task_complete: true });
    const { client, inner } = await started([reply([], true), say(text)]);
    await collect(client.stream(request()));
    expect(calls(await collect(client.stream(request()))).map((c) => JSON.parse(c.arguments))).toEqual([{ commands: [{ keystrokes: 'make\n', duration: 1 }] }]);
    const history: ConversationItem[] = [
      ...request().input,
      assistant(text),
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'New Terminal Output:\nok' }] },
    ];
    expect(await collect(client.stream(request(history)))).toEqual([{ type: 'completed', stop_reason: 'end_turn' }]);
    expect(inner.requests).toHaveLength(2);
  });
});

describe('swe-agent-fc (function calling)', () => {
  it('tools are sent; a reply without a call gets the function-calling format error; a submission ends the task', async () => {
    const { client, inner } = driver('swe-agent-fc', [say('I think it is fixed.')]);
    const [error] = calls(await collect(client.stream({ ...request(), tools: [] })));
    expect(JSON.parse(error!.arguments)).toEqual({ message: SWE_AGENT_TOOLS_FORMAT_ERROR });
    const history: ConversationItem[] = [
      ...request().input,
      call('submit', {}, 'call_1'),
      { type: 'function_call_output', call_id: 'call_1', output: `OBSERVATION:\n${SWE_AGENT_SUBMISSION_MARKER}\n\n${SWE_AGENT_SUBMISSION_MARKER}` },
    ];
    expect(await collect(client.stream(request(history)))).toEqual([{ type: 'completed', stop_reason: 'end_turn' }]);
    expect(inner.requests).toHaveLength(1);
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
