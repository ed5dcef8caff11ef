// The MCP tool call runtime: a call to a tool of a configured MCP server, through the same
// pipeline as commands and file changes. The policy step is Codex's MCP decision order (the
// server's approval_mode for the tool, the tool's annotations, the approval policy and sandbox
// mode; mcp/approval.ts); a person may allow it once, for this session, or for good ("don't ask
// again", written to the config file that defines the server). MCP servers are programs the user
// configured and run outside the sandbox (as in Codex), so there is no sandboxed attempt and no
// retry. The call is one mcp_tool_call item, with its progress, result or error and duration.
import type { McpToolCallItem } from '../../protocol/index.js';
import type { ApprovalAction } from '../../policy/index.js';
import { decideMcpApproval, mapMcpResult, type McpCallOutcome, type McpToolInfo } from '../../mcp/index.js';
import type { McpCallRequest, ToolResult, TurnServices } from '../spec.js';
import type { ThreadMcp } from '../mcp/session.js';
import type { OrchestratorOptions } from './options.js';
import { orchestrate, type ApprovalQuestion, type AskContext, type Runtime } from './pipeline.js';

/** Codex's message when a person declined the call. */
export const USER_DECLINED_MCP = 'user rejected MCP tool call';

const DESCRIPTION_CHARS = 600;

function howToAllow(server: string, tool: string): string {
  return (
    `To allow it: set approval_mode = "approve" under [mcp_servers.${server}.tools.${tool}] (or default_tools_approval_mode ` +
    `for the whole server) in config.toml, or run it in an interactive session (\`rig resume <thread id>\`), where you are asked.`
  );
}

class McpCallRuntime implements Runtime<ToolResult> {
  readonly retryTool = 'shell' as const;
  private readonly item: McpToolCallItem;
  private readonly info: McpToolInfo | undefined;
  private began = 0;

  constructor(
    private readonly request: McpCallRequest,
    private readonly mcp: ThreadMcp,
    private readonly options: OrchestratorOptions,
    private readonly services: TurnServices,
  ) {
    this.info = mcp.tool(request.server, request.tool);
    this.item = {
      id: services.newItemId(),
      type: 'mcp_tool_call',
      server: request.server,
      tool: request.tool,
      arguments: request.arguments,
      result: null,
      error: null,
      status: 'in_progress',
      ...(request.callId !== undefined ? { call_id: request.callId } : {}),
    };
    services.emit({ type: 'item.started', item: this.item });
  }

  describe(): string {
    return `the MCP tool call ${this.request.server}.${this.request.tool}`;
  }

  private get mode() {
    return this.mcp.approvalMode(this.request.server, this.request.tool);
  }

  async decide(): Promise<ApprovalAction> {
    const { server, tool } = this.request;
    // --dangerously-bypass-approvals-and-sandbox: nothing is asked.
    if (this.options.yolo) return { action: 'run-unsandboxed' };
    const decision = decideMcpApproval({
      mode: this.mode,
      ...(this.info?.annotations ? { annotations: this.info.annotations } : {}),
      approvalPolicy: this.options.approvalPolicy as Parameters<typeof decideMcpApproval>[0]['approvalPolicy'],
      sandboxMode: this.options.sandbox.mode,
      rememberedForSession: this.mcp.isApprovedForSession(server, tool),
    });
    switch (decision.action) {
      case 'run':
        return { action: 'run-unsandboxed' };
      case 'deny':
        return { action: 'reject', reason: `${decision.message}. ${howToAllow(server, tool)}` };
      case 'ask':
        return { action: 'ask', thenRun: 'unsandboxed', reason: this.askReason() };
    }
  }

  private askReason(): string {
    const hints = this.info?.annotations;
    const mode = this.mode;
    if (mode === 'prompt') return `approval_mode is "prompt" for this tool`;
    if (mode === 'writes') return 'the server does not mark this tool read-only (approval_mode "writes")';
    if (hints?.destructiveHint === true) return 'the server marks this tool destructive';
    if (!hints) return 'the server says nothing about what this tool does (no annotations)';
    return 'the server does not mark this tool read-only, or as neither destructive nor reaching outside';
  }

  async question(context: AskContext): Promise<ApprovalQuestion> {
    const { server, tool } = this.request;
    const rememberable = this.mode === 'auto';
    const annotations = this.info?.annotations;
    const description = this.info?.description ?? this.info?.title;
    return {
      kind: 'mcp_tool_call',
      item_id: this.item.id,
      server,
      tool,
      arguments: this.request.arguments,
      ...(annotations ? { annotations: { ...annotations } } : {}),
      ...(description ? { description: description.slice(0, DESCRIPTION_CHARS) } : {}),
      allow_session: rememberable,
      allow_always: rememberable,
      ...(context.reason ? { reason: context.reason } : {}),
    };
  }

  /** "For this session" counts only where it was offered (auto mode); elsewhere it is a plain yes. */
  rememberApproval(): void {
    if (this.mode === 'auto') this.mcp.approveForSession(this.request.server, this.request.tool);
  }

  async rememberAlways(): Promise<void> {
    if (this.mode !== 'auto') return;
    const { server, tool } = this.request;
    this.mcp.approveForSession(server, tool);
    const saved = this.mcp.approveAlways(server, tool);
    this.services.emit({
      type: 'item.completed',
      item: {
        id: this.services.newItemId(),
        type: 'error',
        message: saved.ok
          ? `${server}.${tool} is allowed from now on: approval_mode = "approve" saved in ${saved.file}`
          : `could not save "don't ask again" for ${server}.${tool}: ${saved.problem}`,
      },
    });
  }

  readonly declinedByUser = USER_DECLINED_MCP;

  declined(message: string): ToolResult {
    this.finish({ error: { message } });
    return { output: message, success: false };
  }

  withNote(outcome: ToolResult, note: string): ToolResult {
    return { ...outcome, output: appendText(outcome.output, note) };
  }

  deniedBySandbox(): boolean {
    return false;
  }

  denial(): undefined {
    return undefined;
  }

  async run(): Promise<ToolResult> {
    const { server, tool } = this.request;
    this.began = performance.now();
    const manager = this.mcp.connections;
    if (!manager) return this.declined(`MCP server "${server}" is not available: rig's MCP client did not start`);
    const call = { server, itemId: this.item.id, services: this.services, notes: [] as string[] };
    const end = this.mcp.beginCall(call);
    let outcome: McpCallOutcome;
    try {
      outcome = await manager.callTool(server, tool, this.request.arguments, {
        signal: this.services.signal,
        onProgress: (progress) =>
          this.services.emit({
            type: 'item.mcp_tool_call.progress',
            item_id: this.item.id,
            progress: progress.progress,
            ...(progress.total !== undefined ? { total: progress.total } : {}),
            ...(progress.message !== undefined ? { message: progress.message } : {}),
          }),
      });
    } finally {
      end();
    }
    const notes = call.notes.join('\n');
    if (!outcome.ok) {
      const message = notes ? `${outcome.message}\n${notes}` : outcome.message;
      this.finish({ error: { message } });
      return { output: message, success: false };
    }
    const mapped = mapMcpResult(outcome.result, { supportsImages: true, ...(this.request.structuredFirst ? { structuredFirst: true } : {}) });
    this.finish(mapped.success ? { result: mapped.item } : { result: mapped.item, error: { message: firstText(mapped.output) } });
    return { output: notes ? appendText(mapped.output, notes) : mapped.output, success: mapped.success };
  }

  private finish(end: { result?: McpToolCallItem['result']; error?: { message: string } }): void {
    const duration = this.began > 0 ? Math.round(performance.now() - this.began) : 0;
    this.services.emit({
      type: 'item.completed',
      item: {
        ...this.item,
        result: end.result ?? null,
        error: end.error ?? null,
        status: end.error ? 'failed' : 'completed',
        duration_ms: duration,
      },
    });
  }
}

function appendText(output: ToolResult['output'], note: string): ToolResult['output'] {
  if (typeof output === 'string') return output === '' ? note : `${output}\n\n${note}`;
  return [...output, { type: 'input_text', text: note }];
}

function firstText(output: ToolResult['output']): string {
  const text = typeof output === 'string' ? output : output.flatMap((part) => (part.type === 'input_text' ? [part.text] : [])).join('\n');
  return text.split('\n', 1)[0]?.slice(0, 500) || 'the tool reported an error';
}

export function callMcpTool(request: McpCallRequest, mcp: ThreadMcp, options: OrchestratorOptions, services: TurnServices): Promise<ToolResult> {
  return orchestrate(new McpCallRuntime(request, mcp, options, services), services, {
    approvalPolicy: options.approvalPolicy,
    howToAllow: howToAllow(request.server, request.tool),
  });
}
