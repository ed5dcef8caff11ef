// Threads with MCP servers configured in a temp RIG_HOME's config.toml, started through the engine
// API with a scripted model: what the model is offered, what its calls return, and the events.
import { startTestThread, writeTestHome, type TestThread } from '../../support/engine.js';
import { ScriptedClient, type ScriptedStep } from '../../support/scripted-client.js';
import type { ThreadStartRequest } from '../../../src/core/engine.js';
import type { FunctionCallOutputItem, ToolDefinition } from '../../../src/protocol/index.js';
import type { ModelRequest } from '../../../src/model/types.js';

/** A `[mcp_servers.NAME]` table for config.toml. */
export function serverToml(name: string, table: { command: string; args?: string[]; env?: Record<string, string>; extra?: string }): string {
  const lines = [`[mcp_servers.${name}]`, `command = ${JSON.stringify(table.command)}`, `args = ${JSON.stringify(table.args ?? [])}`];
  if (table.extra) lines.push(table.extra);
  if (table.env) {
    lines.push(`[mcp_servers.${name}.env]`);
    for (const [k, v] of Object.entries(table.env)) lines.push(`${k} = ${JSON.stringify(v)}`);
  }
  return lines.join('\n');
}

export interface McpThread extends TestThread {
  client: ScriptedClient;
}

export async function startMcpThread(options: {
  home: string;
  cwd: string;
  toml: string;
  steps: ScriptedStep[];
  request?: Omit<ThreadStartRequest, 'cwd'>;
}): Promise<McpThread> {
  writeTestHome(options.home, `\n${options.toml}\n`);
  const client = new ScriptedClient(options.steps);
  const started = await startTestThread({ home: options.home, cwd: options.cwd, client, ...(options.request ? { request: options.request } : {}) });
  return { ...started, client };
}

export function toolNames(request: ModelRequest | undefined): string[] {
  return (request?.tools ?? []).map((tool: ToolDefinition) => tool.name);
}

/** The output the model got for `callId` in a later request. */
export function outputFor(request: ModelRequest | undefined, callId: string): FunctionCallOutputItem | undefined {
  return request?.input.find((item): item is FunctionCallOutputItem => item.type === 'function_call_output' && item.call_id === callId);
}

export function outputText(item: FunctionCallOutputItem | undefined): string {
  if (!item) return '';
  return typeof item.output === 'string' ? item.output : item.output.map((part) => ('text' in part ? part.text : '')).join('\n');
}
