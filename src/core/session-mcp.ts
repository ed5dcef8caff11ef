// MCP servers a front end's client brings for one thread (ACP's `mcpServers` in session/new and
// session/load), as the resolved server configs the thread's MCP client starts alongside the
// configured ones, with Codex's defaults. Clients name servers freely ("My DB"); rig's tool names
// need `^[A-Za-z0-9_-]+$`, so a name is made to fit and kept unique.
import { DEFAULT_MCP_STARTUP_TIMEOUT_MS, DEFAULT_MCP_TOOL_TIMEOUT_MS, MCP_SERVER_NAME, type ResolvedMcpServer } from '../config/index.js';

export type SessionMcpServer =
  | { name: string; transport: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { name: string; transport: 'streamable_http'; url: string; headers: Record<string, string> };

function fittingName(name: string, taken: Set<string>): string {
  const base = MCP_SERVER_NAME.test(name) ? name : name.replace(/[^A-Za-z0-9_-]/g, '_') || 'server';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${n}`;
  taken.add(candidate);
  return candidate;
}

export function resolveSessionMcpServers(servers: readonly SessionMcpServer[]): Record<string, ResolvedMcpServer> {
  const out: Record<string, ResolvedMcpServer> = {};
  const taken = new Set<string>();
  for (const server of servers) {
    const common = {
      enabled: true,
      // The client asked for these servers for this session: the thread starts with their tools or
      // not at all (the start's error names the server and its stderr), never quietly without them.
      required: true,
      startup_timeout_ms: DEFAULT_MCP_STARTUP_TIMEOUT_MS,
      tool_timeout_ms: DEFAULT_MCP_TOOL_TIMEOUT_MS,
      tools: {},
      supports_parallel_tool_calls: false,
    };
    const name = fittingName(server.name, taken);
    out[name] =
      server.transport === 'stdio'
        ? { ...common, transport: 'stdio', command: server.command, args: [...server.args], env: { ...server.env }, env_vars: [] }
        : { ...common, transport: 'streamable_http', url: server.url, http_headers: { ...server.headers }, env_http_headers: {} };
  }
  return out;
}
