// /mcp: the thread's MCP servers, each with its state (starting, ready, failed and why,
// disabled), how long it took to start, and its tools.
import { threadMcpStatus, type McpServerView } from '../../core/mcp-status.js';
import type { EnginePort } from './engine-port.js';
import type { CommandResult } from './session-port.js';

const MAX_TOOL_NAMES = 40;

function serverLines(view: McpServerView): string[] {
  const facts = [view.transport === 'stdio' ? 'stdio' : 'http', ...(view.required ? ['required'] : []), ...(view.startupMs !== undefined ? [`started in ${view.startupMs} ms`] : [])];
  const head = `- **${view.server}**: ${view.status}${view.status === 'ready' ? `, ${view.tools.length} tool${view.tools.length === 1 ? '' : 's'}` : ''} (${facts.join(', ')})`;
  const lines = [head];
  if (view.error) lines.push(`  - error: ${view.error.split('\n').slice(0, 6).join(' / ')}`);
  if (view.tools.length > 0) {
    const names = view.tools.slice(0, MAX_TOOL_NAMES).map((name) => `\`${name}\``).join(', ');
    lines.push(`  - tools: ${names}${view.tools.length > MAX_TOOL_NAMES ? ` and ${view.tools.length - MAX_TOOL_NAMES} more` : ''}`);
  }
  return lines;
}

export function mcpStatusText(port: EnginePort): CommandResult {
  const status = threadMcpStatus(port.handle);
  if (!status) return { text: 'no MCP servers are configured for this thread: add one under `[mcp_servers.NAME]` in config.toml, or with `rig mcp add`' };
  if (status.loading) return { text: 'the MCP servers are still starting: try /mcp again in a moment' };
  if (status.servers.length === 0) return { text: 'no MCP servers are configured for this thread' };
  const lines = [`MCP servers of this thread (${status.servers.length}):`, '', ...status.servers.flatMap(serverLines)];
  return { text: lines.join('\n') };
}
