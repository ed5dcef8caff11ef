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
  /** How the harness's original lays the request out on this wire (see WireShape). */
  wireShape?: WireShape;
  /** Extra HTTP headers a harness profile adds. */
  extraHeaders?: Record<string, string>;
  /**
   * The provider's own web search (web_search = "live" | "cached"), after the function tools: the
   * Responses API's hosted `web_search` tool, Anthropic's server tool `web_search_20250305`; Chat
   * Completions has none and ignores it.
   */
  hostedWebSearch?: HostedWebSearch;
  /** Thread/session id sent in headers where the wire has them. */
  sessionId?: string;
  /**
   * Asked before retrying a broken stream: once a tool call from this response has started
   * running, a retry would run it twice, so the caller answers false.
   */
  mayRetryStream?: () => boolean;
}

export interface HostedWebSearch {
  /** Responses `external_web_access` (false for "cached"); Anthropic's search has no such switch. */
  externalWebAccess: boolean;
  /** Anthropic: searches allowed in one response (`max_uses`). */
  maxUses?: number;
  /** Anthropic: only / never these domains (one of the two, never both). */
  allowedDomains?: string[];
  blockedDomains?: string[];
  /** Anthropic: where the user is, for local results (`user_location`, type "approximate"). */
  userLocation?: { city?: string; region?: string; country?: string; timezone?: string };
}

/**
 * The layout choices of one original agent on one wire, set by its harness profile. Every field is
 * optional; an unset one keeps the adapter's own form. A provider's compat flags (providers.ts) say
 * what the server accepts and win over these where they are set.
 */
export interface WireShape {
  /**
   * Where the system prompt goes. `instructions`: Responses `instructions`, the first Chat system
   * message, the Messages `system` field (the default). `system-item` / `developer-item`: a
   * Responses input item with that role (pi and opencode through openai-node / the AI SDK).
   */
  system?: 'instructions' | 'system-item' | 'developer-item';
  /** Responses: message items without `type: "message"` and a system item with string content. */
  itemTypeField?: boolean;
  /** Chat: user content as one string (the default) or as a list of text parts. */
  userContent?: 'string' | 'parts';
  /** `tool_choice` as sent; null leaves it out. Default: "auto" on Responses and Chat, none on Messages. */
  toolChoice?: unknown;
  /** Responses and Chat: leave `parallel_tool_calls` out even when the request sets it. */
  omitParallelToolCalls?: boolean;
  /** Chat: tools sent without a `parameters` object (Qwen Code's parameterless tools). */
  toolsWithoutParameters?: string[];
  /** Responses: function tools without a `strict` field. */
  omitToolStrict?: boolean;
  /** Chat: the field the output cap goes in. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Send `store: false` (default: on Responses yes, on Chat no). */
  store?: boolean;
  /** Chat: `stream_options.include_usage` (default true). */
  streamUsage?: boolean;
  /** Responses: `include: ["reasoning.encrypted_content"]` with reasoning (default true). */
  includeEncryptedReasoning?: boolean;
  /** Messages: where `cache_control` breakpoints go (default: system, last message block, last tool). */
  cacheControl?: { system?: boolean; lastMessage?: boolean; lastTool?: boolean };
  /** Messages: the request's reasoning effort as `output_config.effort` (Claude Code). */
  effortInOutputConfig?: boolean;
  /** Top-level body keys put first, in this order (the original's field order); the rest follow. */
  fieldOrder?: string[];
}

export interface ModelClient {
  readonly wire: WireApi;
  /** Streams neutral events; ends with exactly one `completed` or `error`. Never throws. */
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelEvent>;
  /** The exact request body this client would send, for `rig harness show` and snapshots. */
  buildBody(request: ModelRequest): Record<string, unknown>;
}
