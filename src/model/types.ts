// The one interface the engine samples through. The turn loop receives a ModelClient; it never
// builds one (tests inject scripted clients or point a real one at the loopback mock).
import type { ConversationItem, JsonSchema, ModelEvent, ToolDefinition } from '../protocol/index.js';

export type WireApi = 'responses' | 'chat' | 'messages';

export interface ModelRequest {
  model: string;
  /** System prompt / Responses `instructions`. Empty string = none. */
  instructions: string;
  input: ConversationItem[];
  tools: ToolDefinition[];
  parallelToolCalls?: boolean;
  reasoningEffort?: string;
  reasoningSummary?: string;
  /** Responses `text.verbosity` (low | medium | high); other wires have no such field. */
  verbosity?: string;
  /** JSON schema the final answer must follow (Responses `text.format`, Chat `response_format`). */
  outputSchema?: JsonSchema;
  /** Responses `prompt_cache_key`; the thread id so provider caches hit. */
  promptCacheKey?: string;
  maxOutputTokens?: number;
  temperature?: number;
  /** Extra top-level body fields a harness profile adds (merged last). */
  extraBody?: Record<string, unknown>;
  /** Extra HTTP headers a harness profile adds. */
  extraHeaders?: Record<string, string>;
  /** Thread/session id sent in headers where the wire has them. */
  sessionId?: string;
  /**
   * Asked before retrying a broken stream: once a tool call from this response has started
   * running, a retry would run it twice, so the caller answers false.
   */
  mayRetryStream?: () => boolean;
}

export interface ModelClient {
  readonly wire: WireApi;
  /** Streams neutral events; ends with exactly one `completed` or `error`. Never throws. */
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelEvent>;
  /** The exact request body this client would send, for `rig harness show` and snapshots. */
  buildBody(request: ModelRequest): Record<string, unknown>;
}
