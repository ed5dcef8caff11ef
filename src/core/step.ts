// One step of a turn: one sampling request. Output items are appended to history as they complete
// and tool calls are dispatched as soon as they arrive, so a tool runs while the model is still
// streaming; their outputs go back to history in call order once the stream ends.
import type {
  ConversationItem,
  CustomToolCallOutputItem,
  FunctionCallOutputItem,
  ModelError,
  ModelEvent,
  ReasoningItem,
  StopReason,
  TokenUsage,
  WebSearchAction,
} from '../protocol/index.js';
import { messageText } from '../protocol/index.js';
import type { ModelClient, ModelRequest } from '../model/types.js';
import { routeToolCall, type ToolCall } from '../tools/router.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolCallGate, ToolContext, ToolResult } from '../tools/spec.js';
import { ToolGate } from '../tools/parallel.js';

export interface StepHooks {
  emit: ToolContext['emitItem'];
  newItemId(): string;
  textDelta(itemId: string, delta: string): void;
  reasoningDelta(itemId: string, delta: string): void;
  retry(event: Extract<ModelEvent, { type: 'retry' }>): void;
  /** Builds the tool context for one call (with what hooks decided about its approval). */
  toolContext(gate?: ToolCallGate): ToolContext;
  /** Wraps each call (hooks: PreToolUse, PermissionRequest, PostToolUse). */
  callTool?(call: ToolCall, run: (call: ToolCall, gate?: ToolCallGate) => Promise<ToolResult>): Promise<ToolResult>;
  /** The stream's first event arrived: the request is sent and the model is answering. */
  answerStarted?(): void;
  /** A call of a tool that runs commands (ToolSpec.runsCommands) started streaming; its arguments are still coming. */
  commandCallStarted?(): void;
}

export interface StepOutcome {
  /** Model output items then tool outputs, in history order. */
  items: ConversationItem[];
  toolCallCount: number;
  usage?: TokenUsage;
  stopReason?: StopReason;
  error?: ModelError;
  /** Every event of the final attempt, for replay recording. */
  events: ModelEvent[];
}

export async function runStep(
  client: ModelClient,
  request: ModelRequest,
  tools: ToolRegistry,
  hooks: StepHooks,
  signal: AbortSignal,
): Promise<StepOutcome> {
  let outputs: ConversationItem[] = [];
  let events: ModelEvent[] = [];
  const pending: { call: ToolCall; result: Promise<ToolResult> }[] = [];
  const gate = new ToolGate();
  let messageItemId: string | undefined;
  let reasoningItemId: string | undefined;
  let usage: TokenUsage | undefined;
  let stopReason: StopReason | undefined;
  let error: ModelError | undefined;

  const guarded: ModelRequest = { ...request, mayRetryStream: () => pending.length === 0 };

  let answering = false;
  for await (const event of client.stream(guarded, signal)) {
    if (!answering) {
      answering = true;
      hooks.answerStarted?.();
    }
    events.push(event);
    switch (event.type) {
      case 'text_delta':
        messageItemId ??= hooks.newItemId();
        hooks.textDelta(messageItemId, event.delta);
        break;
      case 'reasoning_delta':
        reasoningItemId ??= hooks.newItemId();
        hooks.reasoningDelta(reasoningItemId, event.delta);
        break;
      case 'item_done': {
        const item = event.item;
        outputs.push(item);
        if (item.type === 'message' && item.role === 'assistant') {
          const text = messageText(item);
          const id = messageItemId ?? hooks.newItemId();
          messageItemId = undefined;
          if (text.trim() !== '') hooks.emit('completed', { id, type: 'agent_message', text });
        } else if (item.type === 'reasoning') {
          const text = reasoningText(item);
          const id = reasoningItemId ?? hooks.newItemId();
          reasoningItemId = undefined;
          if (text !== '') hooks.emit('completed', { id, type: 'reasoning', text });
        } else if (item.type === 'web_search_call') {
          // The provider searched by itself: shown like Codex's web_search item, kept in history.
          const id = hooks.newItemId();
          const shown = { id, type: 'web_search' as const, query: webSearchQuery(item.action) };
          hooks.emit('started', shown);
          hooks.emit('completed', shown);
        } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
          const spec = tools.get(item.name);
          const route = (call: ToolCall, callGate?: ToolCallGate) => routeToolCall(tools, call, { ...hooks.toolContext(callGate), callId: call.call_id });
          const result = gate.run(spec?.parallelSafe ?? false, () => (hooks.callTool ? hooks.callTool(item, route) : route(item)));
          pending.push({ call: item, result });
        }
        break;
      }
      case 'tool_call_started':
        if (tools.get(event.name)?.runsCommands) hooks.commandCallStarted?.();
        break;
      case 'retry':
        // The stream is being re-requested: forget what this attempt produced.
        outputs = [];
        events = [event];
        messageItemId = undefined;
        reasoningItemId = undefined;
        hooks.retry(event);
        break;
      case 'completed':
        usage = event.usage;
        stopReason = event.stop_reason;
        break;
      case 'error':
        error = event.error;
        break;
      default:
        break;
    }
  }

  const results = await Promise.all(pending.map((p) => p.result));
  const toolOutputs = pending.map(({ call }, index) => toOutputItem(call, results[index]!));
  return {
    items: [...outputs, ...toolOutputs],
    toolCallCount: pending.length,
    usage,
    stopReason,
    error,
    events,
  };
}

function toOutputItem(call: ToolCall, result: ToolResult): FunctionCallOutputItem | CustomToolCallOutputItem {
  const base = { call_id: call.call_id, output: result.output, ...(result.success ? {} : { is_error: true }) };
  return call.type === 'custom_tool_call'
    ? { type: 'custom_tool_call_output', ...base }
    : { type: 'function_call_output', ...base };
}

function reasoningText(item: ReasoningItem): string {
  const summary = item.summary.map((part) => part.text).filter((text) => text.trim() !== '');
  if (summary.length > 0) return summary.join('\n');
  return (item.content ?? []).map((part) => part.text).join('').trim();
}

function webSearchQuery(action: WebSearchAction | undefined): string {
  if (!action) return '';
  switch (action.type) {
    case 'search':
      return action.query ?? action.queries?.join(', ') ?? '';
    case 'open_page':
      return action.url ?? '';
    case 'find_in_page':
      return [action.pattern, action.url].filter(Boolean).join(' in ');
    default:
      return '';
  }
}
