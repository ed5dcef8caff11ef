// The goal of one thread (Codex's thread goals): kept in memory, written to the rollout as
// `thread_goal_updated` / `thread_goal_cleared` events (the rollout is the truth; resume and fork
// rebuild it from there), and accounted as Codex does: the non-cached input plus output tokens of
// every request, and the wall-clock time of turns, while the goal is active. A spent budget turns
// the goal budgetLimited and tells the model once to wrap up; an interrupted turn pauses it.
import type { ThreadGoal, ThreadGoalStatus, TokenUsage } from '../../protocol/index.js';
import { THREAD_GOAL_STATUSES, goalIsActive } from '../../protocol/index.js';
import { GoalError, type GoalCapability, type GoalChange, type GoalCreateRequest, type GoalOrigin } from '../../tools/goals/capability.js';
export { GoalError, type GoalOrigin } from '../../tools/goals/capability.js';
import { budgetLimitPrompt, continuationPrompt, userChangePrompt } from './prompts.js';

/** Kimi Code cuts the completion criterion to this many characters. */
const CRITERION_MAX_CHARS = 4000;

export interface GoalSink {
  /** The goal changed (undefined: removed); record it and tell the front ends. */
  changed(goal: ThreadGoal | undefined): void;
}

/** Codex's token count for goal budgets: cached input is not spent again. */
export function goalTokenDelta(usage: TokenUsage): number {
  return Math.max(0, usage.input_tokens - usage.cached_input_tokens) + Math.max(0, usage.output_tokens);
}

function positiveOrNull(value: number | null | undefined, what: string): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (!Number.isFinite(value) || value <= 0) throw new GoalError(`${what} must be a positive number, got ${value}`);
  return value;
}

export class ThreadGoals implements GoalCapability {
  private goal: ThreadGoal | undefined;
  /** When the running turn's active time was last added to the goal (ms), if it is being timed. */
  private timedSince: number | undefined;
  private carryMs = 0;
  private notes: { text: string; untilTurnEnd?: boolean }[] = [];
  private turnRunning = false;
  /** Usage was added since the goal was last recorded. */
  private unrecorded = false;
  /** The goal was started while the current request ran: that request's tokens came before it. */
  private startedThisRequest = false;
  private completedThisRequest = false;

  constructor(
    private readonly threadId: string,
    restored: ThreadGoal | undefined,
    private readonly sink: GoalSink,
    private readonly now: () => number = Date.now,
  ) {
    // A forked thread keeps the goal of its source under its own id.
    this.goal = restored ? { ...restored, thread_id: threadId } : undefined;
  }

  current(): ThreadGoal | undefined {
    this.accountTime();
    return this.goal ? { ...this.goal } : undefined;
  }

  create(request: GoalCreateRequest, origin: GoalOrigin): ThreadGoal {
    const existing = this.goal;
    if (existing && existing.status !== 'complete' && !request.replace) {
      throw new GoalError(`this thread already has a goal (status ${existing.status}: "${existing.objective}"), so no new one was created; finish it first and mark it complete`);
    }
    return this.replace(request.objective, { tokenBudget: request.tokenBudget ?? null, ...(request.completionCriterion !== undefined ? { completionCriterion: request.completionCriterion } : {}) }, origin);
  }

  update(change: GoalChange, origin: GoalOrigin): ThreadGoal {
    if (change.status !== undefined && !THREAD_GOAL_STATUSES.includes(change.status)) {
      throw new GoalError(`unknown goal status "${String(change.status)}"; use one of ${THREAD_GOAL_STATUSES.join(', ')}`);
    }
    const tokenBudget = positiveOrNull(change.tokenBudget, 'the token budget');
    const turnBudget = positiveOrNull(change.turnBudget, 'the turn budget');
    const timeBudget = positiveOrNull(change.timeBudgetSeconds, 'the time budget');
    if (change.objective !== undefined) {
      return this.replace(change.objective, { tokenBudget: tokenBudget ?? null, ...(change.status ? { status: change.status } : {}) }, origin);
    }
    const goal = this.goal;
    if (!goal) throw new GoalError('this thread has no goal to change; create one first (give an objective)');
    this.accountTime();
    const next: ThreadGoal = { ...goal };
    if (tokenBudget !== undefined) next.token_budget = tokenBudget === null ? null : Math.max(1, Math.round(tokenBudget));
    if (turnBudget === null) delete next.turn_budget;
    else if (turnBudget !== undefined) {
      next.turn_budget = Math.max(1, Math.round(turnBudget));
      // Turns are counted from the one that set the budget.
      next.turns_used ??= this.turnRunning && goalIsActive(goal) ? 1 : 0;
    }
    if (timeBudget === null) delete next.time_budget_seconds;
    else if (timeBudget !== undefined) next.time_budget_seconds = timeBudget;
    if (change.status !== undefined) {
      // Codex charges the request in which the goal was completed to the goal.
      if (change.status === 'complete' && goalIsActive(goal) && this.turnRunning) this.completedThisRequest = true;
      next.status = change.status;
    }
    this.commit(next, origin);
    if (goalIsActive(next)) this.limitIfSpent();
    return { ...this.goal! };
  }

  clear(origin: GoalOrigin): boolean {
    if (!this.goal) return false;
    this.goal = undefined;
    this.timedSince = undefined;
    this.carryMs = 0;
    if (origin === 'user') this.notes.push({ text: userChangePrompt(undefined) });
    this.sink.changed(undefined);
    return true;
  }

  // --- what the turn loop calls ---------------------------------------------------------------

  /** A turn (or a continuation round of one) begins. */
  roundStarted(): void {
    this.turnRunning = true;
    if (!goalIsActive(this.goal)) return;
    this.timedSince ??= this.now();
    if (this.goal.turn_budget !== undefined) {
      this.goal = { ...this.goal, turns_used: (this.goal.turns_used ?? 0) + 1 };
      this.unrecorded = true;
    }
  }

  /** A model request is about to be sent. */
  requestStarting(): void {
    this.startedThisRequest = false;
    this.completedThisRequest = false;
  }

  /** One model request's usage. */
  accountUsage(usage: TokenUsage): void {
    if (this.startedThisRequest) {
      // Codex takes its baseline when the goal starts: the request that started it is not charged.
      this.startedThisRequest = false;
      return;
    }
    const completed = this.completedThisRequest && this.goal?.status === 'complete';
    this.completedThisRequest = false;
    if (!this.goal || (!goalIsActive(this.goal) && !completed)) return;
    this.accountTime();
    this.goal = { ...this.goal, tokens_used: this.goal.tokens_used + goalTokenDelta(usage) };
    this.unrecorded = true;
    this.limitIfSpent();
  }

  /** Developer messages for the next request: a spent budget, a person's change. */
  takeNotes(): string[] {
    const notes = this.notes.map((note) => note.text);
    this.notes = [];
    return notes;
  }

  /** The prompt for another round of work, when the goal is still active and the model can mark it done. */
  continuation(updateTool: string | undefined): string | undefined {
    if (!updateTool || !goalIsActive(this.goal)) return undefined;
    this.accountTime();
    if (this.goal.turn_budget !== undefined && (this.goal.turns_used ?? 0) >= this.goal.turn_budget) {
      this.commit({ ...this.goal, status: 'budgetLimited' }, 'model');
      return undefined;
    }
    return continuationPrompt(this.goal, updateTool);
  }

  /** The turn is over: its time is added, an interrupt pauses the goal, and the rollout gets the usage. */
  turnEnded(status: 'completed' | 'failed' | 'interrupted'): void {
    this.turnRunning = false;
    this.notes = this.notes.filter((note) => !note.untilTurnEnd);
    if (!this.goal) return;
    this.accountTime();
    this.timedSince = undefined;
    this.carryMs = 0;
    if (status === 'interrupted' && goalIsActive(this.goal)) {
      this.goal = { ...this.goal, status: 'paused' };
      this.unrecorded = true;
    } else if (goalIsActive(this.goal) && this.goal.turn_budget !== undefined && (this.goal.turns_used ?? 0) >= this.goal.turn_budget) {
      this.goal = { ...this.goal, status: 'budgetLimited' };
      this.unrecorded = true;
    }
    if (this.unrecorded) this.commit(this.goal!, 'model');
  }

  // --- internals -------------------------------------------------------------------------------

  private replace(objective: string, rest: { tokenBudget: number | null; completionCriterion?: string; status?: ThreadGoalStatus }, origin: GoalOrigin): ThreadGoal {
    const text = objective.trim();
    if (text === '') throw new GoalError('the goal objective is empty; say what the thread should achieve');
    const budget = positiveOrNull(rest.tokenBudget, 'the token budget');
    const at = Math.floor(this.now() / 1000);
    const goal: ThreadGoal = {
      thread_id: this.threadId,
      objective: text,
      status: rest.status ?? 'active',
      token_budget: budget === null || budget === undefined ? null : Math.max(1, Math.round(budget)),
      tokens_used: 0,
      time_used_seconds: 0,
      created_at: at,
      updated_at: at,
    };
    const criterion = rest.completionCriterion?.trim();
    if (criterion) goal.completion_criterion = criterion.slice(0, CRITERION_MAX_CHARS);
    this.carryMs = 0;
    this.timedSince = this.turnRunning && goalIsActive(goal) ? this.now() : undefined;
    this.startedThisRequest = this.turnRunning;
    this.commit(goal, origin);
    return { ...goal };
  }

  private commit(goal: ThreadGoal, origin: GoalOrigin): void {
    const wasTimed = this.timedSince !== undefined;
    this.unrecorded = false;
    this.goal = { ...goal, updated_at: Math.max(goal.updated_at, Math.floor(this.now() / 1000)) };
    if (!goalIsActive(this.goal)) this.timedSince = undefined;
    else if (!wasTimed && this.turnRunning) this.timedSince = this.now();
    if (origin === 'user') this.notes.push({ text: userChangePrompt(this.goal) });
    this.sink.changed({ ...this.goal });
  }

  private accountTime(): void {
    if (this.timedSince === undefined || !goalIsActive(this.goal)) return;
    const now = this.now();
    const ms = now - this.timedSince + this.carryMs;
    this.timedSince = now;
    const seconds = Math.floor(ms / 1000);
    this.carryMs = ms - seconds * 1000;
    if (seconds > 0) {
      this.goal = { ...this.goal, time_used_seconds: this.goal.time_used_seconds + seconds };
      this.unrecorded = true;
    }
  }

  private limitIfSpent(): void {
    const goal = this.goal;
    if (!goalIsActive(goal)) return;
    const tokens = goal.token_budget !== null && goal.tokens_used >= goal.token_budget;
    const time = goal.time_budget_seconds !== undefined && goal.time_used_seconds >= goal.time_budget_seconds;
    if (!tokens && !time) return;
    this.commit({ ...goal, status: 'budgetLimited' }, 'model');
    // Meant for the rest of this turn; a later turn sees the status in the goal itself.
    if (this.turnRunning) this.notes.push({ text: budgetLimitPrompt(this.goal!), untilTurnEnd: true });
  }
}
