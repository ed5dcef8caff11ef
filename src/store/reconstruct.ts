// Rebuilds a thread's state from its rollout records (resume, fork, index backfill).
import type { ConversationItem, ThreadGoal, TokenUsage } from '../protocol/index.js';
import { THREAD_GOAL_STATUSES } from '../protocol/index.js';
import { repairCallPairing } from './call-pairing.js';
import { GOAL_CLEARED_EVENT, GOAL_UPDATED_EVENT, THREAD_NAME_EVENT, TURN_END_EVENT_TYPES, WORKTREE_EVENT } from './rollout-recorder.js';
import type {
  ModelResponsePayload,
  RolloutRecord,
  SessionMeta,
  TurnContextPayload,
  WorktreeRecord,
} from './rollout-types.js';

export interface ReconstructedThread {
  meta: SessionMeta | undefined;
  /** The conversation as the model will see it next: compactions applied, rollbacks dropped. */
  history: ConversationItem[];
  /** The newest turn_context: restores model, effort and policies on resume. */
  turnContext: TurnContextPayload | undefined;
  /** Cumulative usage from the newest token_count event. */
  totalUsage: TokenUsage | undefined;
  /** Number of turns (turn_context lines) in the rollout. */
  turns: number;
  /** How the history's call/output pairing was repaired (a damaged rollout), one line each. */
  repairs: string[];
  /** The newest name the thread was given (ThreadHandle.setName), if any. */
  threadName: string | undefined;
  /** The worktree the thread was in when the rollout ends (EnterWorktree without an exit since). */
  worktree: WorktreeRecord | undefined;
  /**
   * Where the thread worked last: the newest turn's cwd, unless it moved into or out of a worktree
   * after that turn started (a move happens mid-turn).
   */
  workingDirectory: string | undefined;
  /** The thread's goal after the newest thread_goal_updated / thread_goal_cleared event, if any. */
  goal: ThreadGoal | undefined;
}

/** The state a worktree_changed event records: a worktree, null for "left it", undefined for another event. */
function recordedWorktree(payload: { type: string }): WorktreeRecord | null | undefined {
  if (payload.type !== WORKTREE_EVENT) return undefined;
  const state = (payload as { worktree?: unknown }).worktree;
  if (state === null) return null;
  if (typeof state !== 'object' || state === undefined) return undefined;
  const record = state as Partial<WorktreeRecord>;
  const strings = [record.path, record.base_commit, record.original_cwd, record.repository];
  return strings.every((value) => typeof value === 'string' && value !== '') ? (record as WorktreeRecord) : undefined;
}

/** The goal a thread_goal_updated event carries, when its fields are whole; a damaged one is skipped. */
function recordedGoal(payload: { type: string }): ThreadGoal | undefined {
  const goal = (payload as { goal?: Partial<ThreadGoal> }).goal;
  if (!goal || typeof goal !== 'object') return undefined;
  const numbers = [goal.tokens_used, goal.time_used_seconds, goal.created_at, goal.updated_at];
  if (typeof goal.objective !== 'string' || typeof goal.thread_id !== 'string') return undefined;
  if (!THREAD_GOAL_STATUSES.includes(goal.status as ThreadGoal['status'])) return undefined;
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
  if (goal.token_budget !== null && typeof goal.token_budget !== 'number') return undefined;
  return goal as ThreadGoal;
}

/** The name a thread_name_updated event gives, if it is one. */
function recordedName(payload: { type: string }): string | undefined {
  if (payload.type !== THREAD_NAME_EVENT) return undefined;
  const name = (payload as { thread_name?: unknown }).thread_name;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

/**
 * Replays records in order (then repairs call/output pairing, see call-pairing.ts): `response_item` appends, `compacted` with a replacement history
 * replaces everything before it, `thread_rolled_back` drops the last N turns. Turns are delimited
 * by `turn_context` lines, so the engine writes one at the start of every turn.
 */
export function reconstructThread(records: readonly RolloutRecord[]): ReconstructedThread {
  let meta: SessionMeta | undefined;
  let history: ConversationItem[] = [];
  let turnContext: TurnContextPayload | undefined;
  let totalUsage: TokenUsage | undefined;
  let turns = 0;
  let threadName: string | undefined;
  let worktree: WorktreeRecord | undefined;
  let workingDirectory: string | undefined;
  let goal: ThreadGoal | undefined;
  // History length at the start of each turn still in the history (for rollback).
  let turnStarts: number[] = [];
  for (const record of records) {
    switch (record.type) {
      case 'session_meta':
        meta ??= record.payload;
        break;
      case 'response_item':
        history.push(record.payload);
        break;
      case 'turn_context':
        turnContext = record.payload;
        workingDirectory = record.payload.cwd || workingDirectory;
        turns += 1;
        turnStarts.push(history.length);
        break;
      case 'compacted':
        if (record.payload.replacement) {
          const before = history;
          history = record.payload.replacement.flatMap((entry) => (typeof entry === 'number' ? (before[entry] ?? []) : [entry]));
          turnStarts = [];
        } else if (record.payload.replacement_history) {
          history = [...record.payload.replacement_history];
          turnStarts = [];
        }
        break;
      case 'event_msg': {
        const payload = record.payload;
        threadName = recordedName(payload) ?? threadName;
        const moved = recordedWorktree(payload);
        if (moved !== undefined) {
          workingDirectory = moved ? moved.path : (worktree?.original_cwd ?? workingDirectory);
          worktree = moved ?? undefined;
        }
        if (payload.type === GOAL_UPDATED_EVENT) goal = recordedGoal(payload) ?? goal;
        else if (payload.type === GOAL_CLEARED_EVENT) goal = undefined;
        if (payload.type === 'token_count') {
          const info = (payload as { info?: { total_token_usage?: TokenUsage } | null }).info;
          if (info?.total_token_usage) totalUsage = info.total_token_usage;
        } else if (TURN_END_EVENT_TYPES.has(payload.type)) {
          const usage = (payload as { usage?: TokenUsage }).usage;
          if (usage) totalUsage = usage;
        } else if (payload.type === 'thread_rolled_back') {
          const n = Number((payload as { num_turns?: unknown }).num_turns);
          if (Number.isInteger(n) && n > 0 && turnStarts.length > 0) {
            const keep = Math.max(0, turnStarts.length - n);
            const cut = turnStarts[keep] ?? history.length;
            history = history.slice(0, cut);
            turnStarts = turnStarts.slice(0, keep);
          }
        }
        break;
      }
      case 'model_response':
        break;
    }
  }
  const repaired = repairCallPairing(history);
  return { meta, history: repaired.history, turnContext, totalUsage, turns, repairs: repaired.repairs, threadName, worktree, workingDirectory, goal };
}

/** Recorded model responses in order, for a replay provider. */
export function recordedModelResponses(records: readonly RolloutRecord[]): ModelResponsePayload[] {
  const out: ModelResponsePayload[] = [];
  for (const record of records) if (record.type === 'model_response') out.push(record.payload);
  return out;
}

export interface RolloutSummary {
  id: string | undefined;
  cwd: string;
  title: string;
  createdAt: number | undefined;
  model: string | undefined;
  modelProvider: string | undefined;
  harness: string | undefined;
  gitBranch: string | undefined;
  gitSha: string | undefined;
  forkedFromId: string | undefined;
  parentThreadId: string | undefined;
  agentPath: string | undefined;
  agentRole: string | undefined;
  usage: TokenUsage | undefined;
}

const TITLE_MAX_CHARS = 240;

/**
 * Context fragments injected as user messages (AGENTS.md, environment context) are not what the
 * user typed; the title skips them. A fragment is wholly wrapped in one tag, which a prompt that
 * merely starts with "<div>" is not.
 */
export function looksLikeContextFragment(text: string): boolean {
  const t = text.trim();
  if (t.startsWith('# AGENTS.md instructions')) return true;
  const open = /^<([^<>\n]+)>/.exec(t);
  return open !== null && t.endsWith(`</${open[1]!}>`);
}

export function makeTitle(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > TITLE_MAX_CHARS ? `${trimmed.slice(0, TITLE_MAX_CHARS - 1)}…` : trimmed;
}

/** What the index stores about a thread, in one pass over its records. */
export function summarizeRollout(records: readonly RolloutRecord[]): RolloutSummary {
  let meta: SessionMeta | undefined;
  let eventTitle: string | undefined;
  let itemTitle: string | undefined;
  let turnContext: TurnContextPayload | undefined;
  let usage: TokenUsage | undefined;
  let name: string | undefined;
  for (const record of records) {
    if (record.type === 'session_meta') meta ??= record.payload;
    else if (record.type === 'turn_context') turnContext = record.payload;
    else if (record.type === 'event_msg') {
      const p = record.payload as { type: string; message?: unknown; info?: { total_token_usage?: TokenUsage } | null };
      name = recordedName(p) ?? name;
      if (p.type === 'user_message' && eventTitle === undefined && typeof p.message === 'string' && p.message.trim()) {
        eventTitle = p.message;
      } else if (p.type === 'token_count' && p.info?.total_token_usage) {
        usage = p.info.total_token_usage;
      } else if (TURN_END_EVENT_TYPES.has(p.type)) {
        const turnUsage = (p as { usage?: TokenUsage }).usage;
        if (turnUsage) usage = turnUsage;
      }
    } else if (record.type === 'response_item' && itemTitle === undefined) {
      const item = record.payload;
      if (item.type === 'message' && item.role === 'user') {
        const text = item.content.map((part) => ('text' in part ? part.text : '')).join('');
        if (text.trim() && !looksLikeContextFragment(text)) itemTitle = text;
      }
    }
  }
  const created = meta?.timestamp ? Date.parse(meta.timestamp) : NaN;
  return {
    id: meta?.id,
    cwd: meta?.cwd ?? turnContext?.cwd ?? '',
    // A name the user gave wins over the first prompt.
    title: makeTitle(name ?? eventTitle ?? itemTitle ?? ''),
    createdAt: Number.isFinite(created) ? created : undefined,
    model: turnContext?.model ?? meta?.model,
    modelProvider: turnContext?.model_provider ?? meta?.model_provider,
    harness: turnContext?.harness ?? meta?.harness,
    gitBranch: meta?.git?.branch,
    gitSha: meta?.git?.commit_hash,
    forkedFromId: meta?.forked_from_id,
    parentThreadId: meta?.parent_thread_id,
    agentPath: meta?.agent_path,
    agentRole: meta?.agent_role,
    usage,
  };
}
