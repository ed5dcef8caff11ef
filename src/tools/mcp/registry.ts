// A harness's tool registry with the thread's MCP tools after its own: lookups and listings see the
// MCP tools as they are now (mcp/tools.ts rebuilds them when a server's list changes).
import type { ToolDefinition } from '../../protocol/index.js';
import { namingConventionForHarness } from '../../mcp/index.js';
import { loadedDeferredTools, setExtraDeferredTools } from '../harness/meta.js';
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
}

/**
 * The harness's tools with the thread's MCP tools added, named the way `harnessId` names them;
 * without MCP servers, the harness's tools unchanged.
 */
export function withMcpTools(harness: HarnessTools & { harnessId: string; defersBehindSearch?: boolean }, mcp: ThreadMcp | undefined): HarnessTools {
  if (!mcp || !mcp.hasServers) return { tools: harness.tools, advertised: harness.advertised };
  const convention = namingConventionForHarness(harness.harnessId);
  const set = new McpToolSet(mcp, convention, new Set(harness.tools.names()));
  // Claude Code defers MCP tools behind ToolSearch: only their names are searchable until loaded.
  const deferred = convention === 'claude-code' && harness.defersBehindSearch === true;
  return {
    tools: new RegistryWithMcp(harness.tools, set),
    advertised: (threadState) => {
      const own = harness.advertised(threadState);
      if (!deferred) return [...own, ...set.current().map(toDefinition)];
      setExtraDeferredTools(threadState, () =>
        set.current().map((spec) => ({ name: spec.name, description: spec.description, ...(spec.parameters ? { parameters: spec.parameters } : {}) })),
      );
      const loaded = loadedDeferredTools(threadState);
      return [...own, ...set.current().filter((spec) => loaded.has(spec.name)).map(toDefinition)];
    },
  };
}
