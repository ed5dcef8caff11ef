// `rig exec --json`: exactly Codex's exec event stream, one JSON object per line on stdout. It gets
// bare events (the engine's envelope stripped) and drops rig's own kinds.
import { isExecEvent, type ThreadEvent, type ThreadItem, type ThreadItemType } from '../../protocol/index.js';

/** Item types codex exec prints; rig's own (user_message, context_compaction) stay out of the stream. */
const CODEX_ITEM_TYPES: ReadonlySet<ThreadItemType> = new Set<ThreadItemType>([
  'agent_message',
  'reasoning',
  'command_execution',
  'file_change',
  'mcp_tool_call',
  'web_search',
  'todo_list',
  'collab_agent_tool_call',
  'error',
]);

/** The MCP server name under which harness file reads and searches, and questions to the person, appear. */
export const FILE_TOOL_SERVER = 'rig';

/**
 * An item as Codex's stream has it: rig's extra fields are dropped, and a harness file read or
 * search (file_tool) becomes an mcp_tool_call, the shape Codex SDK clients know for a tool that
 * is not a shell command.
 */
export function codexItem(item: ThreadItem): ThreadItem | undefined {
  if (item.type === 'file_tool') {
    return {
      id: item.id,
      type: 'mcp_tool_call',
      server: FILE_TOOL_SERVER,
      tool: item.tool,
      arguments: item.arguments,
      result: item.status === 'completed' ? { content: [{ type: 'text', text: item.summary }], structured_content: null } : null,
      error: item.error,
      status: item.status,
    };
  }
  if (item.type === 'user_input') {
    return {
      id: item.id,
      type: 'mcp_tool_call',
      server: FILE_TOOL_SERVER,
      tool: item.tool,
      arguments: { questions: item.questions },
      result: item.status === 'completed' ? { content: [{ type: 'text', text: JSON.stringify(item.answers) }], structured_content: item.answers } : null,
      error: item.error,
      status: item.status === 'in_progress' ? 'in_progress' : item.status === 'completed' ? 'completed' : 'failed',
    };
  }
  if (!CODEX_ITEM_TYPES.has(item.type)) return undefined;
  if (item.type === 'mcp_tool_call') {
    // rig's call_id and duration_ms stay in the rollout; Codex's item has neither.
    const { call_id: _callId, duration_ms: _duration, ...codex } = item;
    return codex;
  }
  if (item.type === 'file_change') {
    return { id: item.id, type: 'file_change', changes: item.changes.map(({ path, kind }) => ({ path, kind })), status: item.status };
  }
  return item;
}

export function createJsonlRenderer(write: (line: string) => void): (event: ThreadEvent) => void {
  const emit = (event: ThreadEvent) => write(`${JSON.stringify(event)}\n`);
  return (event) => {
    // codex exec announces a resumed thread with thread.started too.
    if (event.type === 'thread.resumed') return emit({ type: 'thread.started', thread_id: event.thread_id });
    if (!isExecEvent(event)) return;
    if ('item' in event) {
      const item = codexItem(event.item);
      if (!item) return;
      emit({ ...event, item });
      return;
    }
    // Codex reports the error that ends a turn twice: as a top-level `error` event when it happens,
    // then as the reason in `turn.failed`. Stream readers that watch for `error` rely on the first.
    if (event.type === 'turn.failed') emit({ type: 'error', message: event.error.message });
    emit(event);
  };
}

/**
 * A sub-agent's finished items, for `rig exec --json`: the same item shapes, marked with the
 * child's thread id (the root thread's own events stay exactly Codex's).
 */
export function childItemLine(threadId: string, event: ThreadEvent): string | undefined {
  if (event.type !== 'item.completed') return undefined;
  const item = codexItem(event.item);
  return item ? `${JSON.stringify({ type: event.type, thread_id: threadId, item })}\n` : undefined;
}
