import { describe, expect, it } from 'vitest';
import { Thread, type ThreadRuntime } from '../../src/core/thread.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { ToolSpec } from '../../src/tools/spec.js';
import type { ThreadEvent } from '../../src/protocol/index.js';
import { ScriptedClient, call, callTools, say } from '../support/scripted-client.js';

const unusedCaps = () => ({
  exec: async () => { throw new Error('exec not expected'); },
  writeStdin: async () => { throw new Error('writeStdin not expected'); },
  applyChanges: async () => ({ ok: false, message: 'not expected' }),
  canWrite: () => false,
});

function echoTool(overrides: Partial<ToolSpec> = {}): ToolSpec {
  return {
    name: 'echo',
    description: 'echo text',
    kind: 'function',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    parallelSafe: true,
    handle: async (args) => ({ output: `echo: ${(args as { text: string }).text}`, success: true }),
    ...overrides,
  };
}

function makeThread(client: ScriptedClient, tools: ToolSpec[], extra: Partial<ThreadRuntime> = {}) {
  const thread = new Thread({
    id: 'thread-1', cwd: '/tmp',
    runtime: { model: 'test-model', client, tools: new ToolRegistry(tools), instructions: 'be brief', capabilities: unusedCaps, ...extra },
  });
  const events: ThreadEvent[] = [];
  thread.subscribe(({ event }) => events.push(event));
  return { thread, events };
}

describe('Thread turn loop', () => {
  it('runs a tool call, sends the output back, and finishes on a plain answer', async () => {
    const client = new ScriptedClient([callTools(call('echo', { text: 'hi' })), say('done')]);
    const { thread, events } = makeThread(client, [echoTool()]);
    const result = await thread.runTurn({ text: 'go' });
    expect(result.status).toBe('completed');
    expect(result.lastAgentMessage).toBe('done');
    expect(client.requests).toHaveLength(2);
    expect(client.requests[1]!.input.at(-1)).toEqual({ type: 'function_call_output', call_id: 'call_echo', output: 'echo: hi' });
    expect(events.map((e) => e.type)).toEqual([
      'turn.started', 'item.completed', 'usage.updated', 'item.agent_message.delta', 'item.completed', 'usage.updated', 'turn.completed',
    ]);
    expect(events[1]).toMatchObject({ type: 'item.completed', item: { type: 'user_message', text: 'go' } });
    const completed = events.at(-1) as Extract<ThreadEvent, { type: 'turn.completed' }>;
    expect(completed.usage.input_tokens).toBe(30);
  });

  it('keeps the request prefix byte-identical from step to step', async () => {
    const client = new ScriptedClient([callTools(call('echo', { text: 'a' })), callTools(call('echo', { text: 'b' }, 'c2')), say('ok')]);
    const { thread } = makeThread(client, [echoTool()]);
    await thread.runTurn({ text: 'go' });
    const [first, second, third] = client.requests.map((r) => JSON.stringify({ i: r.instructions, t: r.tools, k: r.promptCacheKey }));
    expect(second).toBe(first);
    expect(third).toBe(first);
    const firstInput = JSON.stringify(client.requests[0]!.input);
    expect(JSON.stringify(client.requests[1]!.input).startsWith(firstInput.slice(0, -1))).toBe(true);
  });

  it('returns schema errors to the model naming the field, without crashing', async () => {
    const client = new ScriptedClient([
      callTools(call('echo', { txt: 'x' }, 'c1'), call('echo', '{not json', 'c2'), call('nope', {}, 'c3')),
      say('fixed'),
    ]);
    const { thread } = makeThread(client, [echoTool()]);
    await thread.runTurn({ text: 'go' });
    const outputs = client.requests[1]!.input.filter((i) => i.type === 'function_call_output');
    expect(outputs).toEqual([
      { type: 'function_call_output', call_id: 'c1', output: 'invalid arguments for echo: field "text" is required', is_error: true },
      expect.objectContaining({ call_id: 'c2', is_error: true, output: expect.stringMatching(/^failed to parse function arguments: /) }),
      expect.objectContaining({ call_id: 'c3', output: 'unsupported call: nope (available tools: echo)' }),
    ]);
  });

  it('runs parallel-safe calls concurrently and returns results in call order', async () => {
    let releaseFirst!: () => void;
    const firstGate = new Promise<void>((resolve) => { releaseFirst = resolve; });
    const slow = echoTool({
      name: 'slow',
      handle: async () => { await firstGate; return { output: 'slow done', success: true }; },
    });
    const fast = echoTool({
      name: 'fast',
      // Only finishes if it runs while `slow` is still waiting: proves concurrency.
      handle: async () => { releaseFirst(); return { output: 'fast done', success: true }; },
    });
    const client = new ScriptedClient([callTools(call('slow', { text: '' }, 'a'), call('fast', { text: '' }, 'b')), say('ok')]);
    const { thread } = makeThread(client, [slow, fast]);
    await thread.runTurn({ text: 'go' });
    const outputs = client.requests[1]!.input.filter((i) => i.type === 'function_call_output').map((i) => (i as { output: string }).output);
    expect(outputs).toEqual(['slow done', 'fast done']);
  });

  it('runs exclusive calls one after another', async () => {
    const order: string[] = [];
    const exclusive = (name: string) => echoTool({
      name, parallelSafe: false,
      handle: async () => { order.push(`${name}:start`); await Promise.resolve(); order.push(`${name}:end`); return { output: name, success: true }; },
    });
    const client = new ScriptedClient([callTools(call('one', { text: '' }, 'a'), call('two', { text: '' }, 'b')), say('ok')]);
    const { thread } = makeThread(client, [exclusive('one'), exclusive('two')]);
    await thread.runTurn({ text: 'go' });
    expect(order).toEqual(['one:start', 'one:end', 'two:start', 'two:end']);
  });

  it('stops at the step limit with a clear message', async () => {
    const client = new ScriptedClient([callTools(call('echo', { text: '1' }, 'a')), callTools(call('echo', { text: '2' }, 'b')), say('never')]);
    const { thread, events } = makeThread(client, [echoTool()], { maxTurnSteps: 2 });
    const result = await thread.runTurn({ text: 'go' });
    expect(result.status).toBe('failed');
    expect(result.error).toBe('turn stopped after 2 model requests without finishing (max_turn_steps = 2); raise it with -c max_turn_steps=N or send a new prompt to continue');
    expect(events.at(-1)).toEqual({ type: 'turn.failed', error: { message: result.error } });
  });

  it('injects steering input at the next step', async () => {
    let thread!: Thread;
    const steeringTool = echoTool({ handle: async () => { thread.steer({ text: 'also do X' }); return { output: 'ok', success: true }; } });
    const client = new ScriptedClient([callTools(call('echo', { text: '' })), say('done with X')]);
    ({ thread } = makeThread(client, [steeringTool]));
    await thread.runTurn({ text: 'go' });
    const last = client.requests[1]!.input.at(-1);
    expect(last).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'also do X' }] });
  });

  it('continues when steering arrives after a final answer', async () => {
    let thread!: Thread;
    const client = new ScriptedClient([
      async function* () { thread.steer({ text: 'one more thing' }); yield* say('first'); },
      say('second'),
    ]);
    ({ thread } = makeThread(client, []));
    const result = await thread.runTurn({ text: 'go' });
    expect(result.lastAgentMessage).toBe('second');
    expect(client.requests).toHaveLength(2);
  });

  it('interrupt cancels running tools, records aborted outputs and leaves the thread usable', async () => {
    let thread!: Thread;
    const blocking = echoTool({
      handle: (_args, ctx) => new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => resolve({ output: 'aborted by user', success: false }));
        thread.interrupt();
      }),
    });
    const client = new ScriptedClient([callTools(call('echo', { text: '' })), say('after')]);
    const { events } = ({ thread } = makeThread(client, [blocking]), { events: [] as ThreadEvent[] });
    thread.subscribe(({ event }) => events.push(event));
    const result = await thread.runTurn({ text: 'go' });
    expect(result.status).toBe('interrupted');
    expect(events.some((e) => e.type === 'turn.completed' || e.type === 'turn.failed')).toBe(false);
    expect(thread.history.some((i) => i.type === 'function_call_output' && i.output === 'aborted by user')).toBe(true);
    const next = await thread.runTurn({ text: 'again' });
    expect(next.status).toBe('completed');
    expect(next.lastAgentMessage).toBe('after');
  });

  it('discards a broken attempt on retry and shows the retry as an item', async () => {
    const client = new ScriptedClient([[
      { type: 'created' },
      { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'partial' }] } },
      { type: 'retry', attempt: 1, max_attempts: 5, delay_ms: 200, reason: 'stream closed before response.completed' },
      ...say('whole'),
    ]]);
    const { thread, events } = makeThread(client, []);
    await thread.runTurn({ text: 'go' });
    const assistant = thread.history.filter((i) => i.type === 'message' && i.role === 'assistant');
    expect(assistant).toHaveLength(1);
    expect(events).toContainEqual({ type: 'item.completed', item: expect.objectContaining({ type: 'error', message: 'Reconnecting... 1/5 (stream closed before response.completed)' }) });
  });

  it('asks approvals through events and takes the answer through answerApproval', async () => {
    let thread!: Thread;
    const asking: ToolSpec = echoTool({
      handle: async () => ({ output: 'n/a', success: true }),
    });
    const client = new ScriptedClient([callTools(call('echo', { text: '' })), say('ok')]);
    const capabilities = (services: Parameters<ThreadRuntime['capabilities']>[0]) => ({
      ...unusedCaps(),
      exec: async () => {
        const { decision } = await services.askApproval({
          kind: 'exec', item_id: 'item_x', command: ['rm', 'x'], command_text: 'rm x', cwd: '/tmp', sandboxed: true, retry_without_sandbox: false,
        });
        return { exitCode: decision === 'approve' ? 0 : null, output: decision, totalBytes: 0, wallTimeMs: 0, timedOut: false };
      },
    });
    asking.handle = async (_args, ctx) => {
      const outcome = await ctx.caps.exec({ command: 'rm x', cwd: '/tmp' });
      return { output: outcome.output, success: true };
    };
    ({ thread } = makeThread(client, [asking], { capabilities }));
    thread.subscribe(({ event }) => {
      if (event.type === 'approval.requested') thread.answerApproval(event.request.id, 'deny');
    });
    await thread.runTurn({ text: 'go' });
    expect(client.requests[1]!.input.at(-1)).toEqual({ type: 'function_call_output', call_id: 'call_echo', output: 'deny' });
  });
});

import { closeDanglingCalls } from '../../src/core/engine.js';

describe('closeDanglingCalls', () => {
  it('answers calls a killed process left without output, after the step and before the next message', () => {
    const history = [
      { type: 'message' as const, role: 'user' as const, content: [{ type: 'input_text' as const, text: 'go' }] },
      { type: 'function_call' as const, call_id: 'a', name: 'x', arguments: '{}' },
      { type: 'function_call' as const, call_id: 'b', name: 'x', arguments: '{}' },
      { type: 'function_call_output' as const, call_id: 'a', output: 'done' },
      { type: 'message' as const, role: 'user' as const, content: [{ type: 'input_text' as const, text: 'next' }] },
    ];
    const closed = closeDanglingCalls(history);
    expect(closed.map((i) => (i.type === 'message' ? 'msg' : `${i.type}:${'call_id' in i ? i.call_id : ''}`))).toEqual([
      'msg', 'function_call:a', 'function_call:b', 'function_call_output:a', 'function_call_output:b', 'msg',
    ]);
    expect(closed[4]).toMatchObject({ is_error: true, output: expect.stringMatching(/^aborted: /) });
  });
});
