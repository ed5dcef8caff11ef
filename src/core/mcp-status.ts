// The MCP servers of a loaded thread as a front end shows them (the TUI's /mcp): each configured
// server's state (starting, ready, failed with its error, disabled), and the tools it offers.
import type { ThreadHandle } from './thread-handle.js';

export interface McpServerView {
  server: string;
  transport: 'stdio' | 'streamable_http';
  status: 'starting' | 'ready' | 'failed' | 'disabled';
  required: boolean;
  error?: string;
  /** Its tools' names as the server calls them (after enabled_tools / disabled_tools). */
  tools: string[];
  startupMs?: number;
}

/** Undefined when the thread has no MCP servers configured; empty states while the SDK still loads. */
export function threadMcpStatus(handle: ThreadHandle): { servers: McpServerView[]; loading: boolean } | undefined {
  const mcp = handle.mcp;
  if (!mcp) return undefined;
  const manager = mcp.connections;
  if (!manager) return { servers: [], loading: true };
  const tools = manager.tools();
  const servers = manager.states().map((state): McpServerView => ({
    server: state.server,
    transport: state.transport,
    status: state.status,
    required: state.required,
    ...('reason' in state && state.reason !== undefined ? { error: state.reason } : {}),
    tools: tools.filter((tool) => tool.server === state.server).map((tool) => tool.name),
    ...('startupMs' in state && state.startupMs !== undefined ? { startupMs: Math.round(state.startupMs) } : {}),
  }));
  return { servers, loading: false };
}
