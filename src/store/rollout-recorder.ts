// Persists what a thread reports (core's ThreadRecorder interface, matched structurally so the
// store does not import core) as rollout records.
import type { ConversationItem, ModelEvent, ThreadGoal, TokenUsage } from '../protocol/index.js';
import { eventRecord, modelResponseRecord, responseItemRecord, turnContextRecord } from './rollout-records.js';
import type { RolloutWriter } from './rollout-writer.js';
import type { WorktreeRecord } from './rollout-types.js';

export type TurnEndStatus = 'completed' | 'failed' | 'interrupted';

const TURN_END_EVENT: Record<TurnEndStatus, string> = {
  completed: 'turn_complete',
  failed: 'turn_failed',
  interrupted: 'turn_aborted',
};

export interface RolloutRecorderOptions {
  /** Keep streaming deltas in model_response records (bigger files, exact streaming replays). */
  keepDeltas?: boolean;
  /** Called after each flush (turn end), e.g. to update the thread index. */
  onFlush?: () => void;
  /** fsync at flush; off by default (writes already survive a process crash). */
  durable?: boolean;
  /**
   * The history the rollout already holds (a resumed thread, as reconstructThread rebuilt it), so
   * a compaction record can refer to those items instead of writing them again.
   */
  history?: readonly ConversationItem[];
}

export class RolloutRecorder {
  /** The history as a reader of this rollout rebuilds it, and where each item sits in it. */
  private written: ConversationItem[] = [];
  private positions = new Map<ConversationItem, number>();

  constructor(
    readonly writer: RolloutWriter,
    private readonly options: RolloutRecorderOptions = {},
  ) {
    this.track(options.history ?? []);
  }

  private track(history: readonly ConversationItem[]): void {
    this.written = [...history];
    this.positions = new Map(this.written.map((item, index) => [item, index]));
  }

  get path(): string {
    return this.writer.path;
  }

  item(item: ConversationItem): void {
    this.positions.set(item, this.written.length);
    this.written.push(item);
    this.writer.append(responseItemRecord(item));
  }

  turnStarted(context: { turn_id: string; cwd: string; model: string; approval_policy?: string; sandbox_mode?: string; harness?: string }): void {
    const { sandbox_mode, ...rest } = context;
    this.writer.append(turnContextRecord({ ...rest, ...(sandbox_mode !== undefined ? { sandbox_policy: sandbox_mode } : {}) }));
  }

  /** `usage` is the thread's cumulative usage; the index reads token totals from it. */
  turnEnded(outcome: { turn_id: string; status: TurnEndStatus; usage: TokenUsage; error?: string }): void {
    this.writer.append({
      type: 'event_msg',
      payload: {
        type: TURN_END_EVENT[outcome.status],
        turn_id: outcome.turn_id,
        usage: outcome.usage,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      },
    });
  }

  modelResponse(step: { turn_id: string; step: number; events: ModelEvent[] }): void {
    this.writer.append(
      modelResponseRecord({ events: step.events, turnId: step.turn_id, step: step.step, keepDeltas: this.options.keepDeltas ?? false }),
    );
  }

  /**
   * A finished MCP tool call, as Codex records it (event_msg mcp_tool_call_end: the invocation,
   * the duration, and the result or the error), with rig's item id and status.
   */
  mcpToolCallEnd(call: {
    item_id: string;
    call_id?: string;
    server: string;
    tool: string;
    arguments: unknown;
    duration_ms?: number;
    status: string;
    result: unknown;
    error: { message: string } | null;
  }): void {
    const ms = call.duration_ms ?? 0;
    this.writer.append({
      type: 'event_msg',
      payload: {
        type: 'mcp_tool_call_end',
        call_id: call.call_id ?? call.item_id,
        item_id: call.item_id,
        invocation: { server: call.server, tool: call.tool, arguments: call.arguments },
        duration: { secs: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 },
        status: call.status,
        result: call.error ? { Err: call.error.message } : { Ok: call.result },
      },
    });
  }

  /** Kept items are written as their index in the history so far; only new items in full. */
  compacted(record: { summary: string; replacement: ConversationItem[] }): void {
    const replacement = record.replacement.map((item) => this.positions.get(item) ?? item);
    this.writer.append({ type: 'compacted', payload: { message: record.summary, replacement, history_length: this.written.length } });
    this.track(record.replacement);
  }

  /** The thread was named (Codex's thread_name_updated event); the index takes it as the title. */
  threadNamed(name: string): void {
    this.writer.append(eventRecord(THREAD_NAME_EVENT, { thread_name: name }));
  }

  /** The thread entered a worktree (or left it: null); resume restores it from the newest one. */
  worktreeChanged(state: WorktreeRecord | null): void {
    this.writer.append(eventRecord(WORKTREE_EVENT, { worktree: state }));
  }

  /** The goal changed (Codex's thread_goal_updated event); resume and fork rebuild it from these. */
  goalUpdated(goal: ThreadGoal, turnId: string | null): void {
    this.writer.append(eventRecord(GOAL_UPDATED_EVENT, { thread_id: goal.thread_id, turn_id: turnId, goal }));
  }

  /** The goal was removed: rig's own event, since Codex keeps goals in a database and not in the rollout. */
  goalCleared(): void {
    this.writer.append(eventRecord(GOAL_CLEARED_EVENT, {}));
  }

  flush(): void {
    if (this.options.durable) this.writer.flush();
    this.options.onFlush?.();
  }

  close(): void {
    this.writer.close();
  }
}

/** The event_msg a thread's move into or out of a worktree is recorded with. */
export const WORKTREE_EVENT = 'worktree_changed';
/** The event_msg types a thread's goal is recorded with. */
export const GOAL_UPDATED_EVENT = 'thread_goal_updated';
export const GOAL_CLEARED_EVENT = 'thread_goal_cleared';

/** The event_msg a thread's name is recorded with. */
export const THREAD_NAME_EVENT = 'thread_name_updated';

/** event_msg types whose `usage` field carries the thread's cumulative usage. */
export const TURN_END_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(TURN_END_EVENT));
