// MCP in the thread's event stream: the startup status of each configured server, changes of its
// tool list, progress of a running call, and the two questions an MCP server can make a person
// answer (may this tool call run; what does the server's form want). Front ends show the status
// events (rig exec prints them; the TUI and app-server map them to their own views: Codex's
// app-server calls them mcpServer/startupStatus/updated and item/mcpToolCall/progress).
import type { JsonSchema } from './tools.js';

export type McpServerStartupStatus = 'starting' | 'ready' | 'failed';

/** A configured server changed state: starting (at thread start, or a restart), ready, failed. */
export interface McpServerStatusEvent {
  type: 'mcp.server_status';
  server: string;
  status: McpServerStartupStatus;
  /** With `failed`: why (the error, and for a stdio server the end of its stderr). */
  error?: string;
  /** With `ready`: how many tools it offers (after enabled_tools / disabled_tools). */
  tool_count?: number;
  /** With `ready`: initialize plus the first tools/list, in milliseconds. */
  startup_ms?: number;
  /** A required server that fails stops the thread from starting. */
  required: boolean;
}

/** A server's tool list changed (a late start, tools/list_changed, a restart); the next request offers the new list. */
export interface McpToolsChangedEvent {
  type: 'mcp.tools_changed';
  server: string;
  tool_count: number;
}

/** A running mcp_tool_call reported progress (the call's timeout restarts with each report). */
export interface McpToolCallProgressEvent {
  type: 'item.mcp_tool_call.progress';
  item_id: string;
  progress: number;
  total?: number;
  message?: string;
}

export type McpLiveEvent = McpServerStatusEvent | McpToolsChangedEvent | McpToolCallProgressEvent;

/** What the server says about a tool (MCP ToolAnnotations), as far as a person deciding needs it. */
export interface McpToolAnnotationsView {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
  idempotentHint?: boolean;
}

/**
 * May this MCP tool call run? Asked by the orchestrator following the server's approval_mode and
 * the tool's annotations. Answers: approve, approve_for_session (offered when `allow_session`),
 * approve_always ("allow and don't ask again", persisted in config.toml; offered when
 * `allow_always`), deny (with feedback), abort. A choice that is not offered counts as approve.
 */
export interface McpToolCallApprovalRequest {
  kind: 'mcp_tool_call';
  id: string;
  /** The mcp_tool_call item this request belongs to. */
  item_id: string;
  server: string;
  tool: string;
  /** The arguments the model sent. */
  arguments: unknown;
  annotations?: McpToolAnnotationsView;
  /** The tool's description from the server (its first lines). */
  description?: string;
  allow_session: boolean;
  allow_always: boolean;
  reason?: string;
  /** Set when a sub-agent's call is asked in its parent's front end: the child's path and thread. */
  agent_path?: string;
  agent_thread_id?: string;
}

/**
 * An MCP server asks the user something (elicitation/create). Answer approve with `content`
 * matching `requested_schema` (form mode; url mode needs none), deny (the server is told the user
 * declined), or abort (cancel, and stop the turn).
 */
export interface McpElicitationApprovalRequest {
  kind: 'mcp_elicitation';
  id: string;
  server: string;
  mode: 'form' | 'url';
  message: string;
  /** Form mode: a flat JSON Schema object of the fields asked for. */
  requested_schema?: JsonSchema;
  /** URL mode: where the user should go. */
  url?: string;
  /** The mcp_tool_call item during which the server asked, when there is one. */
  item_id?: string;
  /** Set when a sub-agent's server asks in its parent's front end: the child's path and thread. */
  agent_path?: string;
  agent_thread_id?: string;
}
