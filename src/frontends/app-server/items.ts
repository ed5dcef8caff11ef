// rig's thread items (Codex's exec shapes, snake_case) as the app-server protocol's ThreadItems
// (camelCase, richer). rig's own file_tool and tool_call become mcpToolCall items of server "rig",
// as `rig exec --json` shows them; todo lists are not items here (turn/plan/updated carries them)
// and error items become warning notifications.
import type { ThreadItem as RigItem } from '../../protocol/index.js';
import type { CommandAction, ThreadItem, TurnError, UserInput } from '../../protocol/app-server/index.js';

export interface ItemContext {
  cwd: string;
  /** The client's id for the user message this item is, when it gave one. */
  clientId?: string;
  durationMs?: number;
  /** The approval of this item was declined by the client. */
  declined?: boolean;
}

function commandActions(command: string): CommandAction[] {
  return [{ type: 'unknown', command }];
}

export function userContent(text: string, images: readonly string[] = []): UserInput[] {
  return [
    ...(text !== '' ? [{ type: 'text' as const, text, text_elements: [] }] : []),
    ...images.map((path) => ({ type: 'localImage' as const, path })),
  ];
}

/** The protocol item for a rig item; undefined for items the protocol carries otherwise. */
export function toProtocolItem(item: RigItem, context: ItemContext): ThreadItem | undefined {
  switch (item.type) {
    case 'user_message':
      return { type: 'userMessage', id: item.id, clientId: context.clientId ?? null, content: userContent(item.text, item.images) };
    case 'agent_message':
      return { type: 'agentMessage', id: item.id, text: item.text, phase: null, memoryCitation: null, delivery: null, questions: null };
    case 'reasoning':
      return { type: 'reasoning', id: item.id, summary: item.text === '' ? [] : [item.text], content: [] };
    case 'command_execution': {
      const running = item.status === 'in_progress';
      return {
        type: 'commandExecution',
        id: item.id,
        pluginId: null,
        scriptPath: null,
        command: item.command,
        cwd: context.cwd,
        processId: null,
        source: 'agent',
        status: item.status === 'in_progress' ? 'inProgress' : item.status,
        commandActions: commandActions(item.command),
        aggregatedOutput: running ? null : item.aggregated_output,
        exitCode: item.exit_code,
        durationMs: running ? null : context.durationMs ?? null,
      };
    }
    case 'file_change':
      return {
        type: 'fileChange',
        id: item.id,
        changes: item.changes.map((change) => ({
          path: change.path,
          kind: change.kind === 'update' ? { type: 'update', move_path: null } : { type: change.kind },
          diff: change.diff ?? '',
        })),
        // rig reports a refused change as failed (Codex's exec shape); the protocol says declined.
        status: item.status === 'in_progress' ? 'inProgress' : item.status === 'failed' && context.declined ? 'declined' : item.status,
      };
    case 'mcp_tool_call':
      return {
        type: 'mcpToolCall',
        id: item.id,
        server: item.server,
        tool: item.tool,
        status: item.status === 'in_progress' ? 'inProgress' : item.status,
        arguments: item.arguments ?? null,
        appContext: null,
        mcpAppUi: null,
        pluginId: null,
        readOnlyHint: null,
        result: item.result ? { content: item.result.content, structuredContent: item.result.structured_content ?? null, _meta: null } : null,
        error: item.error,
        durationMs: context.durationMs ?? null,
      };
    case 'file_tool':
      return rigToolCall(item.id, item.tool, item.arguments, item.status, item.summary, item.error, context);
    case 'tool_call':
      return rigToolCall(item.id, item.tool, item.arguments, item.status, item.output ?? '', null, context);
    case 'web_search':
      return { type: 'webSearch', id: item.id, query: item.query, action: null, results: null };
    case 'context_compaction':
      return { type: 'contextCompaction', id: item.id };
    case 'todo_list':
    case 'error':
    // Codex has no item for a question: its item/tool/requestUserInput request is the whole of it.
    case 'user_input':
      return undefined;
  }
}

function rigToolCall(
  id: string,
  tool: string,
  args: unknown,
  status: 'in_progress' | 'completed' | 'failed',
  summary: string,
  error: { message: string } | null,
  context: ItemContext,
): ThreadItem {
  const done = status !== 'in_progress';
  return {
    type: 'mcpToolCall',
    id,
    server: 'rig',
    tool,
    status: done ? status : 'inProgress',
    arguments: args ?? null,
    appContext: null,
    mcpAppUi: null,
    pluginId: null,
    readOnlyHint: null,
    result: done && !error ? { content: [{ type: 'text', text: summary }], structuredContent: null, _meta: null } : null,
    error,
    durationMs: context.durationMs ?? null,
  };
}

export function turnError(message: string): TurnError {
  return { message, codexErrorInfo: null, additionalDetails: null, misalignment: null };
}
