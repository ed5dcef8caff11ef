// goal.*: the harnesses' goal tools over the thread's one goal (caps.goals). Three styles: Codex's
// get_goal / create_goal / update_goal (JSON with the goal, the tokens left, and a usage report
// once complete), Kimi Code's CreateGoal / GetGoal / SetGoalBudget / UpdateGoal (text, errors
// starting "Goal not ..."), and Qwen Code's get_goal / update_goal (status with a reason).
import type { ResolvedTool } from '../../harness/profile.js';
import type { ThreadGoal, ThreadGoalStatus } from '../../protocol/index.js';
import { goalToWire } from '../../protocol/index.js';
import { fail, functionSpec, numberArg, ok, stringArg, styleOption, type Args } from '../harness/common.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { GoalError, type GoalCapability } from './capability.js';
import type { ToolFactory } from '../../harness/profile.js';

const STYLES = ['codex', 'kimi', 'qwen'] as const;
type Style = (typeof STYLES)[number];

const EMPTY = { type: 'object', properties: {}, additionalProperties: false } as const;

/** Kimi Code's bounds on a time budget. */
const MIN_TIME_BUDGET_S = 1;
const MAX_TIME_BUDGET_S = 24 * 60 * 60;

function goalsOf(ctx: ToolContext): GoalCapability {
  const goals = ctx.caps.goals;
  if (!goals) throw new GoalError('this session keeps no goals');
  return goals;
}

function remainingTokens(goal: ThreadGoal): number | null {
  return goal.token_budget === null ? null : Math.max(0, goal.token_budget - goal.tokens_used);
}

/** Codex's result: the goal, the tokens left, and once complete what to tell the user it used. */
function codexResult(goal: ThreadGoal | undefined): ToolResult {
  let report: string | null = null;
  if (goal?.status === 'complete') {
    const parts: string[] = [];
    if (goal.token_budget !== null) parts.push(`tokens used: ${goal.tokens_used} of ${goal.token_budget}`);
    if (goal.time_used_seconds > 0) parts.push(`time used: ${goal.time_used_seconds} seconds`);
    if (parts.length > 0) report = `The goal is complete. Tell the user what it used: ${parts.join('; ')}.`;
  }
  const body = { goal: goal ? goalToWire(goal) : null, remainingTokens: goal ? remainingTokens(goal) : null, completionBudgetReport: report };
  return ok(JSON.stringify(body, null, 2));
}

/** Kimi's and Qwen's view of the goal: its own fields, budgets included. */
function goalJson(goal: ThreadGoal): string {
  const budget: Record<string, number> = {};
  if (goal.token_budget !== null) budget['tokens'] = goal.token_budget;
  if (goal.turn_budget !== undefined) budget['turns'] = goal.turn_budget;
  if (goal.time_budget_seconds !== undefined) budget['seconds'] = goal.time_budget_seconds;
  return JSON.stringify(
    {
      objective: goal.objective,
      ...(goal.completion_criterion ? { completionCriterion: goal.completion_criterion } : {}),
      status: goal.status,
      ...(Object.keys(budget).length > 0 ? { budget } : {}),
      usage: { tokens: goal.tokens_used, seconds: goal.time_used_seconds, ...(goal.turn_budget !== undefined ? { turns: goal.turns_used ?? 0 } : {}) },
    },
    null,
    2,
  );
}

function usageLine(goal: ThreadGoal): string {
  return `${goal.time_used_seconds} seconds and ${goal.tokens_used} tokens`;
}

/** goal.get: the current goal. */
export function createGoalGetTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption<Style>(tool, STYLES, 'codex');
  return functionSpec(
    tool,
    { description: 'Show the goal of this thread, with its status, budget and usage.', parameters: EMPTY, parallelSafe: true },
    async (_args, ctx) => {
      const goal = goalsOf(ctx).current();
      if (style === 'codex') return codexResult(goal);
      return ok(goal ? goalJson(goal) : 'No goal is set for this session.');
    },
  );
}

/** goal.create: start a goal (Codex: only when none is pending; Kimi: `replace` replaces one). */
export function createGoalCreateTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption<Style>(tool, STYLES, 'codex');
  return functionSpec(
    tool,
    {
      description: 'Start a goal for this thread, when the user asked for one.',
      parameters: { type: 'object', properties: { objective: { type: 'string' }, token_budget: { type: 'integer' } }, required: ['objective'] },
      parallelSafe: false,
    },
    async (args, ctx) => {
      const objective = stringArg(args, 'objective');
      const refused = (why: string): ToolResult => fail(style === 'kimi' ? `Goal not created: ${why}` : why);
      if (objective === undefined) return refused('objective is required (a string saying what to achieve)');
      const budget = args['token_budget'];
      if (budget !== undefined && budget !== null && (typeof budget !== 'number' || !Number.isInteger(budget) || budget <= 0)) {
        return refused(`token_budget must be a positive integer, got ${JSON.stringify(budget)}`);
      }
      try {
        const goal = goalsOf(ctx).create(
          {
            objective,
            ...(typeof budget === 'number' ? { tokenBudget: budget } : {}),
            ...(style === 'kimi' && typeof args['completionCriterion'] === 'string' ? { completionCriterion: args['completionCriterion'] } : {}),
            ...(style === 'kimi' && args['replace'] === true ? { replace: true } : {}),
          },
          'model',
        );
        if (style === 'codex') return codexResult(goal);
        return ok(`Goal created and active.\n${goalJson(goal)}`);
      } catch (error) {
        if (error instanceof GoalError) return refused(error.message);
        throw error;
      }
    },
  );
}

const STATUS_BY_STYLE: Record<Style, readonly ThreadGoalStatus[]> = {
  // Codex 0.169's update_goal enum; pausing is a person's decision in later versions, but 0.169 lets the model.
  codex: ['complete', 'blocked', 'paused'],
  kimi: ['active', 'complete', 'blocked'],
  qwen: ['complete', 'blocked'],
};

const QWEN_BLOCKER_KINDS = ['authority', 'external', 'repeated', 'infeasible'];

/** goal.update: the model marks the goal complete or blocked (the statuses its harness offers). */
export function createGoalUpdateTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption<Style>(tool, STYLES, 'codex');
  const allowed = STATUS_BY_STYLE[style];
  return functionSpec(
    tool,
    {
      description: 'Mark the thread goal complete or blocked.',
      parameters: { type: 'object', properties: { status: { type: 'string', enum: [...allowed] } }, required: ['status'] },
      parallelSafe: false,
    },
    async (args: Args, ctx) => {
      const status = stringArg(args, 'status');
      const refused = (why: string): ToolResult => fail(style === 'kimi' ? `Goal not updated: ${why}` : why);
      if (status === undefined || !allowed.includes(status as ThreadGoalStatus)) {
        return refused(`status must be one of ${allowed.map((s) => `"${s}"`).join(', ')}, got ${JSON.stringify(args['status'])}`);
      }
      const reason = stringArg(args, 'reason')?.trim();
      if (style === 'qwen') {
        if (!reason) return refused('reason is required: say what shows the goal is complete, or what blocks it');
        const kind = args['blockerKind'];
        if (kind !== undefined && !QWEN_BLOCKER_KINDS.includes(String(kind))) return refused(`blockerKind must be one of ${QWEN_BLOCKER_KINDS.join(', ')}`);
      }
      const goals = goalsOf(ctx);
      if (!goals.current()) return refused('this thread has no goal; there is nothing to update');
      try {
        const goal = goals.update({ status: status as ThreadGoalStatus }, 'model');
        if (style === 'codex') return codexResult(goal);
        if (style === 'qwen') {
          const kind = typeof args['blockerKind'] === 'string' ? ` (${args['blockerKind']})` : '';
          return ok(`Goal marked ${goal.status}${status === 'blocked' ? kind : ''}: ${reason}\nThe goal used ${usageLine(goal)}.`);
        }
        if (goal.status === 'active') return ok(`Goal is active again.\n${goalJson(goal)}`);
        return ok(`Goal ${goal.status === 'complete' ? 'completed' : 'marked blocked'} after ${usageLine(goal)}.`);
      } catch (error) {
        if (error instanceof GoalError) return refused(error.message);
        throw error;
      }
    },
  );
}

const BUDGET_UNITS = ['turns', 'tokens', 'milliseconds', 'seconds', 'minutes', 'hours'] as const;
const SECONDS_PER: Record<string, number> = { milliseconds: 0.001, seconds: 1, minutes: 60, hours: 3600 };

/** goal.set_budget: Kimi Code's SetGoalBudget (turns, tokens, or a time span of 1 s to 24 h). */
export function createGoalBudgetTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Set a budget for the thread goal.',
      parameters: { type: 'object', properties: { value: { type: 'number' }, unit: { type: 'string', enum: [...BUDGET_UNITS] } }, required: ['value', 'unit'] },
      parallelSafe: false,
    },
    async (args, ctx) => {
      const value = numberArg(args, 'value');
      const unit = stringArg(args, 'unit');
      const refused = (why: string): ToolResult => fail(`Goal budget not set: ${why}`);
      if (value === undefined || !(value > 0)) return refused(`value must be a number above 0, got ${JSON.stringify(args['value'])}`);
      if (unit === undefined || !(BUDGET_UNITS as readonly string[]).includes(unit)) return refused(`unit must be one of ${BUDGET_UNITS.join(', ')}`);
      const goals = goalsOf(ctx);
      if (!goals.current()) return refused('no goal is set; create one first');
      try {
        let goal: ThreadGoal;
        let said: string;
        if (unit === 'turns' || unit === 'tokens') {
          const count = Math.max(1, Math.round(value));
          goal = goals.update(unit === 'turns' ? { turnBudget: count } : { tokenBudget: count }, 'model');
          said = `${count} ${unit}`;
        } else {
          const seconds = value * SECONDS_PER[unit]!;
          if (seconds < MIN_TIME_BUDGET_S || seconds > MAX_TIME_BUDGET_S) {
            return refused(`${value} ${unit} is not a reasonable time budget; give between 1 second and 24 hours`);
          }
          goal = goals.update({ timeBudgetSeconds: seconds }, 'model');
          said = `${value} ${unit}`;
        }
        return ok(`Goal budget set to ${said}.\n${goalJson(goal)}`);
      } catch (error) {
        if (error instanceof GoalError) return refused(error.message);
        throw error;
      }
    },
  );
}

export function goalCapabilities(): [string, ToolFactory<ToolSpec>][] {
  return [
    ['goal.get', createGoalGetTool],
    ['goal.create', createGoalCreateTool],
    ['goal.update', createGoalUpdateTool],
    ['goal.set_budget', createGoalBudgetTool],
  ];
}
