// MCP tool calls in the rollout: each finished mcp_tool_call item of the thread becomes Codex's
// mcp_tool_call_end record (the history holds only the model's call and its output; this keeps the
// server, the arguments as sent, the raw result and the duration).
import type { EventEnvelope } from '../protocol/index.js';
import type { RolloutRecorder } from '../store/index.js';

export function recordMcpCalls(subscribe: (listener: (envelope: EventEnvelope) => void) => () => void, recorder: RolloutRecorder | undefined): () => void {
  if (!recorder) return () => undefined;
  return subscribe(({ event }) => {
    if (event.type !== 'item.completed' || event.item.type !== 'mcp_tool_call') return;
    const { id, ...item } = event.item;
    recorder.mcpToolCallEnd({ item_id: id, ...item });
  });
}
