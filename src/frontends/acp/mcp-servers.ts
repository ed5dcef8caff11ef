// ACP's `mcpServers` (session/new, session/load) as the engine's session MCP servers: stdio with
// command, args and env, and `http` as streamable HTTP with its headers. rig's MCP client has no
// legacy SSE transport (initialize says so with mcpCapabilities.sse = false); a client that sends
// one anyway gets an error naming the server, not a session quietly without it.
import { RequestError, type McpServer } from '@agentclientprotocol/sdk';
import type { SessionMcpServer } from '../../core/session-mcp.js';

export function sessionMcpServers(servers: readonly McpServer[] | undefined): SessionMcpServer[] {
  return (servers ?? []).map((server): SessionMcpServer => {
    if ('type' in server && server.type === 'sse') {
      throw RequestError.invalidParams(undefined, `MCP server "${server.name}" uses the SSE transport, which rig does not speak; give its streamable HTTP endpoint as type "http", or a stdio command`);
    }
    if ('type' in server && server.type === 'http') {
      return { name: server.name, transport: 'streamable_http', url: server.url, headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) };
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    return { name: stdio.name, transport: 'stdio', command: stdio.command, args: stdio.args, env: Object.fromEntries(stdio.env.map((entry) => [entry.name, entry.value])) };
  });
}
