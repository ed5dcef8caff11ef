// Codex's three resource tools (list_mcp_resources, list_mcp_resource_templates,
// read_mcp_resource): their names and parameters, with rig's own descriptions, and the functions
// that answer them with Codex's payload shapes (JSON text for the model).
import type { FunctionToolDefinition } from '../protocol/index.js';
import type { McpConnectionManager } from './manager.js';

export const MCP_RESOURCE_TOOL_NAMES = ['list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource'] as const;

const server = (description: string) => ({ type: 'string', description });
const cursor = (tool: string) => ({ type: 'string', description: `Opaque cursor from a previous ${tool} call for the same server; omit for the first page.` });

/** The resource tools as the model sees them (parameter names and types are Codex's). */
export function mcpResourceToolDefinitions(): FunctionToolDefinition[] {
  return [
    {
      kind: 'function',
      name: 'list_mcp_resources',
      description:
        'List the resources (files, records, documents) that MCP servers make available, with their URIs. Read one with read_mcp_resource.',
      parameters: {
        type: 'object',
        properties: { server: server('MCP server name; omit to list the resources of every server.'), cursor: cursor('list_mcp_resources') },
        additionalProperties: false,
      },
      strict: false,
    },
    {
      kind: 'function',
      name: 'list_mcp_resource_templates',
      description: 'List the parameterized resource URI templates that MCP servers offer; fill one in and read it with read_mcp_resource.',
      parameters: {
        type: 'object',
        properties: {
          server: server('MCP server name; omit to list the templates of every server.'),
          cursor: cursor('list_mcp_resource_templates'),
        },
        additionalProperties: false,
      },
      strict: false,
    },
    {
      kind: 'function',
      name: 'read_mcp_resource',
      description: 'Read one resource of an MCP server by its URI (as listed by list_mcp_resources or built from a template).',
      parameters: {
        type: 'object',
        properties: {
          server: server('MCP server name, as in the `server` field of list_mcp_resources.'),
          uri: { type: 'string', description: 'The resource URI.' },
        },
        required: ['server', 'uri'],
        additionalProperties: false,
      },
      strict: false,
    },
  ];
}

export interface ResourceArgs {
  server?: string;
  cursor?: string;
  uri?: string;
}

/** list_mcp_resources: one server's page (with nextCursor), or every server's first page. */
export async function listMcpResources(manager: McpConnectionManager, args: ResourceArgs, signal?: AbortSignal): Promise<string> {
  return listing(manager, args, 'resources', signal);
}

/** list_mcp_resource_templates: as listMcpResources, for resourceTemplates. */
export async function listMcpResourceTemplates(manager: McpConnectionManager, args: ResourceArgs, signal?: AbortSignal): Promise<string> {
  return listing(manager, args, 'resourceTemplates', signal);
}

async function listing(manager: McpConnectionManager, args: ResourceArgs, field: 'resources' | 'resourceTemplates', signal?: AbortSignal): Promise<string> {
  const name = blankToUndefined(args.server);
  const page = blankToUndefined(args.cursor);
  const method = field === 'resources' ? 'resources/list' : 'resources/templates/list';
  const fetchPage = (serverName: string, cursorValue?: string) =>
    manager.connection(serverName).request(
      method,
      (client, options): Promise<unknown> =>
        field === 'resources'
          ? client.listResources(cursorValue ? { cursor: cursorValue } : undefined, options)
          : client.listResourceTemplates(cursorValue ? { cursor: cursorValue } : undefined, options),
      signal,
    ) as Promise<{ resources?: object[]; resourceTemplates?: object[]; nextCursor?: string }>;
  if (name) {
    const result = await fetchPage(name, page);
    const items = (result[field] ?? []).map((item) => ({ server: name, ...item }));
    return JSON.stringify({ server: name, [field]: items, ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}) });
  }
  if (page) throw new Error(`cursor needs server: a cursor belongs to one server's listing`);
  const items: object[] = [];
  for (const serverName of manager.serverNames()) {
    // A server without resources answers "method not found"; it simply has none to list.
    const result = await fetchPage(serverName).catch(() => ({}) as { resources?: object[]; resourceTemplates?: object[] });
    for (const item of result[field] ?? []) items.push({ server: serverName, ...item });
  }
  return JSON.stringify({ [field]: items });
}

/** read_mcp_resource: `{server, uri, contents}`. */
export async function readMcpResource(manager: McpConnectionManager, args: ResourceArgs, signal?: AbortSignal): Promise<string> {
  const name = blankToUndefined(args.server);
  const uri = blankToUndefined(args.uri);
  if (!name || !uri) throw new Error('read_mcp_resource needs both `server` and `uri`');
  const result = await manager.connection(name).request('resources/read', (client, options) => client.readResource({ uri }, options), signal);
  return JSON.stringify({ server: name, uri, ...result });
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
