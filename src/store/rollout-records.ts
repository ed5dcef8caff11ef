// Builders for the records the engine appends, so every writer produces the same shapes.
import type { ConversationItem, ModelEvent, TokenUsage } from '../protocol/index.js';
import type { RolloutRecordBody, TurnContextPayload } from './rollout-types.js';

export function responseItemRecord(item: ConversationItem): RolloutRecordBody {
  return { type: 'response_item', payload: item };
}

/** Write one at the start of every turn: resume restores settings from it and rollback counts them. */
export function turnContextRecord(context: TurnContextPayload): RolloutRecordBody {
  return { type: 'turn_context', payload: context };
}

export function tokenCountRecord(total: TokenUsage, last: TokenUsage, modelContextWindow?: number): RolloutRecordBody {
  return {
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        total_token_usage: total,
        last_token_usage: last,
        ...(modelContextWindow !== undefined ? { model_context_window: modelContextWindow } : {}),
      },
    },
  };
}

/** The user's prompt as typed; the index takes the thread title from the first one. */
export function userMessageEventRecord(message: string): RolloutRecordBody {
  return { type: 'event_msg', payload: { type: 'user_message', message } };
}

export function eventRecord(type: string, fields: Record<string, unknown> = {}): RolloutRecordBody {
  return { type: 'event_msg', payload: { ...fields, type } };
}

export function rolledBackRecord(numTurns: number): RolloutRecordBody {
  return { type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: numTurns } };
}

/**
 * The events a replay provider needs to answer the same request again. Deltas are dropped (the
 * replayer re-derives them from the finished items), which keeps a step's record small.
 */
export function replayableEvents(events: readonly ModelEvent[]): ModelEvent[] {
  return events.filter(
    (e) => e.type === 'created' || e.type === 'tool_call_started' || e.type === 'item_done' || e.type === 'completed' || e.type === 'error',
  );
}

export function modelResponseRecord(options: {
  events: readonly ModelEvent[];
  turnId?: string;
  step?: number;
  model?: string;
  /** Keep text/reasoning/tool deltas too (faithful streaming replays at several times the size). */
  keepDeltas?: boolean;
}): RolloutRecordBody {
  return {
    type: 'model_response',
    payload: {
      ...(options.turnId !== undefined ? { turn_id: options.turnId } : {}),
      ...(options.step !== undefined ? { step: options.step } : {}),
      ...(options.model !== undefined ? { model: options.model } : {}),
      events: options.keepDeltas ? [...options.events] : replayableEvents(options.events),
    },
  };
}
