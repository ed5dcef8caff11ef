// The MCP tools a thread offers: each ready server's tools under the harness's naming convention
// (mcp/naming.ts), with the server's JSON Schema, plus Codex's three resource helpers. The set is
// rebuilt when a server's tool list changes (a late start, tools/list_changed, a restart), so the
// next request offers the new list; within one list the names are stable and sorted, after the
// harness's own tools (the request prefix of a step stays the same as long as the list does).
import type { JsonSchema } from '../../protocol/index.js';
import {
  listMcpResources,
  listMcpResourceTemplates,
  mcpResourceToolDefinitions,
  nameMcpTools,
  readMcpResource,
  type McpNamingConvention,
  type McpToolInfo,
  type ResourceArgs,
} from '../../mcp/index.js';
import type { ToolSpec, ToolContext, ToolResult } from '../spec.js';
import type { ThreadMcp } from './session.js';

/** The description a model sees for a tool whose server gave none. */
function describeTool(tool: McpToolInfo): string {
  const text = tool.description?.trim() || tool.title?.trim() || tool.annotations?.title?.trim();
  return text ? text : `Tool "${tool.name}" of the MCP server "${tool.server}".`;
}

/**
 * The server's schema as the wires need it: every wire wants an object schema at the top, so a
 * schema without `type` (or with no properties) gets them; everything else is passed through.
 * opencode sends its MCP tools with `additionalProperties: false` added, and so does rig there.
 */
export function wireInputSchema(schema: JsonSchema | undefined, convention: McpNamingConvention = 'codex'): JsonSchema {
  const given = schema && typeof schema === 'object' ? schema : {};
  return {
    ...given,
    type: 'object',
    properties: (given['properties'] as JsonSchema | undefined) ?? {},
    ...(convention === 'opencode' ? { additionalProperties: false } : {}),
  };
}

export class McpToolSet {
  private builtFor = -1;
  private specs: ToolSpec[] = [];
  private byName = new Map<string, ToolSpec>();
  private refs = new Map<string, { server: string; tool: string }>();

  constructor(
    private readonly mcp: ThreadMcp,
    private readonly convention: McpNamingConvention,
    /** The harness's own tool names: an MCP tool never shadows one. */
    private readonly reserved: ReadonlySet<string>,
  ) {}

  /** The MCP tools to offer now, in a stable order. */
  current(): ToolSpec[] {
    this.rebuildIfChanged();
    return this.specs;
  }

  /** The server and tool behind a model-visible name (resource helpers are no server's tools). */
  ref(name: string): { server: string; tool: string } | undefined {
    this.rebuildIfChanged();
    return this.refs.get(name);
  }

  get(name: string): ToolSpec | undefined {
    this.rebuildIfChanged();
    return this.byName.get(name);
  }

  private rebuildIfChanged(): void {
    if (this.builtFor === this.mcp.version) return;
    this.builtFor = this.mcp.version;
    const infos = this.mcp.tools();
    const byRef = new Map(infos.map((info) => [`${info.server}\u0000${info.name}`, info]));
    const named = nameMcpTools(
      infos.map((info) => ({ server: info.server, tool: info.name })),
      this.convention,
    );
    const specs: ToolSpec[] = [];
    const refs = new Map<string, { server: string; tool: string }>();
    for (const { server, tool, name } of named) {
      const info = byRef.get(`${server}\u0000${tool}`);
      if (!info || this.reserved.has(name)) continue;
      specs.push(this.toolSpec(name, info));
      refs.set(name, { server, tool });
    }
    this.refs = refs;
    if (this.mcp.hasServers) {
      for (const spec of resourceToolSpecs(this.mcp)) if (!this.reserved.has(spec.name)) specs.push(spec);
    }
    this.specs = specs;
    this.byName = new Map(specs.map((spec) => [spec.name, spec]));
  }

  private toolSpec(name: string, info: McpToolInfo): ToolSpec {
    const parallel = this.mcp.serverConfig(info.server)?.supports_parallel_tool_calls === true;
    return {
      name,
      description: describeTool(info),
      kind: 'function',
      parameters: wireInputSchema(info.inputSchema, this.convention),
      parallelSafe: parallel,
      handle: async (args: unknown, ctx: ToolContext): Promise<ToolResult> => {
        const call = ctx.caps.callMcp;
        if (!call) return { output: `MCP tool ${name} cannot be called here: this thread has no MCP client`, success: false };
        const argumentsObject = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
        return call({
          server: info.server,
          tool: info.name,
          arguments: argumentsObject,
          modelName: name,
          ...(ctx.callId ? { callId: ctx.callId } : {}),
          ...(this.convention === 'codex' ? { structuredFirst: true } : {}),
        });
      },
    };
  }
}

/** list_mcp_resources, list_mcp_resource_templates, read_mcp_resource: reads, never asked about. */
function resourceToolSpecs(mcp: ThreadMcp): ToolSpec[] {
  const answer = {
    list_mcp_resources: listMcpResources,
    list_mcp_resource_templates: listMcpResourceTemplates,
    read_mcp_resource: readMcpResource,
  } as const;
  return mcpResourceToolDefinitions().map((definition) => ({
    name: definition.name,
    description: definition.description,
    kind: 'function' as const,
    parameters: definition.parameters,
    parallelSafe: true,
    handle: async (args: unknown, ctx: ToolContext): Promise<ToolResult> => {
      const manager = mcp.connections;
      if (!manager) return { output: 'no MCP server is running in this thread', success: false };
      const run = answer[definition.name as keyof typeof answer];
      try {
        return { output: await run(manager, (args ?? {}) as ResourceArgs, ctx.signal), success: true };
      } catch (error) {
        return { output: error instanceof Error ? error.message : String(error), success: false };
      }
    },
  }));
}
