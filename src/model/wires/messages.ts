// Anthropic Messages (POST /messages, SSE). Content is a list of blocks; thinking blocks carry a
// signature that must be sent back unchanged, so ReasoningItem.signature keeps it. The request is
// built in messages-request.ts.
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonData, WireStreamError, type WireAdapter, type WireStreamParser } from '../transport/wire-adapter.js';
import { isContextLengthMessage } from '../transport/http-errors.js';
import { cutToolCallFailure, isCompleteJson } from './output-limit.js';
import { SearchBlocks, webSearchRequests, type OpenSearchUse } from './messages-web-search.js';
import type { ConversationItem, ModelEvent, ModelRequest, StopReason, TokenUsage } from './shared-types.js';
import { customToolNames, unwrapCustomToolInput } from './shared.js';
import { buildMessagesBody } from './messages-request.js';

export { buildMessagesBody, DEFAULT_MAX_TOKENS } from './messages-request.js';

// ---- chunk types ---------------------------------------------------------------------------

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  server_tool_use?: { web_search_requests?: number } | null;
}
interface StreamErrorEvent {
  type: 'error';
  error?: { type?: string; message?: string };
}

// ---- parser state --------------------------------------------------------------------------

type OpenBlock =
  | { type: 'text'; text: string; citations: unknown[] }
  | { type: 'thinking'; text: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string; custom: boolean }
  | OpenSearchUse
  | { type: 'web_search_tool_result'; block: Record<string, unknown> }
  | { type: 'other' };

interface MessagesParserState {
  customTools: Set<string>;
  blocks: Map<number, OpenBlock>;
  /** The server's own searches in this response (use blocks waiting for their results). */
  searches: SearchBlocks;
  responseId?: string;
  usage: AnthropicUsage;
  stopReason?: string | null;
  /**
   * A tool_use block whose JSON did not parse, held back until the stop reason says whether the
   * output limit cut it (then it must not run) or the model sent it broken (it gets an error).
   */
  heldCall?: { name: string; events: ModelEvent[] };
}

// ---- stream parsing ------------------------------------------------------------------------

/** Anthropic's input_tokens excludes cache reads/writes; neutral input_tokens is the total. */
export function mapMessagesUsage(usage: AnthropicUsage): TokenUsage {
  const read = usage.cache_read_input_tokens ?? 0;
  const write = usage.cache_creation_input_tokens ?? 0;
  return {
    input_tokens: (usage.input_tokens ?? 0) + read + write,
    cached_input_tokens: read,
    cache_write_input_tokens: write,
    output_tokens: usage.output_tokens ?? 0,
    reasoning_output_tokens: 0,
    ...(webSearchRequests(usage) ? { web_search_requests: webSearchRequests(usage) } : {}),
  };
}

function stopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end_turn';
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

function mergeUsage(into: AnthropicUsage, more: AnthropicUsage | null | undefined): void {
  if (!more) return;
  for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const value = more[key];
    if (typeof value === 'number') into[key] = value;
  }
  if (more.server_tool_use) into.server_tool_use = more.server_tool_use;
}

function closeBlock(block: OpenBlock | undefined, searches: SearchBlocks): ModelEvent[] {
  switch (block?.type) {
    case 'text': {
      const citations = block.citations.length > 0 ? { citations: block.citations } : {};
      return [{ type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: block.text }], ...citations } }];
    }
    case 'server_tool_use':
      searches.closeUse(block);
      return [];
    case 'web_search_tool_result':
      return [{ type: 'item_done', item: searches.closeResult(block.block) }];
    case 'thinking':
      return [
        {
          type: 'item_done',
          item: { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: block.text }], ...(block.signature ? { signature: block.signature } : {}) },
        },
      ];
    case 'redacted_thinking':
      return [{ type: 'item_done', item: { type: 'reasoning', summary: [], redacted_data: block.data } }];
    case 'tool_use': {
      const json = block.json || '{}';
      const item: ConversationItem = block.custom
        ? { type: 'custom_tool_call', call_id: block.id, name: block.name, input: unwrapCustomToolInput(json) }
        : { type: 'function_call', call_id: block.id, name: block.name, arguments: json };
      return [{ type: 'item_done', item }];
    }
    default:
      return [];
  }
}

function streamError(event: StreamErrorEvent): WireStreamError {
  const type = event.error?.type ?? 'error';
  const message = event.error?.message ? `${type}: ${event.error.message}` : type;
  if (isContextLengthMessage(message)) return new WireStreamError({ kind: 'context_length', retryable: false, reported: true, message });
  // Anthropic's transient types; invalid_request_error and the like would fail again.
  const retryable = type === 'overloaded_error' || type === 'api_error' || type === 'rate_limit_error';
  return new WireStreamError({ kind: type === 'rate_limit_error' ? 'rate_limit' : 'stream', retryable, reported: true, message });
}

function pushEvent(state: MessagesParserState, event: RawMessageStreamEvent | StreamErrorEvent): ModelEvent[] {
  switch (event.type) {
    case 'message_start':
      state.responseId = event.message.id;
      mergeUsage(state.usage, event.message.usage);
      return [{ type: 'created', response_id: event.message.id }];
    case 'content_block_start': {
      const block = event.content_block;
      if (block.type === 'text') {
        const citations = Array.isArray(block.citations) ? [...block.citations] : [];
        state.blocks.set(event.index, { type: 'text', text: block.text ?? '', citations });
      } else if (block.type === 'server_tool_use' && block.name === 'web_search') {
        state.blocks.set(event.index, { type: 'server_tool_use', start: { ...block } as Record<string, unknown>, json: '' });
      } else if (block.type === 'web_search_tool_result') {
        // The results arrive whole in the start event, with no deltas.
        state.blocks.set(event.index, { type: 'web_search_tool_result', block: { ...block } as Record<string, unknown> });
      } else if (block.type === 'thinking') state.blocks.set(event.index, { type: 'thinking', text: block.thinking ?? '', signature: block.signature ?? '' });
      else if (block.type === 'redacted_thinking') state.blocks.set(event.index, { type: 'redacted_thinking', data: block.data });
      else if (block.type === 'tool_use') {
        const custom = state.customTools.has(block.name);
        state.blocks.set(event.index, { type: 'tool_use', id: block.id, name: block.name, json: '', custom });
        return [{ type: 'tool_call_started', call_id: block.id, name: block.name, kind: custom ? 'custom' : 'function' }];
      } else state.blocks.set(event.index, { type: 'other' });
      return [];
    }
    case 'content_block_delta': {
      const block = state.blocks.get(event.index);
      const delta = event.delta;
      if (delta.type === 'text_delta' && block?.type === 'text') {
        block.text += delta.text;
        return [{ type: 'text_delta', delta: delta.text }];
      }
      if (delta.type === 'thinking_delta' && block?.type === 'thinking') {
        block.text += delta.thinking;
        return [{ type: 'reasoning_delta', delta: delta.thinking, summary: false }];
      }
      if (delta.type === 'signature_delta' && block?.type === 'thinking') {
        block.signature += delta.signature;
        return [];
      }
      if (delta.type === 'citations_delta' && block?.type === 'text') {
        block.citations.push(delta.citation);
        return [];
      }
      if (delta.type === 'input_json_delta' && block?.type === 'server_tool_use') {
        block.json += delta.partial_json;
        return [];
      }
      if (delta.type === 'input_json_delta' && block?.type === 'tool_use') {
        block.json += delta.partial_json;
        return block.custom || !delta.partial_json ? [] : [{ type: 'tool_call_delta', call_id: block.id, delta: delta.partial_json }];
      }
      return [];
    }
    case 'content_block_stop': {
      const block = state.blocks.get(event.index);
      state.blocks.delete(event.index);
      if (block?.type === 'tool_use' && !isCompleteJson(block.json || '{}')) {
        state.heldCall = { name: block.name, events: closeBlock(block, state.searches) };
        return [];
      }
      return closeBlock(block, state.searches);
    }
    case 'message_delta':
      state.stopReason = event.delta.stop_reason;
      mergeUsage(state.usage, event.usage as AnthropicUsage);
      return [];
    case 'message_stop': {
      const held = state.heldCall?.events ?? [];
      if (state.heldCall && stopReason(state.stopReason) === 'max_tokens') throw cutToolCallFailure(state.heldCall.name, 'stop_reason "max_tokens"');
      state.heldCall = undefined;
      const unanswered = state.searches.unanswered().map((item): ModelEvent => ({ type: 'item_done', item }));
      return [
        ...unanswered,
        ...held,
        {
          type: 'completed',
          stop_reason: stopReason(state.stopReason),
          usage: mapMessagesUsage(state.usage),
          ...(state.responseId ? { response_id: state.responseId } : {}),
        },
      ];
    }
    case 'error':
      throw streamError(event);
    default:
      return [];
  }
}

export function createMessagesParser(request: ModelRequest): WireStreamParser {
  const state: MessagesParserState = { customTools: customToolNames(request), blocks: new Map(), searches: new SearchBlocks(), usage: {} };
  return {
    push(message: EventSourceMessage, json: unknown = parseJsonData(message.data)): ModelEvent[] {
      const event = json as (RawMessageStreamEvent | StreamErrorEvent) | undefined;
      if (!event || typeof event.type !== 'string') return [];
      return pushEvent(state, event);
    },
    end(): ModelEvent[] {
      throw new WireStreamError({ kind: 'stream', retryable: true, message: 'stream closed before message_stop' });
    },
  };
}

export const messagesAdapter: WireAdapter = {
  wire: 'messages',
  path: '/messages',
  buildBody: buildMessagesBody,
  createParser: createMessagesParser,
};
