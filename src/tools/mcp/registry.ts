// A harness's tool registry with the thread's MCP tools after its own: lookups and listings see the
// MCP tools as they are now (mcp/tools.ts rebuilds them when a server's list changes).
import type { ToolDefinition } from '../../protocol/index.js';
import { namingConventionForHarness } from '../../mcp/index.js';
import { loadedDeferredTools, setExtraCallableTools, setExtraDeferredTools } from '../harness/meta.js';
import { ToolRegistry } from '../registry.js';
import { toDefinition, type ToolSpec } from '../spec.js';
import type { ThreadMcp } from './session.js';
import { McpToolSet } from './tools.js';

class RegistryWithMcp extends ToolRegistry {
  constructor(
    private readonly base: ToolRegistry,
    private readonly mcpTools: McpToolSet,
  ) {
    super();
  }

  override add(spec: ToolSpec): void {
    this.base.add(spec);
  }

  override get(name: string): ToolSpec | undefined {
    return this.base.get(name) ?? this.mcpTools.get(name);
  }

  override names(): string[] {
    return [...this.base.names(), ...this.mcpTools.current().map((spec) => spec.name)];
  }

  override specs(): ToolSpec[] {
    return [...this.base.specs(), ...this.mcpTools.current()];
  }

  override definitions(): ToolDefinition[] {
    return this.specs().map(toDefinition);
  }
}

export interface HarnessTools {
  tools: ToolRegistry;
  advertised: (threadState: Map<string, unknown>) => ToolDefinition[];
  /** The MCP server and tool a model-visible name calls, if it is an MCP tool (hooks match on it). */
  mcpToolOf?: (name: string) => { server: string; tool: string } | undefined;
}

/**
 * The harness's tools with the thread's MCP tools added, named the way `harnessId` names them;
 * without MCP servers, the harness's tools unchanged.
 */
export function withMcpTools(harness: HarnessTools & { harnessId: string; defersBehindSearch?: boolean }, mcp: ThreadMcp | undefined): HarnessTools {
  if (!mcp || !mcp.hasServers) return { tools: harness.tools, advertised: harness.advertised };
  const convention = namingConventionForHarness(harness.harnessId);
  const set = new McpToolSet(mcp, convention, new Set(harness.tools.names()));
  // Claude Code and Qwen Code defer MCP tools behind their tool search: the model finds them there.
  // Claude Code then sends a loaded tool's schema with every request; Qwen Code never changes its
  // declaration list (tool_search answers with the schema as text, tool_call runs the tool).
  const deferral = harness.defersBehindSearch === true ? deferralFor(convention) : 'none';
  const registry = new RegistryWithMcp(harness.tools, set);
  return {
    tools: registry,
    mcpToolOf: (name) => set.ref(name),
    advertised: (threadState) => {
      const own = harness.advertised(threadState);
      if (deferral === 'none') return [...own, ...set.current().map(toDefinition)];
      setExtraDeferredTools(threadState, () =>
        set.current().map((spec) => ({ name: spec.name, description: spec.description, ...(spec.parameters ? { parameters: spec.parameters } : {}) })),
      );
      if (deferral === 'through-tool-call') {
        setExtraCallableTools(threadState, (name) => set.get(name));
        return own;
      }
      const loaded = loadedDeferredTools(threadState);
      return [...own, ...set.current().filter((spec) => loaded.has(spec.name)).map(toDefinition)];
    },
  };
}

/** How a harness with a tool search offers MCP tools (see withMcpTools). */
function deferralFor(convention: ReturnType<typeof namingConventionForHarness>): 'none' | 'loaded-into-requests' | 'through-tool-call' {
  if (convention === 'claude-code') return 'loaded-into-requests';
  if (convention === 'qwen-code') return 'through-tool-call';
  return 'none';
}
