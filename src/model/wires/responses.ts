// OpenAI Responses API (POST /responses, SSE). The neutral items follow this wire's item shapes,
// so lowering is mostly a copy; the stream's output_item.done items are authoritative.
import type {
  ResponseCreateParamsStreaming,
  ResponseInputItem,
  ResponseStreamEvent,
  ResponseUsage,
  Tool as ResponsesTool,
} from 'openai/resources/responses/responses';
import type { EventSourceMessage } from 'eventsource-parser';
import { parseJsonData, WireStreamError, type WireAdapter, type WireStreamParser } from '../transport/wire-adapter.js';
import { retryAfterFromText } from '../transport/retry.js';
import { stableJson } from '../transport/json-chunks.js';
import { isContextLengthMessage } from '../transport/http-errors.js';
import { cutToolCallFailure } from './output-limit.js';
import { compatOrDefault, orderFields, webSearchText } from './shared.js';
import type { ResolvedCompat } from '../compat.js';
import type { ContentPart, ConversationItem, ModelEvent, ModelRequest, TokenUsage, ToolOutput, WebSearchAction } from './shared-types.js';

// ---- request types -------------------------------------------------------------------------

type ResponsesBody = ResponseCreateParamsStreaming & Record<string, unknown>;

// ---- chunk types ---------------------------------------------------------------------------

/** Output items as they arrive in output_item.added/.done (the SDK union, read loosely). */
interface OutputItem {
  type: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  input?: string;
  role?: string;
  content?: { type: string; text?: string }[];
  summary?: { type: string; text: string }[];
  encrypted_content?: string | null;
  status?: string;
  /** web_search_call: what the search did. */
  action?: Record<string, unknown>;
}

// ---- parser state --------------------------------------------------------------------------

interface ResponsesParserState {
  /** item_id -> call_id, so argument deltas (which carry item ids) name the call. */
  callIdByItemId: Map<string, string>;
  sawToolCall: boolean;
  /** Tool calls begun (output_item.added) and not finished: call_id -> tool name. */
  openCalls: Map<string, string>;
}

// ---- request lowering ----------------------------------------------------------------------

/** Ids the server assigned (msg_, rs_, fc_, ctc_ ...) are echoed; locally made ones are not. */
const SERVER_ID = /^[a-z]+_[A-Za-z0-9]/;

function lowerOutput(output: ToolOutput): string | Record<string, unknown>[] {
  if (typeof output === 'string') return output;
  return output.map((part) =>
    part.type === 'output_text' ? { type: 'input_text', text: part.text } : { ...part },
  );
}

function lowerContent(parts: ContentPart[]): Record<string, unknown>[] {
  return parts.map((part) => ({ ...part }));
}

function lowerItem(item: ConversationItem, compat: ResolvedCompat, typeField: boolean): Record<string, unknown> | undefined {
  const id = 'id' in item && item.id && SERVER_ID.test(item.id) ? { id: item.id } : {};
  switch (item.type) {
    case 'message': {
      const role = item.role === 'developer' ? compat.developer_role : item.role;
      return { ...(typeField ? { type: 'message' } : {}), role, content: lowerContent(item.content), ...id };
    }
    case 'reasoning': {
      if (!item.encrypted_content && !id.id && !item.content?.length) return undefined;
      return {
        type: 'reasoning',
        ...id,
        summary: item.summary,
        ...(item.content?.length ? { content: item.content } : {}),
        encrypted_content: item.encrypted_content ?? null,
      };
    }
    case 'function_call':
      return { type: 'function_call', ...id, call_id: item.call_id, name: item.name, arguments: item.arguments };
    case 'function_call_output':
      return { type: 'function_call_output', call_id: item.call_id, output: lowerOutput(item.output) };
    case 'custom_tool_call':
      return { type: 'custom_tool_call', ...id, call_id: item.call_id, name: item.name, input: item.input };
    case 'custom_tool_call_output':
      return { type: 'custom_tool_call_output', call_id: item.call_id, output: lowerOutput(item.output) };
    case 'web_search_call':
      // Anthropic's server search cannot be replayed here: what it found goes back as text.
      if (item.raw) return { ...(typeField ? { type: 'message' } : {}), role: 'assistant', content: [{ type: 'output_text', text: webSearchText(item) }] };
      return { type: 'web_search_call', ...id, status: item.status, ...(item.action ? { action: item.action } : {}) };
  }
}

interface LoweredEntry {
  developerRole: string;
  typeField: boolean;
  lowered: Record<string, unknown> | undefined;
}

// History items never change once appended, and every request of a thread lowers the same ones:
// each is lowered once (per the two settings lowerItem reads) and its JSON encoded once (stableJson).
const loweredItems = new WeakMap<ConversationItem, LoweredEntry>();

function lowerItemOnce(item: ConversationItem, compat: ResolvedCompat, typeField: boolean): Record<string, unknown> | undefined {
  const entry = loweredItems.get(item);
  if (entry && entry.developerRole === compat.developer_role && entry.typeField === typeField) return entry.lowered;
  const made = lowerItem(item, compat, typeField);
  const lowered = made === undefined ? undefined : stableJson(made);
  loweredItems.set(item, { developerRole: compat.developer_role, typeField, lowered });
  return lowered;
}

/** The input list: the system prompt first when the shape puts it there (a role item, string content). */
function lowerInput(request: ModelRequest, compat: ResolvedCompat): Record<string, unknown>[] {
  const shape = request.wireShape ?? {};
  const typeField = shape.itemTypeField !== false;
  const items = request.input.map((item) => lowerItemOnce(item, compat, typeField)).filter((i) => i !== undefined);
  if (request.instructions && (shape.system === 'system-item' || shape.system === 'developer-item')) {
    const role = shape.system === 'system-item' ? 'system' : compat.developer_role;
    items.unshift({ ...(typeField ? { type: 'message' } : {}), role, content: request.instructions });
  }
  return items;
}

function lowerTools(request: ModelRequest): ResponsesTool[] {
  const tools = lowerFunctionTools(request);
  // Codex's form: cached results only unless live access was asked for.
  if (request.hostedWebSearch) tools.push({ type: 'web_search', external_web_access: request.hostedWebSearch.externalWebAccess } as unknown as ResponsesTool);
  return tools;
}

function lowerFunctionTools(request: ModelRequest): ResponsesTool[] {
  const omitStrict = request.wireShape?.omitToolStrict === true;
  return request.tools.map((tool): ResponsesTool => {
    if (tool.kind === 'function') {
      return {
        type: 'function',
        name: tool.name,
        description: tool.description,
        ...(omitStrict ? {} : { strict: tool.strict ?? false }),
        parameters: tool.parameters,
        ...tool.extras,
      } as ResponsesTool;
    }
    return {
      type: 'custom',
      name: tool.name,
      description: tool.description,
      ...(tool.format ? { format: tool.format } : {}),
      ...tool.extras,
    } as ResponsesTool;
  });
}

export function buildResponsesBody(request: ModelRequest, flags?: ResolvedCompat): Record<string, unknown> {
  const compat = compatOrDefault('responses', flags);
  const shape = request.wireShape ?? {};
  const usesReasoning = request.reasoningEffort !== undefined || request.reasoningSummary !== undefined;
  const instructionsField = shape.system === undefined || shape.system === 'instructions';
  const toolChoice = shape.toolChoice === undefined ? 'auto' : shape.toolChoice;
  const body: ResponsesBody = {
    model: request.model,
    ...(request.instructions && instructionsField ? { instructions: request.instructions } : {}),
    input: lowerInput(request, compat) as unknown as ResponseInputItem[],
    tools: lowerTools(request),
    ...(toolChoice !== null ? { tool_choice: toolChoice as ResponsesBody['tool_choice'] } : {}),
    ...(shape.omitParallelToolCalls ? {} : { parallel_tool_calls: request.parallelToolCalls ?? false }),
    ...(usesReasoning
      ? {
          reasoning: {
            ...(request.reasoningEffort !== undefined ? { effort: request.reasoningEffort } : {}),
            ...(request.reasoningSummary !== undefined ? { summary: request.reasoningSummary } : {}),
          } as ResponsesBody['reasoning'],
        }
      : {}),
    ...(shape.store !== false && compat.store ? { store: false } : {}),
    stream: true,
    ...(usesReasoning && shape.includeEncryptedReasoning !== false && compat.encrypted_reasoning
      ? { include: ['reasoning.encrypted_content'] }
      : {}),
    ...(request.promptCacheKey && compat.prompt_cache_key ? { prompt_cache_key: request.promptCacheKey } : {}),
    ...(request.outputSchema || request.verbosity
      ? {
          text: {
            ...(request.verbosity ? { verbosity: request.verbosity as 'low' | 'medium' | 'high' } : {}),
            ...(request.outputSchema
              ? { format: { type: 'json_schema', name: 'codex_output_schema', schema: request.outputSchema, strict: true } }
              : {}),
          },
        }
      : {}),
    ...(request.maxOutputTokens !== undefined ? { max_output_tokens: request.maxOutputTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
  return orderFields({ ...body, ...request.extraBody }, shape.fieldOrder);
}

// ---- stream parsing ------------------------------------------------------------------------

export function mapResponsesUsage(usage: ResponseUsage | null | undefined): TokenUsage | undefined {
  if (!usage) return undefined;
  const details = usage.input_tokens_details as { cached_tokens?: number; cache_write_tokens?: number } | undefined;
  return {
    input_tokens: usage.input_tokens ?? 0,
    cached_input_tokens: details?.cached_tokens ?? 0,
    cache_write_input_tokens: details?.cache_write_tokens ?? 0,
    output_tokens: usage.output_tokens ?? 0,
    reasoning_output_tokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

function neutralItem(item: OutputItem): ConversationItem | undefined {
  const id = item.id ? { id: item.id } : {};
  switch (item.type) {
    case 'message':
      return {
        type: 'message',
        role: 'assistant',
        content: (item.content ?? [])
          .filter((c) => c.type === 'output_text')
          .map((c) => ({ type: 'output_text' as const, text: c.text ?? '' })),
        ...id,
      };
    case 'reasoning': {
      const content = (item.content ?? [])
        .filter((c) => c.type === 'reasoning_text')
        .map((c) => ({ type: 'reasoning_text' as const, text: c.text ?? '' }));
      return {
        type: 'reasoning',
        ...id,
        summary: (item.summary ?? []).map((s) => ({ type: 'summary_text' as const, text: s.text })),
        ...(content.length ? { content } : {}),
        ...(item.encrypted_content ? { encrypted_content: item.encrypted_content } : {}),
      };
    }
    case 'function_call':
      return { type: 'function_call', call_id: item.call_id ?? '', name: item.name ?? '', arguments: item.arguments ?? '', ...id };
    case 'custom_tool_call':
      return { type: 'custom_tool_call', call_id: item.call_id ?? '', name: item.name ?? '', input: item.input ?? '', ...id };
    case 'web_search_call':
      return { type: 'web_search_call', ...id, status: item.status ?? 'completed', ...(item.action ? { action: item.action as unknown as WebSearchAction } : {}) };
    default:
      return undefined; // image_generation_call and friends have no neutral form yet
  }
}

/** response.failed / error event codes -> failure (reference: providers-and-streaming.md §3). */
export function responsesFailure(code: string | undefined, message: string): WireStreamError {
  const text = message || 'response.failed event received';
  if (code === 'context_length_exceeded' || isContextLengthMessage(text)) {
    return new WireStreamError({ kind: 'context_length', retryable: false, message: text });
  }
  if (code === 'insufficient_quota' || code === 'usage_not_included') {
    return new WireStreamError({ kind: 'quota', retryable: false, message: text });
  }
  if (code === 'invalid_prompt' || code === 'bio_policy' || code === 'cyber_policy' || code === 'misalignment_policy_violation') {
    return new WireStreamError({ kind: 'bad_request', retryable: false, message: text });
  }
  if (code === 'server_is_overloaded' || code === 'slow_down') {
    return new WireStreamError({
      kind: 'server',
      retryable: false,
      message: 'Selected model is at capacity. Please try a different model.',
    });
  }
  const delayMs = code === 'rate_limit_exceeded' ? retryAfterFromText(text) : undefined;
  return new WireStreamError({
    kind: code === 'rate_limit_exceeded' ? 'rate_limit' : 'stream',
    retryable: true,
    message: text,
    ...(delayMs !== undefined ? { delayMs } : {}),
  });
}

function pushEvent(state: ResponsesParserState, event: ResponseStreamEvent): ModelEvent[] {
  switch (event.type) {
    case 'response.created':
      return [{ type: 'created', response_id: event.response.id }];
    case 'response.output_item.added': {
      const item = event.item as OutputItem;
      if ((item.type === 'function_call' || item.type === 'custom_tool_call') && item.call_id) {
        if (item.id) state.callIdByItemId.set(item.id, item.call_id);
        state.openCalls.set(item.call_id, item.name ?? '');
        const kind = item.type === 'function_call' ? 'function' : 'custom';
        return [{ type: 'tool_call_started', call_id: item.call_id, name: item.name ?? '', kind }];
      }
      return [];
    }
    case 'response.output_text.delta':
      return [{ type: 'text_delta', delta: event.delta }];
    case 'response.reasoning_summary_text.delta':
      return [{ type: 'reasoning_delta', delta: event.delta, summary: true }];
    case 'response.reasoning_text.delta':
      return [{ type: 'reasoning_delta', delta: event.delta, summary: false }];
    case 'response.function_call_arguments.delta':
    case 'response.custom_tool_call_input.delta': {
      const callId = state.callIdByItemId.get(event.item_id);
      return callId ? [{ type: 'tool_call_delta', call_id: callId, delta: event.delta }] : [];
    }
    case 'response.output_item.done': {
      const raw = event.item as OutputItem;
      // An item the output limit cut off stays open (it is never run; see response.incomplete).
      if (raw.status === 'incomplete' && (raw.type === 'function_call' || raw.type === 'custom_tool_call')) return [];
      if (raw.call_id) state.openCalls.delete(raw.call_id);
      const item = neutralItem(raw);
      if (!item) return [];
      if (item.type === 'function_call' || item.type === 'custom_tool_call') state.sawToolCall = true;
      return [{ type: 'item_done', item }];
    }
    case 'response.completed': {
      const usage = mapResponsesUsage(event.response.usage);
      return [
        {
          type: 'completed',
          stop_reason: state.sawToolCall ? 'tool_use' : 'end_turn',
          response_id: event.response.id,
          ...(usage ? { usage } : {}),
        },
      ];
    }
    case 'response.failed': {
      const error = event.response.error;
      throw responsesFailure(error?.code ?? undefined, error?.message ?? '');
    }
    case 'response.incomplete': {
      const reason = event.response.incomplete_details?.reason ?? 'unknown';
      if (reason === 'max_output_tokens') {
        const cut = [...state.openCalls.values()][0];
        if (cut !== undefined) throw cutToolCallFailure(cut, 'status "incomplete", reason max_output_tokens');
        const usage = mapResponsesUsage(event.response.usage);
        return [{ type: 'completed', stop_reason: state.sawToolCall ? 'tool_use' : 'max_tokens', response_id: event.response.id, ...(usage ? { usage } : {}) }];
      }
      // Deterministic (token limit, content filter): another attempt would end the same way.
      throw new WireStreamError({
        kind: 'stream',
        retryable: false,
        message: `Incomplete response returned, reason: ${reason}`,
      });
    }
    case 'error':
      throw responsesFailure(event.code ?? undefined, event.message);
    default:
      return [];
  }
}

export function createResponsesParser(): WireStreamParser {
  const state: ResponsesParserState = { callIdByItemId: new Map(), sawToolCall: false, openCalls: new Map() };
  return {
    push(message: EventSourceMessage, json: unknown = parseJsonData(message.data)): ModelEvent[] {
      const event = json as (ResponseStreamEvent) | undefined;
      if (!event || typeof event.type !== 'string') return [];
      return pushEvent(state, event);
    },
    end(): ModelEvent[] {
      throw new WireStreamError({ kind: 'stream', retryable: true, message: 'stream closed before response.completed' });
    },
  };
}

export const responsesAdapter: WireAdapter = {
  wire: 'responses',
  path: '/responses',
  buildBody: buildResponsesBody,
  createParser: () => createResponsesParser(),
};
