// The one event stream every front end consumes. The first eight types are exactly Codex's
// `exec --json` events; the rest are richer live events that the JSONL front end does not print.
import type { ThreadItem } from './items.js';
import type { TokenUsage } from './usage.js';
import type { ApprovalRequest } from './approvals.js';

export interface ThreadStartedEvent {
  type: 'thread.started';
  thread_id: string;
}
export interface TurnStartedEvent {
  type: 'turn.started';
}
export interface TurnCompletedEvent {
  type: 'turn.completed';
  usage: TokenUsage;
}
export interface TurnFailedEvent {
  type: 'turn.failed';
  error: { message: string };
}
export interface ItemStartedEvent {
  type: 'item.started';
  item: ThreadItem;
}
export interface ItemUpdatedEvent {
  type: 'item.updated';
  item: ThreadItem;
}
export interface ItemCompletedEvent {
  type: 'item.completed';
  item: ThreadItem;
}
export interface StreamErrorEvent {
  type: 'error';
  message: string;
}

/** Codex-compatible events: what `rig exec --json` prints. */
export type ExecEvent =
  | ThreadStartedEvent
  | TurnStartedEvent
  | TurnCompletedEvent
  | TurnFailedEvent
  | ItemStartedEvent
  | ItemUpdatedEvent
  | ItemCompletedEvent
  | StreamErrorEvent;

export interface AgentMessageDeltaEvent {
  type: 'item.agent_message.delta';
  item_id: string;
  delta: string;
}
export interface ReasoningDeltaEvent {
  type: 'item.reasoning.delta';
  item_id: string;
  delta: string;
}
export interface CommandOutputDeltaEvent {
  type: 'item.command_execution.output_delta';
  item_id: string;
  delta: string;
}
export interface ApprovalRequestedEvent {
  type: 'approval.requested';
  request: ApprovalRequest;
}
export interface TurnInterruptedEvent {
  type: 'turn.interrupted';
  reason: string;
}
export interface RetryEvent {
  type: 'model.retry';
  attempt: number;
  max_attempts: number;
  delay_ms: number;
  reason: string;
}
export interface UsageUpdatedEvent {
  type: 'usage.updated';
  /** Usage of the last request. */
  last: TokenUsage;
  /** Cumulative for the thread. */
  total: TokenUsage;
}

/** Live-only events. */
export type LiveEvent =
  | AgentMessageDeltaEvent
  | ReasoningDeltaEvent
  | CommandOutputDeltaEvent
  | ApprovalRequestedEvent
  | TurnInterruptedEvent
  | RetryEvent
  | UsageUpdatedEvent;

export type ThreadEvent = ExecEvent | LiveEvent;

const EXEC_EVENT_TYPES: ReadonlySet<string> = new Set([
  'thread.started',
  'turn.started',
  'turn.completed',
  'turn.failed',
  'item.started',
  'item.updated',
  'item.completed',
  'error',
]);

export function isExecEvent(event: ThreadEvent): event is ExecEvent {
  return EXEC_EVENT_TYPES.has(event.type);
}
