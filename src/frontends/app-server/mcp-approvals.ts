// The approvals Codex's app-server v2 asks without a command or file item of their own, as Codex
// asks them: an MCP tool call as `mcpServer/elicitation/request` with a form without fields and
// `_meta.codex_approval_kind = "mcp_tool_call"` (the answer's `_meta.persist` = "session" or
// "always" grants more than once), an MCP server's own question as the same request in its form or
// url mode, and rig's own network request (web_fetch, a search backend) as
// `item/permissions/requestApproval` for network access.
import type { ApprovalAnswer, McpElicitationApprovalRequest, McpToolCallApprovalRequest, NetworkApprovalRequest } from '../../protocol/index.js';

export interface AskedRequest {
  method: 'mcpServer/elicitation/request' | 'item/permissions/requestApproval' | 'item/tool/requestUserInput';
  params: Record<string, unknown>;
  /** The client's answer as the engine's. */
  answer(result: unknown): ApprovalAnswer;
}

type Answer = { action?: unknown; content?: unknown; _meta?: unknown } | null;

function persistOf(result: Answer): unknown {
  const meta = result?._meta;
  return meta && typeof meta === 'object' ? (meta as { persist?: unknown }).persist : undefined;
}

export function mcpToolCallRequest(request: McpToolCallApprovalRequest, threadId: string, turnId: string): AskedRequest {
  const persist = [...(request.allow_session ? ['session'] : []), ...(request.allow_always ? ['always'] : [])];
  return {
    method: 'mcpServer/elicitation/request',
    params: {
      threadId,
      turnId,
      serverName: request.server,
      mode: 'form',
      message: `Allow the ${request.server} MCP server to run tool "${request.tool}"?${request.reason ? ` (${request.reason})` : ''}`,
      requestedSchema: { type: 'object', properties: {} },
      _meta: {
        codex_approval_kind: 'mcp_tool_call',
        tool_name: request.tool,
        tool_params: request.arguments ?? {},
        ...(request.description ? { tool_description: request.description } : {}),
        ...(persist.length ? { persist } : {}),
      },
    },
    answer: (result) => {
      const answer = result as Answer;
      if (answer?.action === 'cancel') return { decision: 'abort' };
      if (answer?.action !== 'accept') return { decision: 'deny' };
      const scope = persistOf(answer);
      if (scope === 'always' && request.allow_always) return { decision: 'approve_always' };
      if (scope === 'session' && request.allow_session) return { decision: 'approve_for_session' };
      return { decision: 'approve' };
    },
  };
}

export function elicitationRequest(request: McpElicitationApprovalRequest, threadId: string, turnId: string): AskedRequest {
  const common = { threadId, turnId, serverName: request.server, message: request.message };
  const params =
    request.mode === 'url'
      ? { ...common, mode: 'url', url: request.url ?? '', elicitationId: request.id }
      : { ...common, mode: 'form', requestedSchema: { ...(request.requested_schema ?? {}), type: 'object', properties: request.requested_schema?.['properties'] ?? {} } };
  return {
    method: 'mcpServer/elicitation/request',
    params,
    answer: (result) => {
      const answer = result as Answer;
      if (answer?.action === 'accept') {
        const content = answer.content && typeof answer.content === 'object' ? (answer.content as Record<string, unknown>) : {};
        return { decision: 'approve', content };
      }
      return { decision: answer?.action === 'decline' ? 'deny' : 'abort' };
    },
  };
}

export function networkRequest(request: NetworkApprovalRequest, threadId: string, turnId: string, cwd: string, startedAtMs: number): AskedRequest {
  const what = request.purpose === 'search' ? `search the web through ${request.host}` : request.purpose === 'redirect' ? `follow a redirect to ${request.url}` : `fetch ${request.url}`;
  return {
    method: 'item/permissions/requestApproval',
    params: {
      threadId,
      turnId,
      itemId: request.item_id ?? request.id,
      startedAtMs,
      cwd,
      environmentId: null,
      reason: [`network access to ${request.host}: ${what}`, request.reason].filter(Boolean).join('; '),
      permissions: { network: { enabled: true }, fileSystem: null },
    },
    answer: (result) => {
      const granted = result as { permissions?: { network?: { enabled?: unknown } | null }; scope?: unknown } | null;
      if (granted?.permissions?.network?.enabled !== true) return { decision: 'deny' };
      return { decision: granted.scope === 'session' ? 'approve_for_session' : 'approve' };
    },
  };
}
