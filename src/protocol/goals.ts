// A thread's goal (Codex's ThreadGoal): one objective the thread pursues across turns, with the
// tokens and time spent on it and an optional budget. The fields are Codex's rollout names; the
// app server speaks the same object in camelCase. Kimi Code's turn and time budgets ride along as
// optional fields Codex does not have.

export const THREAD_GOAL_STATUSES = ['active', 'paused', 'blocked', 'usageLimited', 'budgetLimited', 'complete'] as const;
export type ThreadGoalStatus = (typeof THREAD_GOAL_STATUSES)[number];

export interface ThreadGoal {
  thread_id: string;
  objective: string;
  status: ThreadGoalStatus;
  token_budget: number | null;
  /** Non-cached input plus output tokens of the requests made while the goal was active. */
  tokens_used: number;
  /** Wall-clock seconds of turns that ran while the goal was active. */
  time_used_seconds: number;
  /** Unix seconds. */
  created_at: number;
  updated_at: number;
  /** Kimi Code's `completionCriterion`: how to tell the objective is met. */
  completion_criterion?: string;
  /** Kimi Code's turn budget and the turns that ran while the goal was active. */
  turn_budget?: number;
  turns_used?: number;
  /** Kimi Code's time budget. */
  time_budget_seconds?: number;
}

/** The goal was created, changed, or its usage moved past a budget. */
export interface ThreadGoalUpdatedEvent {
  type: 'thread.goal_updated';
  goal: ThreadGoal;
}

/** The goal was removed (app server `thread/goal/clear`, `/goal clear`). */
export interface ThreadGoalClearedEvent {
  type: 'thread.goal_cleared';
}

/** Statuses in which the thread keeps working toward the goal. */
export function goalIsActive(goal: ThreadGoal | undefined): goal is ThreadGoal {
  return goal?.status === 'active';
}

/** The goal as the app server and Codex's goal tools give it (camelCase, Codex's fields only). */
export interface ThreadGoalWire {
  threadId: string;
  objective: string;
  status: ThreadGoalStatus;
  tokenBudget: number | null;
  tokensUsed: number;
  timeUsedSeconds: number;
  createdAt: number;
  updatedAt: number;
}

export function goalToWire(goal: ThreadGoal): ThreadGoalWire {
  return {
    threadId: goal.thread_id,
    objective: goal.objective,
    status: goal.status,
    tokenBudget: goal.token_budget,
    tokensUsed: goal.tokens_used,
    timeUsedSeconds: goal.time_used_seconds,
    createdAt: goal.created_at,
    updatedAt: goal.updated_at,
  };
}
