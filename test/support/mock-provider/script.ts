// The neutral script a test feeds the mock provider: one MockTurn per model request, rendered in
// whichever wire format the request arrived on.

export interface MockToolCall {
  name: string;
  /** Function-call arguments: an object (sent as JSON) or raw text (sent as-is, may be malformed). */
  arguments?: Record<string, unknown> | string;
  /** 'custom' = freeform tool (Responses custom_tool_call; elsewhere a function with {input}). */
  kind?: 'function' | 'custom';
  /** Freeform input for kind 'custom'. */
  input?: string;
  /** Call id; default call_<n> (responses/chat) or toolu_<n> (messages). */
  id?: string;
}

/** A search the provider runs by itself: its query, or the query with what it finds or its error code. */
export type MockWebSearch = string | { query: string; results?: MockSearchHit[]; error?: string };

export interface MockSearchHit {
  title: string;
  url: string;
  page_age?: string;
}

export function searchQuery(search: MockWebSearch): string {
  return typeof search === 'string' ? search : search.query;
}

export interface MockUsage {
  input_tokens?: number;
  cached_input_tokens?: number;
  cache_write_input_tokens?: number;
  output_tokens?: number;
  reasoning_output_tokens?: number;
}

export interface MockTurn {
  text?: string;
  /** Reasoning: Responses summary text, Chat `reasoning_content`, Anthropic thinking block. */
  reasoning?: string;
  /** Anthropic thinking signature (default "sig_<n>"); Responses encrypted_content likewise. */
  signature?: string;
  toolCalls?: MockToolCall[];
  /**
   * The provider's own searches, before the text: Responses web_search_call items; Messages
   * server_tool_use + web_search_tool_result blocks (and usage.server_tool_use.web_search_requests).
   */
  webSearches?: MockWebSearch[];
  /** Messages: the text block cites the first result of the first search (a citations_delta). */
  cite?: boolean;
  usage?: MockUsage;
  /** Characters per text/argument delta (default 8), so every stream splits across chunks. */
  deltaSize?: number;

  // ---- faults ----
  /** Answer with this HTTP status instead of a stream (body defaults to the wire's error JSON). */
  status?: number;
  headers?: Record<string, string>;
  /** Error body: an object is sent as JSON, a string as-is. */
  body?: unknown;
  /** Error message used in the default error body (default "mock error"). */
  message?: string;
  /** Send only the first n SSE events, then destroy the connection. */
  cutAfterEvents?: number;
  /** Send only the first n SSE events, then stay silent with the connection open. */
  idleAfterEvents?: number;
  /** Put one unparseable `data:` event at the start of the stream. */
  malformedJson?: boolean;
  /**
   * End the stream with the wire's in-stream failure (response.failed / error event / error chunk;
   * a numeric code as llama.cpp's `{"error":{"code":500,...}}`).
   */
  streamError?: { code?: string | number; type?: string; message: string };
  /** Content type of a `status` answer (e.g. "text/html" for a web server's 404 page). */
  contentType?: string;
  /** A 200 whose stream holds only `data: [DONE]`. */
  onlyDone?: boolean;
  /** A 200 text/event-stream whose every event is `data: {not json`. */
  garbageEvents?: number;
  /** A 200 `application/json` answer with this body instead of a stream (a server ignoring stream: true). */
  json200?: unknown;
  /** Wait this long before answering: a model's time to first token (the bench's sessions with a think time). */
  delayMs?: number;
  /** Wait this long between the stream's events, as a model producing its tokens one by one. */
  eventDelayMs?: number;
  /** Accept the request and never send response headers. */
  noHeaders?: boolean;
  /** Read the request, then close the connection without a response. */
  closeBeforeHeaders?: boolean;
  /**
   * The reply stops at the output limit (Chat finish_reason "length", Messages stop_reason
   * "max_tokens", Responses status "incomplete"); with toolCalls, the last call is cut in half.
   */
  outputLimit?: boolean;
}

export type MockWire = 'responses' | 'chat' | 'messages';

export interface MockRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/responses". */
  path: string;
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body (raw text when it is not JSON). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests index into it freely
  wire?: MockWire;
  /** performance.now() when the body's last byte arrived, before the mock decoded and parsed it. */
  receivedAt: number;
}

/** Everything a renderer needs besides the turn. */
export interface RenderContext {
  /** 1-based number of the request being answered (ids are derived from it). */
  n: number;
  model: string;
}

export function splitDeltas(text: string, size: number): string[] {
  const step = Math.max(1, size);
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += step) parts.push(text.slice(i, i + step));
  return parts;
}

/** Arguments as sent: the whole text, or its first half for the call an output limit cuts. */
export function sentArguments(turn: MockTurn, call: MockToolCall, index: number): string {
  const text = argumentsText(call);
  const cut = turn.outputLimit === true && index === (turn.toolCalls?.length ?? 0) - 1;
  return cut ? text.slice(0, Math.floor(text.length / 2)) : text;
}

export function argumentsText(call: MockToolCall): string {
  if (call.kind === 'custom') return JSON.stringify({ input: call.input ?? '' });
  if (typeof call.arguments === 'string') return call.arguments;
  return JSON.stringify(call.arguments ?? {});
}

export function usageOf(turn: MockTurn): Required<MockUsage> {
  return {
    input_tokens: turn.usage?.input_tokens ?? 10,
    cached_input_tokens: turn.usage?.cached_input_tokens ?? 0,
    cache_write_input_tokens: turn.usage?.cache_write_input_tokens ?? 0,
    output_tokens: turn.usage?.output_tokens ?? 5,
    reasoning_output_tokens: turn.usage?.reasoning_output_tokens ?? 0,
  };
}
