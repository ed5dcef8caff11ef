// What the goal tools reach the thread's goal through (core/goals/thread-goals.ts implements it).
import type { ThreadGoal, ThreadGoalStatus } from '../../protocol/index.js';

export interface GoalCreateRequest {
  objective: string;
  tokenBudget?: number | null;
  completionCriterion?: string;
  /** Replace a goal that is not complete yet (Kimi Code's `replace`); without it that is refused. */
  replace?: boolean;
}

export interface GoalChange {
  /** A new objective replaces the goal and starts its accounting from zero. */
  objective?: string;
  status?: ThreadGoalStatus;
  /** null removes the budget. */
  tokenBudget?: number | null;
  turnBudget?: number | null;
  timeBudgetSeconds?: number | null;
}

/** Who changed the goal: the model (a tool) or a person (app server, TUI); the model is told of the latter. */
export type GoalOrigin = 'model' | 'user';

export interface GoalCapability {
  current(): ThreadGoal | undefined;
  /** Throws GoalError when a goal exists already (and may not be replaced) or the request is invalid. */
  create(request: GoalCreateRequest, origin: GoalOrigin): ThreadGoal;
  /** Throws GoalError when there is no goal to change and no objective to start one, or a value is invalid. */
  update(change: GoalChange, origin: GoalOrigin): ThreadGoal;
  /** False when there was no goal. */
  clear(origin: GoalOrigin): boolean;
}

/** A refused goal change; the message is written for the model (and for people). */
export class GoalError extends Error {
  override name = 'GoalError';
}
