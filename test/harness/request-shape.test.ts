import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/model/types.js';
import { requestShapeSchema } from '../../src/harness/profile-schema.js';
import { longDate, renderTemplate, renderToolOutput, shapeRequest } from '../../src/harness/request-shape.js';
import { userText } from '../../src/protocol/index.js';
import { INITIAL_SCREEN_CALL_ID } from '../../src/harness/text-protocol/actions.js';

const env = { now: new Date('2026-11-30T09:00:00Z'), cwd: '/srv/app', os: 'linux', tree: '/srv/app/\n└───a.txt' };

function baseRequest(): ModelRequest {
  return {
    model: 'm1',
    instructions: '',
    input: [
      userText('fix it'),
      { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'hmm' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev note' }] },
      { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: '', is_error: false },
      { type: 'function_call_output', call_id: 'c2', output: '  boom \n', is_error: true },
    ],
    tools: [],
  };
}

describe('renderTemplate', () => {
  it('fills known slots and leaves others', () => {
    expect(renderTemplate('{{cwd}} {{date}} {{long_date}} {{os}} {{model}} {{nope}} {x}', env, 'm1')).toBe(
      '/srv/app 2026-11-30 Monday, November 30, 2026 linux m1 {{nope}} {x}',
    );
  });

  it('long dates name the weekday', () => {
    expect(longDate(new Date('2026-01-01T00:00:00Z'))).toBe('Thursday, January 1, 2026');
  });
});

describe('shapeRequest', () => {
  it('with default shaping only sets the instructions', () => {
    const shape = requestShapeSchema.parse({});
    const request = baseRequest();
    const shaped = shapeRequest({ prompt: 'Hi from {{cwd}}\n', request: shape }, request, env);
    expect(shaped.instructions).toBe('Hi from /srv/app');
    expect(shaped.input).toEqual(request.input);
    expect(shaped.maxOutputTokens).toBeUndefined();
    expect(shaped.extraBody).toBeUndefined();
  });

  it('is pure: the input request is not changed', () => {
    const request = baseRequest();
    const before = JSON.stringify(request);
    const shape = requestShapeSchema.parse({ reasoning: 'drop', user_text: 'json-quoted', max_tokens: 5 });
    shapeRequest({ prompt: 'p', request: shape }, request, env);
    expect(JSON.stringify(request)).toBe(before);
  });

  it('adds the startup context and canned reply before the conversation', () => {
    const shape = requestShapeSchema.parse({
      startup_context: { text: 'Date {{long_date}} in {{cwd}}\n{{tree}}', reply: 'Thanks.' },
      max_tokens: 32000,
      temperature: 0.7,
      extra_body: { top_p: 0.95 },
      extra_headers: { 'x-test': '1' },
    });
    const shaped = shapeRequest({ prompt: 'p', request: shape }, baseRequest(), env);
    expect(shaped.input.slice(0, 3)).toEqual([
      userText('Date Monday, November 30, 2026 in /srv/app\n/srv/app/\n└───a.txt'),
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Thanks.' }] },
      userText('fix it'),
    ]);
    expect(shaped.maxOutputTokens).toBe(32000);
    expect(shaped.temperature).toBe(0.7);
    expect(shaped.extraBody).toEqual({ top_p: 0.95 });
    expect(shaped.extraHeaders).toEqual({ 'x-test': '1' });
  });

  it('drops reasoning, quotes user text and re-roles developer messages when asked', () => {
    const shape = requestShapeSchema.parse({ reasoning: 'drop', user_text: 'json-quoted', developer_role: 'user' });
    const shaped = shapeRequest({ prompt: 'p', request: shape }, baseRequest(), env);
    expect(shaped.input.map((item) => item.type)).toEqual([
      'message', 'message', 'function_call', 'function_call_output', 'function_call_output',
    ]);
    expect(shaped.input[0]).toEqual(userText('"fix it"'));
    expect(shaped.input[1]).toMatchObject({ role: 'user' });
  });

  it('renders text-protocol observations as user messages', () => {
    const shape = requestShapeSchema.parse({
      stream: false,
      tool_results: { as_user_message: true, prefix: 'OBSERVATION:\n', empty_output: '(nothing)' },
    });
    const shaped = shapeRequest({ prompt: 'p', request: shape }, baseRequest(), env);
    expect(shaped.input.filter((item) => item.type === 'function_call')).toEqual([]);
    expect(shaped.input.slice(-2)).toEqual([userText('OBSERVATION:\n(nothing)'), userText('OBSERVATION:\n  boom \n')]);
    expect(shaped.extraBody).toEqual({ stream: false });
  });

  it('reshapes each history item once per shape: a later request reuses the objects, another shape makes its own', () => {
    const shape = requestShapeSchema.parse({ developer_role: 'user', tool_results: { prefix: '> ' } });
    const request = baseRequest();
    const first = shapeRequest({ prompt: 'p', request: shape }, request, env);
    const later = shapeRequest({ prompt: 'p', request: shape }, { ...request, input: [...request.input, userText('more')] }, env);
    expect(later.input.slice(0, first.input.length)).toEqual(first.input);
    first.input.forEach((item, i) => expect(later.input[i]).toBe(item));
    expect(first.input.at(-1)).toMatchObject({ type: 'function_call_output', output: '>   boom \n' });
    const other = shapeRequest({ prompt: 'p', request: requestShapeSchema.parse({ tool_results: { prefix: '# ' } }) }, request, env);
    expect(other.input.at(-1)).toMatchObject({ output: expect.stringMatching(/^# /) as unknown });
    expect(shapeRequest({ prompt: 'p', request: shape }, request, env).input.at(-1)).toBe(first.input.at(-1));
  });
});

describe('renderToolOutput', () => {
  it('wraps errors, trims and fills empty output', () => {
    const rendering = requestShapeSchema.parse({
      tool_results: { error_template: '<tool_use_error>{text}</tool_use_error>', trim: true, empty_output: '(empty)' },
    }).tool_results;
    expect(renderToolOutput(rendering, '  bad \n', true)).toBe('<tool_use_error>bad</tool_use_error>');
    expect(renderToolOutput(rendering, '   ', false)).toBe('(empty)');
    expect(
      renderToolOutput(rendering, [{ type: 'input_image', image_url: 'data:x' }, { type: 'input_text', text: ' a ' }], false),
    ).toEqual([{ type: 'input_image', image_url: 'data:x' }, { type: 'input_text', text: 'a' }]);
  });
});

describe('per-wire body fields', () => {
  it('extra_body_by_wire applies only on its wire', () => {
    const shape = requestShapeSchema.parse({ extra_body: { a: 1 }, extra_body_by_wire: { chat: { thinking: { type: 'enabled' } } } });
    const onChat = shapeRequest({ prompt: 'p', request: shape }, baseRequest(), { ...env, wire: 'chat' });
    const onMessages = shapeRequest({ prompt: 'p', request: shape }, baseRequest(), { ...env, wire: 'messages' });
    expect(onChat.extraBody).toEqual({ a: 1, thinking: { type: 'enabled' } });
    expect(onMessages.extraBody).toEqual({ a: 1 });
  });
});

describe('startup context placement', () => {
  it('first-user-message puts the wrapped context in front of the first user message', () => {
    const shape = requestShapeSchema.parse({
      startup_context: { text: 'cwd {{cwd}}', placement: 'first-user-message', wrap: '<system-reminder>\n{text}\n</system-reminder>' },
    });
    const request = baseRequest();
    request.input.unshift({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev first' }] });
    const shaped = shapeRequest({ prompt: 'p', request: shape }, request, env);
    expect(shaped.input[0]).toMatchObject({ role: 'developer' });
    expect(shaped.input[1]).toEqual({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: '<system-reminder>\ncwd /srv/app\n</system-reminder>' },
        { type: 'input_text', text: 'fix it' },
      ],
    });
    expect(shaped.input).toHaveLength(request.input.length);
  });

  it('the qwen-code profile uses it, as captured', async () => {
    const { readProfileFile, builtinProfileDir } = await import('../../src/harness/loader.js');
    const qwen = readProfileFile(`${builtinProfileDir()}/qwen-code.json`, 'builtin');
    expect(qwen.request.startup_context).toMatchObject({ placement: 'first-user-message' });
    expect(qwen.request.startup_context?.reply).toBeUndefined();
  });
});

describe('instance templates (mini-swe-agent, SWE-agent, Terminus 2 put the task in the first user message)', () => {
  const shape = requestShapeSchema.parse({});
  const context = { type: 'message' as const, role: 'user' as const, content: [{ type: 'input_text' as const, text: '# AGENTS.md instructions for /srv/app\n\n<INSTRUCTIONS>x</INSTRUCTIONS>' }] };

  it('rewrites the task message, after the injected context, and leaves later user messages alone', () => {
    const template = 'Task: {{task}}\n<system_information>\n{{system_information}}\n</system_information>\nIn {{cwd}}\n';
    const request: ModelRequest = {
      model: 'm1',
      instructions: '',
      tools: [],
      input: [
        context,
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix {{cwd}} please' }, { type: 'input_image', image_url: 'data:image/png;base64,AA' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
        userText('and more'),
      ],
    };
    const shaped = shapeRequest({ prompt: 'sys', request: shape, instanceTemplate: template }, request, { ...env, systemInformation: 'Linux 6.1 #1 x86_64' });
    expect(shaped.instructions).toBe('sys');
    expect(shaped.input[0]).toEqual(context);
    // Braces the user typed are not template slots.
    expect(shaped.input[1]).toEqual({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'Task: fix {{cwd}} please\n<system_information>\nLinux 6.1 #1 x86_64\n</system_information>\nIn /srv/app' },
        { type: 'input_image', image_url: 'data:image/png;base64,AA' },
      ],
    });
    expect(shaped.input[3]).toEqual(userText('and more'));
  });

  it("the driver's first look at the terminal becomes {{terminal_state}} and leaves the conversation", () => {
    const request: ModelRequest = {
      model: 'm1',
      instructions: '',
      tools: [],
      input: [
        userText('list files'),
        { type: 'function_call', call_id: INITIAL_SCREEN_CALL_ID, name: 'keystrokes', arguments: '{"commands":[]}' },
        { type: 'function_call_output', call_id: INITIAL_SCREEN_CALL_ID, output: 'Current Terminal Screen:\nuser@rig:/srv/app$' },
      ],
    };
    const terminus = requestShapeSchema.parse({ tool_results: { as_user_message: true } });
    const shaped = shapeRequest({ prompt: '', request: terminus, instanceTemplate: 'Task Description:\n{{task}}\n\nCurrent terminal state:\n{{terminal_state}}\n' }, request, env);
    expect(shaped.instructions).toBe('');
    expect(shaped.input).toEqual([userText('Task Description:\nlist files\n\nCurrent terminal state:\nCurrent Terminal Screen:\nuser@rig:/srv/app$')]);
  });

  it('uname -srvm of this machine when the caller does not say', async () => {
    const { systemInformation } = await import('../../src/harness/instance-template.js');
    const { machine, release, type, version } = await import('node:os');
    expect(systemInformation()).toBe(`${type()} ${release()} ${version()} ${machine()}`);
    const shaped = shapeRequest({ prompt: '', request: shape, instanceTemplate: '{{system_information}}' }, { model: 'm', instructions: '', tools: [], input: [userText('t')] }, env);
    expect(shaped.input).toEqual([userText(systemInformation())]);
  });
});
