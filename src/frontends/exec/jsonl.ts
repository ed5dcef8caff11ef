// `rig exec --json`: exactly Codex's exec event stream, one JSON object per line on stdout. It gets
// bare events (the engine's envelope stripped) and drops rig's own kinds.
import { isExecEvent, type ThreadEvent, type ThreadItemType } from '../../protocol/index.js';

/** Item types codex exec prints; rig's own (user_message, context_compaction) stay out of the stream. */
const CODEX_ITEM_TYPES: ReadonlySet<ThreadItemType> = new Set<ThreadItemType>([
  'agent_message',
  'reasoning',
  'command_execution',
  'file_change',
  'mcp_tool_call',
  'web_search',
  'todo_list',
  'error',
]);

export function createJsonlRenderer(write: (line: string) => void): (event: ThreadEvent) => void {
  const emit = (event: ThreadEvent) => write(`${JSON.stringify(event)}\n`);
  return (event) => {
    // codex exec announces a resumed thread with thread.started too.
    if (event.type === 'thread.resumed') return emit({ type: 'thread.started', thread_id: event.thread_id });
    if (!isExecEvent(event)) return;
    if ('item' in event && !CODEX_ITEM_TYPES.has(event.item.type)) return;
    // Codex reports the error that ends a turn twice: as a top-level `error` event when it happens,
    // then as the reason in `turn.failed`. Stream readers that watch for `error` rely on the first.
    if (event.type === 'turn.failed') emit({ type: 'error', message: event.error.message });
    emit(event);
  };
}
