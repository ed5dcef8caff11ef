// Whether an MCP tool call may run, must be asked about, or is refused: Codex's decision order
// (core/src/mcp_tool_call.rs maybe_request_mcp_tool_approval, codex-mcp mcp/mod.rs):
//   1. approval_mode "approve"                                  -> run
//   2. approval policy "never" with full disk access (no sandbox) -> run
//   3. the mode does not require approval for these annotations   -> run
//   4. "allow for this session" was given for this tool (auto only) -> run
//   5. (PermissionRequest hooks: the orchestrator, phase 2)
//   6. approval policy "never"                                    -> refused
//   7. otherwise                                                  -> ask
// Pure: the orchestrator supplies the policy, sandbox and what the session remembers.
import type { McpApprovalMode } from '../config/index.js';

/** The MCP tool annotations that matter here (spec: ToolAnnotations). */
export interface McpToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpApprovalInput {
  mode: McpApprovalMode;
  /** Absent when the server sent no annotations. */
  annotations?: McpToolHints;
  approvalPolicy: 'untrusted' | 'on-request' | 'on-failure' | 'never' | { granular: unknown };
  sandboxMode: 'read-only' | 'workspace-write' | 'danger-full-access';
  /** "Allow for this session" was chosen earlier for this server + tool. */
  rememberedForSession?: boolean;
}

export type McpApprovalDecision =
  | { action: 'run'; reason: 'approve_mode' | 'full_access' | 'not_required' | 'remembered' }
  | {
      action: 'ask';
      /** Offer "Allow for this session" (auto mode only). */
      allowSessionRemember: boolean;
      /** Offer "Allow and don't ask me again" (persisted as approval_mode = "approve"). */
      allowPersistent: boolean;
    }
  | { action: 'deny'; message: string };

/** Codex's message when a call needs approval nobody may give. */
export const MCP_APPROVAL_NEVER_MESSAGE = 'MCP tool call requires approval, but approval policy is never';

export function decideMcpApproval(input: McpApprovalInput): McpApprovalDecision {
  if (input.mode === 'approve') return { action: 'run', reason: 'approve_mode' };
  if (input.approvalPolicy === 'never' && input.sandboxMode === 'danger-full-access') return { action: 'run', reason: 'full_access' };
  if (!requiresApprovalForMode(input.annotations, input.mode)) return { action: 'run', reason: 'not_required' };
  const rememberable = input.mode === 'auto';
  if (rememberable && input.rememberedForSession) return { action: 'run', reason: 'remembered' };
  if (input.approvalPolicy === 'never') return { action: 'deny', message: MCP_APPROVAL_NEVER_MESSAGE };
  // prompt and writes ask every time: a remembered answer would defeat the mode.
  return { action: 'ask', allowSessionRemember: rememberable, allowPersistent: rememberable };
}

/** Codex's requires_mcp_tool_approval_for_mode. */
export function requiresApprovalForMode(annotations: McpToolHints | undefined, mode: McpApprovalMode): boolean {
  switch (mode) {
    case 'auto':
      return requiresApprovalByAnnotations(annotations);
    case 'prompt':
      return true;
    case 'writes':
      return annotations?.readOnlyHint !== true;
    case 'approve':
      return false;
  }
}

/**
 * Codex's requires_mcp_tool_approval: destructive -> ask; read-only -> run; otherwise ask unless
 * the server says it is neither destructive nor open-world (missing hints count as "yes").
 */
export function requiresApprovalByAnnotations(annotations: McpToolHints | undefined): boolean {
  if (annotations?.destructiveHint === true) return true;
  if (annotations?.readOnlyHint === true) return false;
  return (annotations?.destructiveHint ?? true) || (annotations?.openWorldHint ?? true);
}

/** The mode that applies to one tool: its own `approval_mode`, else the server's default, else auto. */
export function approvalModeFor(
  server: { default_tools_approval_mode?: McpApprovalMode; tools: Record<string, { approval_mode?: McpApprovalMode }> },
  tool: string,
): McpApprovalMode {
  return server.tools[tool]?.approval_mode ?? server.default_tools_approval_mode ?? 'auto';
}

/** The config edit "Allow and don't ask me again" makes (Codex persists the same key). */
export function persistentApprovalEdit(server: string, tool: string): { path: string[]; value: { approval_mode: 'approve' } } {
  return { path: ['mcp_servers', server, 'tools', tool], value: { approval_mode: 'approve' } };
}
