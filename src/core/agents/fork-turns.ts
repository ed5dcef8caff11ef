// spawn_agent's `fork_turns: N`: the child starts with the parent's last N turns. The engine forks
// prefixes only, and compaction records point into the history by index, so the parent's rollout
// is never cut: its records are replayed here, and the items of the last N turns (with the summary
// of a compaction that precedes them) become the opening history of a new thread.
import type { ConversationItem } from '../../protocol/index.js';
import { isContextualUserMessage } from '../../context/contextual.js';
import { isSummaryMessage } from '../../context/compaction.js';
import type { RolloutRecord } from '../../store/index.js';
import { TURN_END_EVENT_TYPES } from '../../store/index.js';

export interface ForkedTurns {
  items: ConversationItem[];
  /** How many turns the items cover (fewer than asked when the thread has fewer since its last compaction). */
  turns: number;
  /** A compaction summary leads the items. */
  summarized: boolean;
}

type Segment = { start: number };

const isCall = (item: ConversationItem): boolean => item.type === 'function_call' || item.type === 'custom_tool_call';
const isOutput = (item: ConversationItem): boolean => item.type === 'function_call_output' || item.type === 'custom_tool_call_output';
const callId = (item: ConversationItem): string | undefined => ('call_id' in item ? (item as { call_id?: string }).call_id : undefined);

/**
 * The items of the last `n` non-empty turns of a thread's records, as the model saw them: a
 * compaction replaces what came before it (its summary is carried as the first item when the
 * turns reach back to it), a rollback drops turns, the thread's own opening context is left out
 * (the child gets its own), and calls still waiting for their output (the spawn itself) too.
 */
export function lastTurns(records: readonly RolloutRecord[], n: number): ForkedTurns {
  let history: ConversationItem[] = [];
  let segments: Segment[] = [];
  let summary: ConversationItem | undefined;
  let inTurn = false;
  for (const record of records) {
    if (record.type === 'response_item') history.push(record.payload);
    else if (record.type === 'turn_context') {
      segments.push({ start: history.length });
      inTurn = true;
    } else if (record.type === 'compacted') {
      const before = history;
      const payload = record.payload;
      if (payload.replacement) history = payload.replacement.flatMap((entry) => (typeof entry === 'number' ? (before[entry] ?? []) : [entry]));
      else if (payload.replacement_history) history = [...payload.replacement_history];
      else continue;
      summary = [...history].reverse().find(isSummaryMessage);
      // What follows a compaction inside a turn belongs to that turn; earlier turns are gone.
      segments = inTurn ? [{ start: history.length }] : [];
    } else if (record.type === 'event_msg') {
      const payload = record.payload as { type: string; num_turns?: unknown };
      if (TURN_END_EVENT_TYPES.has(payload.type)) inTurn = false;
      else if (payload.type === 'thread_rolled_back') {
        const count = Number(payload.num_turns);
        if (Number.isInteger(count) && count > 0 && segments.length > 0) {
          const keep = Math.max(0, segments.length - count);
          history = history.slice(0, segments[keep]?.start ?? history.length);
          segments = segments.slice(0, keep);
        }
      }
    }
  }
  const bounds = segments.map((segment, i) => ({ start: segment.start, end: segments[i + 1]?.start ?? history.length })).filter((s) => s.end > s.start);
  const chosen = bounds.slice(-n);
  if (chosen.length === 0) return { items: summary ? [summary] : [], turns: 0, summarized: summary !== undefined };
  let items = history.slice(chosen[0]!.start);
  // The thread's opening context (instructions, AGENTS.md, environment) is recorded in its first
  // turn, ahead of the user's message: the child has its own.
  if (chosen[0] === bounds[0] && segments[0]?.start === 0) {
    const firstReal = items.findIndex((item) => !(item.type === 'message' && (item.role === 'developer' || item.role === 'system' || isContextualUserMessage(item))));
    items = firstReal < 0 ? [] : items.slice(firstReal);
  }
  const answered = new Set(items.filter(isOutput).map(callId));
  items = items.filter((item) => !isCall(item) || answered.has(callId(item)));
  const summarized = summary !== undefined && !items.includes(summary);
  return { items: summarized ? [summary!, ...items] : items, turns: chosen.length, summarized };
}
