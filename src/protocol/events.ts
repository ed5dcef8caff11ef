// The one event stream every front end consumes. The first eight types are exactly Codex's
// `exec --json` events; the rest are richer live events that the JSONL front end does not print.
// The engine delivers each event in an envelope (thread, turn, sequence number, time); `rig exec
// --json` prints the bare event, so its lines stay Codex's.
import type { ThreadItem } from './items.js';
import type { TokenUsage } from './usage.js';
import type { ApprovalDecision, ApprovalRequest } from './approvals.js';
import type { ThreadSettingsView } from './settings.js';
import type { McpLiveEvent } from './mcp.js';
import type { HookCompletedEvent, HookStartedEvent } from './hooks.js';
import type { ThreadGoalClearedEvent, ThreadGoalUpdatedEvent } from './goals.js';

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
/** A stored thread was loaded again (`rig exec --json` prints it as `thread.started`). */
export interface ThreadResumedEvent {
  type: 'thread.resumed';
  thread_id: string;
}
/** Settings changed by updateSettings; they apply from the next turn. */
export interface ThreadSettingsUpdatedEvent {
  type: 'thread.settings_updated';
  settings: ThreadSettingsView;
}
/** The thread was unloaded: its processes are gone and its rollout is closed. */
export interface ThreadClosedEvent {
  type: 'thread.closed';
}
/** A pending approval was answered (or dropped because its turn ended). */
export interface ApprovalResolvedEvent {
  type: 'approval.resolved';
  request_id: string;
  decision: ApprovalDecision;
  /** What the person told the agent to do instead (a `deny` with feedback). */
  feedback?: string;
}
export interface RetryEvent {
  type: 'model.retry';
  attempt: number;
  max_attempts: number;
  delay_ms: number;
  reason: string;
}
/**
 * A steering message given with an id (ThreadHandle.steer's `steerId`) is being handed to the
 * model: emitted just before the user_message item that carries it (`item_id`), so a front end
 * can move it from its queue into the transcript.
 */
export interface SteerDeliveredEvent {
  type: 'steer.delivered';
  steer_id: string;
  /** The id of the user_message item that follows. */
  item_id: string;
}
/** The thread was given a name (ThreadHandle.setName); listings show it as the thread's title. */
export interface ThreadNameUpdatedEvent {
  type: 'thread.name_updated';
  thread_name: string;
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
  | ApprovalResolvedEvent
  | TurnInterruptedEvent
  | RetryEvent
  | UsageUpdatedEvent
  | ThreadResumedEvent
  | ThreadSettingsUpdatedEvent
  | ThreadClosedEvent
  | McpLiveEvent
  | SteerDeliveredEvent
  | ThreadNameUpdatedEvent
  | HookStartedEvent
  | HookCompletedEvent
  | ThreadGoalUpdatedEvent
  | ThreadGoalClearedEvent;

export type ThreadEvent = ExecEvent | LiveEvent;

/**
 * How the engine delivers every event: which thread and turn it belongs to, its place in the
 * thread's stream (`seq` counts from 0 each time the thread is loaded, with no gaps), and when it
 * was emitted. `turn_id` is null for thread-level events (started, resumed, settings, closed, and
 * the warnings that follow thread.started).
 */
export interface EventEnvelope<E extends ThreadEvent = ThreadEvent> {
  thread_id: string;
  turn_id: string | null;
  seq: number;
  /** Milliseconds since the Unix epoch. */
  timestamp_ms: number;
  event: E;
}

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
