// OpenAI Chat Completions (POST /chat/completions, SSE) as spoken by OpenAI-compatible servers:
// OpenRouter, DeepSeek, Kimi, Qwen, GLM, Ollama, LM Studio. Their quirks handled here:
// `reasoning_content` (or `reasoning`) deltas, tool calls split across chunks (sometimes with the id
// and name repeated), usage in a trailing chunk with no choices, and a missing `[DONE]`. What a
// server accepts in a request (roles, reasoning echo, the output-cap field, store, stream usage) is
// decided by the provider's compat flags (compat.ts), never for every server.
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions/completions';
import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonData, WireStreamError, type WireAdapter, type WireStreamParser } from '../transport/wire-adapter.js';
import { isContextLengthMessage } from '../transport/http-errors.js';
import { cutToolCallFailure, isCompleteJson } from './output-limit.js';
import type { ContentPart, ConversationItem, ModelEvent, ModelRequest, StopReason, TokenUsage, ToolOutput } from './shared-types.js';
import type { WireShape } from '../types.js';
import type { ResolvedCompat } from '../compat.js';
import {
  compatOrDefault,
  orderFields,
  customToolNames,
  toolOutputText,
  unwrapCustomToolInput,
  wrappedCustomToolDescription,
  wrappedCustomToolSchema,
  webSearchText,
} from './shared.js';
import { rememberFold, resumeFold } from './history-memo.js';

// ---- request types -------------------------------------------------------------------------

type ChatBody = ChatCompletionCreateParamsStreaming & Record<string, unknown>;
/** Assistant message with the reasoning field DeepSeek/Kimi/Qwen want echoed back. */
type ChatMessage = ChatCompletionMessageParam & { reasoning_content?: string };

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

// ---- request lowering ----------------------------------------------------------------------

function userContent(parts: ContentPart[], form: WireShape['userContent']): ChatCompletionMessageParam['content'] {
  if (!parts.some((p) => p.type === 'input_image')) {
    if (form !== 'parts') return partsText(parts);
    return parts.flatMap((p) => (p.type === 'input_image' ? [] : [{ type: 'text' as const, text: p.text }]));
  }
  return parts.map((p) =>
    p.type === 'input_image'
      ? { type: 'image_url' as const, image_url: { url: p.image_url, ...(p.detail === 'low' || p.detail === 'high' ? { detail: p.detail } : {}) } }
      : { type: 'text' as const, text: p.text },
  );
}

function partsText(parts: ContentPart[]): string {
  return parts.map((p) => (p.type === 'input_image' ? '' : p.text)).join('');
}

/** The role a non-assistant message goes out as, after the provider's quirk flags. */
function messageRole(role: 'user' | 'system' | 'developer', first: boolean, compat: ResolvedCompat): 'user' | 'system' | 'developer' {
  const mapped = role === 'developer' ? compat.developer_role : role;
  // Many compatible servers reject a system/developer message after the first one (Qwen/vLLM
  // templates raise); as in Codex's DeepSeek fix-up, later ones go as user where the flag says so.
  if (mapped !== 'user' && !first && compat.later_system_as_user) return 'user';
  return mapped;
}

/**
 * A tool result as Chat Completions takes it: tool messages carry text only, so each image is named
 * in the text and itself moved to `images`, which go out in a user message after the tool results
 * (as the agents that speak this wire do: the model sees the image, told which call it came from).
 */
function chatToolOutput(callId: string, output: ToolOutput, images: ContentPart[]): string {
  if (typeof output === 'string' || !output.some((part) => part.type === 'input_image')) return toolOutputText(output);
  const count = output.filter((part) => part.type === 'input_image').length;
  images.push({ type: 'input_text', text: `${count === 1 ? 'The image' : `The ${count} images`} returned by tool call ${callId}:` });
  return output
    .map((part) => {
      if (part.type !== 'input_image') return part.text;
      images.push(part);
      return '[image: sent in the next user message]';
    })
    .join('\n');
}

/**
 * Consecutive assistant-side items (reasoning, text, tool calls) form one assistant message. The
 * fold resumes where the thread's last request left it settled (history-memo.ts).
 */
function lowerMessages(request: ModelRequest, compat: ResolvedCompat): ChatMessage[] {
  const shape = request.wireShape ?? {};
  const input = request.input;
  // Everything the fold below reads besides the items themselves.
  const settings = ['chat', request.instructions, shape.userContent, compat.developer_role, compat.later_system_as_user, compat.reasoning_content];
  const resumed = resumeFold<ChatMessage>(input, settings);
  const messages = resumed.messages;
  if (resumed.reused === 0 && request.instructions) messages.push({ role: 'system', content: request.instructions });
  // After how many items, and with how many messages, nothing was left open.
  let settledItems = resumed.from;
  let settledMessages = messages.length;
  let assistant: { content: string; reasoning: string } | undefined;
  const calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  const flush = (): void => {
    if (!assistant) return;
    const msg: ChatMessage = {
      role: 'assistant',
      content: assistant.content === '' && calls.length ? null : assistant.content,
      ...(calls.length ? { tool_calls: calls.splice(0) } : {}),
      ...(assistant.reasoning && compat.reasoning_content ? { reasoning_content: assistant.reasoning } : {}),
    };
    messages.push(msg);
    assistant = undefined;
  };
  const open = (): NonNullable<typeof assistant> => (assistant ??= { content: '', reasoning: '' });
  // Images of tool results wait for the end of the run of tool messages (nothing may come between
  // an assistant's tool calls and their results), then follow as one user message.
  const toolImages: ContentPart[] = [];
  const flushToolImages = (): void => {
    if (toolImages.length === 0) return;
    messages.push({ role: 'user', content: userContent(toolImages.splice(0), 'parts') } as ChatMessage);
  };
  for (let index = resumed.from; index < input.length; index++) {
    const item = input[index]!;
    if (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output') flushToolImages();
    switch (item.type) {
      case 'message':
        if (item.role === 'assistant') {
          open().content += partsText(item.content);
        } else {
          flush();
          const role = messageRole(item.role, messages.length === 0, compat);
          messages.push(
            (role === 'user'
              ? { role, content: userContent(item.content, shape.userContent) }
              : { role, content: partsText(item.content) }) as ChatMessage,
          );
        }
        break;
      case 'reasoning': {
        const text = (item.content?.length ? item.content : item.summary).map((c) => c.text).join('');
        if (text) open().reasoning += text;
        break;
      }
      case 'function_call':
        open();
        calls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
        break;
      case 'custom_tool_call':
        open();
        calls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: JSON.stringify({ input: item.input }) } });
        break;
      case 'web_search_call':
        // The Responses API's own search has nothing Chat Completions can replay; Anthropic's
        // reports what it found, which goes back as assistant text.
        if (item.raw) {
          const turn = open();
          const gap = turn.content && !turn.content.endsWith('\n\n') ? '\n\n' : '';
          turn.content += `${gap}${webSearchText(item)}\n\n`;
        }
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        flush();
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: chatToolOutput(item.call_id, item.output, toolImages) });
        break;
    }
    if (assistant === undefined && calls.length === 0 && toolImages.length === 0) {
      settledItems = index + 1;
      settledMessages = messages.length;
    }
  }
  rememberFold(input, settings, settledItems, messages, settledMessages, resumed.reused);
  flush();
  flushToolImages();
  return messages;
}

function lowerTools(request: ModelRequest): ChatCompletionTool[] {
  const bare = new Set(request.wireShape?.toolsWithoutParameters ?? []);
  return request.tools.map((tool) => ({
    type: 'function' as const,
    function:
      tool.kind === 'function'
        ? {
            name: tool.name,
            description: tool.description,
            // A tool the original sends without a parameters object (Qwen Code's get_goal on chat).
            ...(bare.has(tool.name) ? {} : { parameters: tool.parameters }),
            ...(tool.strict ? { strict: true } : {}),
            ...tool.extras,
          }
        : { name: tool.name, description: wrappedCustomToolDescription(tool), parameters: wrappedCustomToolSchema(), ...tool.extras },
  }));
}

export function buildChatBody(request: ModelRequest, flags?: ResolvedCompat): Record<string, unknown> {
  const compat = compatOrDefault('chat', flags);
  const shape = request.wireShape ?? {};
  const hasTools = request.tools.length > 0;
  const toolChoice = shape.toolChoice === undefined ? 'auto' : shape.toolChoice;
  const maxTokensField = compat.max_tokens_field ?? shape.maxTokensField ?? 'max_tokens';
  const body: ChatBody = {
    model: request.model,
    messages: lowerMessages(request, compat),
    ...(hasTools ? { tools: lowerTools(request) } : {}),
    ...(hasTools && toolChoice !== null ? { tool_choice: toolChoice as ChatBody['tool_choice'] } : {}),
    ...(hasTools && request.parallelToolCalls !== undefined && !shape.omitParallelToolCalls ? { parallel_tool_calls: request.parallelToolCalls } : {}),
    stream: true,
    ...(compat.stream_usage && shape.streamUsage !== false ? { stream_options: { include_usage: true } } : {}),
    ...(shape.store === true && compat.store ? { store: false } : {}),
    ...(request.maxOutputTokens !== undefined ? { [maxTokensField]: request.maxOutputTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.reasoningEffort !== undefined ? { reasoning_effort: request.reasoningEffort as ChatBody['reasoning_effort'] } : {}),
    ...(request.outputSchema
      ? { response_format: { type: 'json_schema' as const, json_schema: { name: 'codex_output_schema', schema: request.outputSchema, strict: true } } }
      : {}),
  };
  return orderFields({ ...body, ...request.extraBody }, shape.fieldOrder);
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
