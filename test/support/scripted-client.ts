// An in-process ModelClient that answers each request with the next scripted list of events and
// records the requests it got. For loop tests that do not need a wire.
import type { ConversationItem, ModelEvent } from '../../src/protocol/index.js';
import type { ModelClient, ModelRequest } from '../../src/model/types.js';

export type ScriptedStep = ModelEvent[] | ((request: ModelRequest, signal?: AbortSignal) => AsyncIterable<ModelEvent>);

export class ScriptedClient implements ModelClient {
  readonly wire = 'responses' as const;
  readonly requests: ModelRequest[] = [];

  constructor(private readonly steps: ScriptedStep[]) {}

  buildBody(request: ModelRequest): Record<string, unknown> {
    return { model: request.model };
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelEvent> {
    // Snapshot the input: the thread keeps appending to the same array.
    this.requests.push({ ...request, input: [...request.input] });
    const step = this.steps.shift();
    if (!step) {
      yield { type: 'error', error: { kind: 'bad_request', message: 'scripted client ran out of steps' } };
      return;
    }
    if (typeof step === 'function') {
      yield* step(request, signal);
      return;
    }
    yield* step;
  }
}

export function say(text: string): ModelEvent[] {
  return [
    { type: 'created' },
    { type: 'text_delta', delta: text },
    { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } },
    { type: 'completed', stop_reason: 'end_turn', usage: usage(10, 5) },
  ];
}

export function call(name: string, args: unknown, callId = `call_${name}`): ConversationItem {
  return { type: 'function_call', call_id: callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

export function callTools(...calls: ConversationItem[]): ModelEvent[] {
  return [
    { type: 'created' },
    ...calls.map((item): ModelEvent => ({ type: 'item_done', item })),
    { type: 'completed', stop_reason: 'tool_use', usage: usage(20, 3) },
  ];
}

export function usage(input: number, output: number) {
  return { input_tokens: input, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0 };
}
