// The rollout line format: one JSON object per line, `{timestamp, type, payload}`, following
// Codex's rollout records (reference/context-and-state.md §4) plus rig's `model_response` for replay.
import type { ConversationItem, ModelEvent, TokenUsage } from '../protocol/index.js';

export interface GitInfo {
  commit_hash?: string;
  branch?: string;
  repository_url?: string;
}

export interface SessionMeta {
  /** Thread id (UUIDv7). */
  id: string;
  /** ISO time the thread was created. */
  timestamp: string;
  cwd: string;
  originator: string;
  cli_version: string;
  /** Where the thread came from: cli, exec, app-server, mcp, subagent, ... */
  source?: string;
  model?: string;
  model_provider?: string;
  harness?: string;
  base_instructions?: string;
  forked_from_id?: string;
  /** A sub-agent's parent thread, task path (/root/implement_fix), nickname and role. */
  parent_thread_id?: string;
  agent_path?: string;
  agent_nickname?: string;
  agent_role?: string;
  git?: GitInfo;
}

export interface TurnContextPayload {
  turn_id?: string;
  cwd: string;
  approval_policy?: string;
  sandbox_policy?: unknown;
  model: string;
  model_provider?: string;
  harness?: string;
  effort?: string;
  summary?: string;
  current_date?: string;
  timezone?: string;
  network?: unknown;
}

export interface CompactedPayload {
  /** The summary text the model produced. */
  message: string;
  /** The whole history after compaction; resume replaces everything before this line with it. */
  replacement_history?: ConversationItem[];
  /**
   * rig's compact form of the same: the history after compaction, where a number stands for the
   * item at that index of the history before this line (kept context and user messages) and only
   * new items (the summary, a shortened message) are written out. Keeps a long session's rollout
   * growing with what happened rather than with the kept history, once per compaction.
   */
  replacement?: (number | ConversationItem)[];
  /** Length of the history `replacement`'s indices refer to, as a check. */
  history_length?: number;
}

export interface TokenCountPayload {
  type: 'token_count';
  info: {
    total_token_usage: TokenUsage;
    last_token_usage: TokenUsage;
    model_context_window?: number;
  } | null;
}

export interface ThreadRolledBackPayload {
  type: 'thread_rolled_back';
  num_turns: number;
}

/** The worktree a thread works in (EnterWorktree), as its `worktree_changed` event records it. */
export interface WorktreeRecord {
  /** The worktree's folder: the thread's working directory while it is in it. */
  path: string;
  branch?: string;
  /** The commit it started from (removal refuses over commits after it). */
  base_commit: string;
  /** Where the thread worked before entering (ExitWorktree returns there). */
  original_cwd: string;
  /** The repository's main checkout. */
  repository: string;
}

/** Other event_msg payloads are free-form but always carry a `type`. */
export interface GenericEventPayload {
  type: string;
  [key: string]: unknown;
}

export type EventMsgPayload = TokenCountPayload | ThreadRolledBackPayload | GenericEventPayload;

/** The model's answer to one sampling request, so a replay provider can serve it again. */
export interface ModelResponsePayload {
  turn_id?: string;
  /** 0-based step within the turn. */
  step?: number;
  model?: string;
  events: ModelEvent[];
}

export type RolloutRecordBody =
  | { type: 'session_meta'; payload: SessionMeta }
  | { type: 'response_item'; payload: ConversationItem }
  | { type: 'turn_context'; payload: TurnContextPayload }
  | { type: 'compacted'; payload: CompactedPayload }
  | { type: 'event_msg'; payload: EventMsgPayload }
  | { type: 'model_response'; payload: ModelResponsePayload };

export type RolloutRecordType = RolloutRecordBody['type'];

export type RolloutRecord = RolloutRecordBody & { timestamp: string };

export const KNOWN_RECORD_TYPES: ReadonlySet<string> = new Set<RolloutRecordType>([
  'session_meta',
  'response_item',
  'turn_context',
  'compacted',
  'event_msg',
  'model_response',
]);
