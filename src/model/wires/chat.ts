// OpenAI Chat Completions (POST /chat/completions, SSE) as spoken by OpenAI-compatible servers:
// OpenRouter, DeepSeek, Kimi, Qwen, GLM, Ollama, LM Studio. Their quirks handled here:
// `reasoning_content` (or `reasoning`) deltas, tool calls split across chunks (sometimes with the id
// and name repeated), usage in a trailing chunk with no choices, and a missing `[DONE]`. What a
// server accepts in a request (roles, reasoning echo, the output-cap field, store, stream usage) is
// decided by the provider's compat flags (compat.ts), never for every server. The request itself is
// built in chat-request.ts.
import type { ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonData, WireStreamError, type WireAdapter, type WireStreamParser } from '../transport/wire-adapter.js';
import { isContextLengthMessage } from '../transport/http-errors.js';
import { cutToolCallFailure, isCompleteJson } from './output-limit.js';
import type { ConversationItem, ModelEvent, ModelRequest, StopReason, TokenUsage } from './shared-types.js';
import { customToolNames, unwrapCustomToolInput } from './shared.js';
import { buildChatBody } from './chat-request.js';

export { buildChatBody } from './chat-request.js';

// ---- chunk types ---------------------------------------------------------------------------

type ChunkDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };
type ChunkUsage = NonNullable<ChatCompletionChunk['usage']> & {
  prompt_cache_hit_tokens?: number; // DeepSeek
  cached_tokens?: number; // Moonshot
};
interface ChunkError {
  /** OpenAI-compatible servers (llama.cpp, vLLM, proxies) report failures mid-stream this way. */
  error?: { message?: string; code?: string | number; type?: string };
}

// ---- parser state --------------------------------------------------------------------------

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
  started: boolean;
}

interface ChatParserState {
  customTools: Set<string>;
  responseId?: string;
  text: string;
  reasoning: string;
  toolCalls: Map<number, PendingToolCall>;
  finishReason?: string;
  usage?: TokenUsage;
}

// ---- stream parsing ------------------------------------------------------------------------

export function mapChatUsage(usage: ChunkUsage): TokenUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? usage.cached_tokens ?? 0;
  return {
    input_tokens: usage.prompt_tokens ?? 0,
    cached_input_tokens: cached,
    cache_write_input_tokens: 0,
    output_tokens: usage.completion_tokens ?? 0,
    reasoning_output_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

function stopReason(finish: string | undefined, sawToolCalls: boolean): StopReason {
  if (sawToolCalls) return 'tool_use';
  switch (finish) {
    case 'stop':
    case undefined:
      return 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

function pushToolCallDeltas(state: ChatParserState, deltas: NonNullable<ChunkDelta['tool_calls']>): ModelEvent[] {
  const events: ModelEvent[] = [];
  deltas.forEach((delta, position) => {
    // Some servers omit `index`; fall back to matching the id, then to the position in this chunk.
    let index = delta.index as number | undefined;
    if (index === undefined) {
      const byId = delta.id ? [...state.toolCalls].find(([, c]) => c.id === delta.id)?.[0] : undefined;
      index = byId ?? (delta.id ? state.toolCalls.size : position);
    }
    let call = state.toolCalls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '', started: false };
      state.toolCalls.set(index, call);
    }
    if (delta.id && !call.id) call.id = delta.id;
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    const custom = state.customTools.has(call.name);
    if (!call.started && call.name) {
      call.started = true;
      if (!call.id) call.id = `call_${index}_${state.responseId ?? 'chat'}`;
      events.push({ type: 'tool_call_started', call_id: call.id, name: call.name, kind: custom ? 'custom' : 'function' });
    }
    const fragment = delta.function?.arguments;
    if (fragment) {
      call.arguments += fragment;
      // Wrapped custom input arrives as JSON text; only its decoded form would be useful to show.
      if (call.started && !custom) events.push({ type: 'tool_call_delta', call_id: call.id, delta: fragment });
    }
  });
  return events;
}

function finish(state: ChatParserState): ModelEvent[] {
  const calls = [...state.toolCalls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  if (state.finishReason === undefined && !state.text && !state.reasoning && !calls.some((c) => c.name)) {
    // Nothing generated and no reason given: an empty reply is not an answer.
    throw new WireStreamError({
      kind: 'stream',
      retryable: false,
      final: true,
      message: 'the provider ended the stream without a reply: it sent "data: [DONE]" with no content, tool call or finish_reason',
    });
  }
  if (state.finishReason === 'length') {
    const cut = calls.find((call) => call.name && !isCompleteJson(call.arguments || '{}'));
    if (cut) throw cutToolCallFailure(cut.name, 'finish_reason "length"');
  }
  const events: ModelEvent[] = [];
  if (state.reasoning) {
    events.push({ type: 'item_done', item: { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: state.reasoning }] } });
  }
  if (state.text) events.push({ type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: state.text }] } });
  for (const call of calls) {
    if (!call.name) continue;
    const item: ConversationItem = state.customTools.has(call.name)
      ? { type: 'custom_tool_call', call_id: call.id, name: call.name, input: unwrapCustomToolInput(call.arguments) }
      : { type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments || '{}' };
    events.push({ type: 'item_done', item });
  }
  events.push({
    type: 'completed',
    stop_reason: stopReason(state.finishReason, calls.some((c) => c.name)),
    ...(state.usage ? { usage: state.usage } : {}),
    ...(state.responseId ? { response_id: state.responseId } : {}),
  });
  return events;
}

/** Codes and types of in-stream errors that a later attempt may not meet (overload, limits). */
const TRANSIENT_CODES = new Set([429, 502, 503, 504, 529]);
const TRANSIENT_NAMES = /rate[_ ]?limit|overload|unavailable|timeout|try again/i;

function chunkFailure(error: NonNullable<ChunkError['error']>): WireStreamError {
  const text = error.message ?? 'no message';
  const code = error.code ?? error.type;
  const message = code !== undefined && !text.includes(String(code)) ? `${text} (error code ${code})` : text;
  if (isContextLengthMessage(text)) return new WireStreamError({ kind: 'context_length', retryable: false, reported: true, message });
  const numeric = typeof error.code === 'number' ? error.code : Number.parseInt(String(error.code ?? ''), 10);
  const transient = TRANSIENT_CODES.has(numeric) || TRANSIENT_NAMES.test(`${error.type ?? ''} ${error.code ?? ''} ${text}`);
  return new WireStreamError({ kind: numeric === 429 ? 'rate_limit' : 'stream', retryable: transient, reported: true, message });
}

export function createChatParser(request: ModelRequest): WireStreamParser {
  const state: ChatParserState = { customTools: customToolNames(request), text: '', reasoning: '', toolCalls: new Map() };
  return {
    push(message: EventSourceMessage, json: unknown = parseJsonData(message.data)): ModelEvent[] {
      if (message.data.trim() === '[DONE]') return finish(state);
      const chunk = json as (ChatCompletionChunk & ChunkError) | undefined;
      if (!chunk || typeof chunk !== 'object') return [];
      if (chunk.error) throw chunkFailure(chunk.error);
      const events: ModelEvent[] = [];
      if (state.responseId === undefined) {
        state.responseId = chunk.id ?? '';
        events.push({ type: 'created', ...(chunk.id ? { response_id: chunk.id } : {}) });
      }
      if (chunk.usage) state.usage = mapChatUsage(chunk.usage as ChunkUsage);
      for (const choice of chunk.choices ?? []) {
        const delta = (choice.delta ?? {}) as ChunkDelta;
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === 'string' && reasoning) {
          state.reasoning += reasoning;
          events.push({ type: 'reasoning_delta', delta: reasoning, summary: false });
        }
        if (typeof delta.content === 'string' && delta.content) {
          state.text += delta.content;
          events.push({ type: 'text_delta', delta: delta.content });
        }
        if (delta.tool_calls?.length) events.push(...pushToolCallDeltas(state, delta.tool_calls));
        if (choice.finish_reason) state.finishReason = choice.finish_reason;
      }
      return events;
    },
    end(): ModelEvent[] {
      // Several servers end the body right after the finish_reason chunk without `[DONE]`.
      if (state.finishReason !== undefined) return finish(state);
      throw new WireStreamError({ kind: 'stream', retryable: true, message: 'stream closed before finish_reason' });
    },
  };
}

export const chatAdapter: WireAdapter = {
  wire: 'chat',
  path: '/chat/completions',
  buildBody: buildChatBody,
  createParser: createChatParser,
};
