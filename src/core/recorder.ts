// What the thread reports for persistence. The store room implements it with rollout files; tests
// and `--ephemeral` use the no-op recorder.
import type { ConversationItem, ModelEvent, ThreadGoal, TokenUsage } from '../protocol/index.js';
import type { WorktreeRecord } from '../store/index.js';

export interface TurnContextRecord {
  turn_id: string;
  cwd: string;
  model: string;
  model_provider?: string;
  approval_policy?: string;
  sandbox_mode?: string;
  harness?: string;
}

export interface ThreadRecorder {
  /** A conversation item entered the history. */
  item(item: ConversationItem): void;
  turnStarted(context: TurnContextRecord): void;
  turnEnded(outcome: { turn_id: string; status: 'completed' | 'failed' | 'interrupted'; usage: TokenUsage; error?: string }): void;
  /** The model's raw answer to one request, for replay. */
  modelResponse(step: { turn_id: string; step: number; events: ModelEvent[] }): void;
  /** The history was replaced by a compacted one. */
  compacted(record: { summary: string; replacement: ConversationItem[] }): void;
  /** The thread was named (optional: a recorder without names ignores it). */
  threadNamed?(name: string): void;
  /** The thread entered a worktree, or left it (null). */
  worktreeChanged?(state: WorktreeRecord | null): void;
  /** The thread's goal changed (Codex's thread_goal_updated event); resume and fork rebuild it. */
  goalUpdated?(goal: ThreadGoal, turnId: string | null): void;
  /** The thread's goal was removed. */
  goalCleared?(): void;
  flush(): void;
}

export const noopRecorder: ThreadRecorder = {
  item() {},
  turnStarted() {},
  turnEnded() {},
  modelResponse() {},
  compacted() {},
  flush() {},
};
