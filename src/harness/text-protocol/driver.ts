// The text-protocol driver: a ModelClient wrapper that lets the tool-call turn loop run harnesses
// whose models write their actions as text (SWE-agent, Terminus 2) or must end with a sentinel
// command (mini-swe-agent). Requests pass through; a reply without tool calls is interpreted and,
// when it asks for an action, gets a synthesized call of the harness's hidden tool appended, so the
// loop runs it and sends the observation back. The reply text stays in history.
import type { ConversationItem, FunctionCallItem, ModelEvent } from '../../protocol/index.js';
import { messageText } from '../../protocol/index.js';
import type { ModelClient, ModelRequest, WireApi } from '../../model/types.js';
import { FORMAT_ERROR_TOOL, INITIAL_SCREEN_CALL_ID, type TextProtocol } from './actions.js';

/** After this many format errors in a row the reply is taken as final, so a confused model cannot loop forever. */
export const MAX_CONSECUTIVE_FORMAT_ERRORS = 3;

function toolOutputText(item: ConversationItem): string | undefined {
  if (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output') return undefined;
  if (typeof item.output === 'string') return item.output;
  return item.output.map((part) => ('text' in part ? part.text : '')).join('');
}

const isReply = (item: ConversationItem | undefined): boolean => item?.type === 'message' && item.role === 'assistant';

/** The latest observation in a (shaped) request: a tool output, or the user message after a reply. */
function latestObservation(input: readonly ConversationItem[], asMessages: boolean): string | undefined {
  const last = input.at(-1);
  if (!last) return undefined;
  if (asMessages && last.type === 'message' && last.role === 'user' && isReply(input.at(-2))) return messageText(last);
  return toolOutputText(last);
}

export class TextProtocolClient implements ModelClient {
  readonly wire: WireApi;
  private formatErrors = 0;
  /** Text of a reply whose action also ended the task (Terminus task_complete with commands). */
  private finishAfter: string | undefined;
  private initialCallMade = false;

  constructor(
    private readonly inner: ModelClient,
    private readonly protocol: TextProtocol,
  ) {
    this.wire = inner.wire;
  }

  buildBody(request: ModelRequest): Record<string, unknown> {
    return this.inner.buildBody(this.prepare(request));
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelEvent> {
    const initial = this.protocol.initialCall;
    if (initial && !this.initialCallMade && !request.input.some(isReply)) {
      // Before the model is first asked (a new task, not a resumed one), the harness looks itself.
      this.initialCallMade = true;
      yield { type: 'item_done', item: { type: 'function_call', call_id: INITIAL_SCREEN_CALL_ID, name: initial.name, arguments: JSON.stringify(initial.arguments) } };
      yield { type: 'completed', stop_reason: 'tool_use' };
      return;
    }
    const final = this.finalAnswer(request);
    if (final !== undefined) {
      // The task ended with the last tool result: answer locally, the model is not asked again.
      if (final.trim() !== '') {
        yield { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: final }] } };
      }
      yield { type: 'completed', stop_reason: 'end_turn' };
      return;
    }
    let texts: string[] = [];
    let calls = 0;
    for await (const event of this.inner.stream(this.prepare(request), signal)) {
      if (event.type === 'retry') {
        texts = [];
        calls = 0;
      } else if (event.type === 'item_done') {
        const item = event.item;
        if (item.type === 'message' && item.role === 'assistant') texts.push(messageText(item));
        if (item.type === 'function_call' || item.type === 'custom_tool_call') calls++;
      } else if (event.type === 'completed') {
        const call = calls === 0 ? this.actionCall(texts.join('\n'), request) : undefined;
        if (calls > 0) this.formatErrors = 0;
        if (call) {
          yield { type: 'item_done', item: call };
          yield { ...event, stop_reason: 'tool_use' };
          continue;
        }
      }
      yield event;
    }
  }

  /** Text protocols send no tools; the Responses body would otherwise carry `tools: []`. */
  private prepare(request: ModelRequest): ModelRequest {
    if (this.protocol.sendsTools || request.tools.length > 0 || this.wire !== 'responses') return request;
    // Undefined fields vanish when the body is serialised; the profile's own extras still win.
    return { ...request, extraBody: { tools: undefined, tool_choice: undefined, parallel_tool_calls: undefined, ...request.extraBody } };
  }

  /** The final answer when the history shows the task already ended, else undefined. */
  private finalAnswer(request: ModelRequest): string | undefined {
    const input = request.input;
    const pending = this.finishAfter;
    this.finishAfter = undefined;
    if (pending !== undefined) {
      const lastReply = input.map((item, index) => ({ item, index })).reverse()
        .find(({ item }) => item.type === 'message' && item.role === 'assistant');
      const later = lastReply ? input.slice(lastReply.index + 1).filter((item) => item.type === 'message') : [];
      // Only the action's observation may follow; anything more (steering, a new prompt) goes to the model.
      if (lastReply?.item.type === 'message' && messageText(lastReply.item) === pending && later.length <= 1) return '';
    }
    const observation = latestObservation(input, this.protocol.observationsAsMessages === true);
    return observation === undefined ? undefined : this.protocol.finishedBy?.(observation);
  }

  private actionCall(text: string, request: ModelRequest): FunctionCallItem | undefined {
    const action = this.protocol.interpret(text);
    // Derived from the step (the input grows every step), so a replayed session gets the same id.
    const callId = `text_${request.input.length}`;
    switch (action.kind) {
      case 'finish':
        this.formatErrors = 0;
        return undefined;
      case 'format_error':
        if (++this.formatErrors > MAX_CONSECUTIVE_FORMAT_ERRORS) return undefined;
        return { type: 'function_call', call_id: callId, name: FORMAT_ERROR_TOOL, arguments: JSON.stringify({ message: action.message }) };
      case 'call':
        this.formatErrors = 0;
        if (action.thenFinish) this.finishAfter = text;
        return { type: 'function_call', call_id: callId, name: action.name, arguments: JSON.stringify(action.arguments) };
    }
  }
}

/** Wraps a client for a profile's text protocol; `protocol` undefined = plain tool calling. */
export function wrapForTextProtocol(client: ModelClient, protocol: TextProtocol | undefined): ModelClient {
  return protocol ? new TextProtocolClient(client, protocol) : client;
}
