// The room's neutral shapes: what the engine sees of MCP servers, their tools, calls and events.
// Nothing here depends on the SDK, so importing these types costs nothing at startup.
import type { JsonSchema } from '../protocol/index.js';
import type { McpToolHints } from './approval.js';

export type McpServerStatus = 'starting' | 'ready' | 'failed';

export interface McpToolAnnotations extends McpToolHints {
  title?: string;
  idempotentHint?: boolean;
}

/** One tool a ready server offers (after enabled_tools / disabled_tools). */
export interface McpToolInfo {
  server: string;
  /** The server's own name for it (what tools/call is sent with). */
  name: string;
  title?: string;
  description?: string;
  /** The server's JSON Schema, passed through unchanged. */
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: McpToolAnnotations;
}

export interface McpServerState {
  server: string;
  transport: 'stdio' | 'streamable_http';
  status: McpServerStatus;
  required: boolean;
  /** Why it failed (the error, and for stdio the end of its stderr). */
  reason?: string;
  toolCount: number;
  /** initialize + first tools/list, for the last successful start. */
  startupMs?: number;
  /** serverInfo from initialize. */
  serverInfo?: { name: string; version: string };
  /** The server's `instructions` from initialize, if any. */
  instructions?: string;
}

export type McpEvent =
  | { type: 'server_status'; server: string; status: McpServerStatus; reason?: string; toolCount?: number }
  /** The server's tool list changed: a late start, tools/list_changed, a restart, a crash. */
  | { type: 'tools_changed'; server: string; toolCount: number }
  | { type: 'progress'; server: string; callId?: string; progress: number; total?: number; message?: string };

/** An MCP content block as the spec defines it (kept loose: servers add fields). */
export type McpContentBlock = { type: string; [key: string]: unknown };

/** A tools/call result as received. */
export interface McpCallToolResult {
  content: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

export type McpCallOutcome =
  | { ok: true; result: McpCallToolResult; durationMs: number }
  /**
   * The call did not produce a result: `kind` says why. `message` is ready for the model (and the
   * mcp_tool_call item's error): it names the server and what to expect next.
   */
  | { ok: false; kind: 'timeout' | 'cancelled' | 'crashed' | 'unavailable' | 'protocol' | 'unknown_tool'; message: string; durationMs: number };

export interface McpCallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Overrides the server's tool_timeout_sec for this call. */
  timeoutMs?: number;
  /** Passed in the request's `_meta`. */
  meta?: Record<string, unknown>;
}

/** An elicitation/create request from a server, for the front end to answer. */
export interface McpElicitationRequest {
  server: string;
  mode: 'form' | 'url';
  message: string;
  /** Form mode: the flat JSON Schema of the requested fields. */
  requestedSchema?: JsonSchema;
  /** URL mode: where the user is sent. */
  url?: string;
  elicitationId?: string;
}

export type McpElicitationResponse =
  | { action: 'accept'; content?: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** Answers a server's elicitation; rejecting or aborting counts as "cancel". */
export type McpElicitationHandler = (request: McpElicitationRequest, signal: AbortSignal) => Promise<McpElicitationResponse>;
