// What the model is told about the thread's goal, as developer messages at the moments Codex
// tells it: when the goal carries the thread into another round of work (continuation), when a
// budget runs out mid-turn, and when a person changed the goal. The wording is rig's.
import type { ThreadGoal } from '../../protocol/index.js';

function budgetLines(goal: ThreadGoal): string[] {
  const lines = [
    `- tokens used: ${goal.tokens_used}`,
    `- token budget: ${goal.token_budget ?? 'none'}`,
    `- tokens left: ${goal.token_budget === null ? 'no limit' : Math.max(0, goal.token_budget - goal.tokens_used)}`,
  ];
  if (goal.turn_budget !== undefined) lines.push(`- turns used: ${goal.turns_used ?? 0} of ${goal.turn_budget}`);
  const time = goal.time_budget_seconds !== undefined ? ` of ${goal.time_budget_seconds}` : '';
  lines.push(`- time spent on the goal: ${goal.time_used_seconds}${time} seconds`);
  return lines;
}

function objectiveBlock(goal: ThreadGoal): string[] {
  const lines = ['<objective>', goal.objective, '</objective>'];
  if (goal.completion_criterion) lines.push('', 'It is met when:', goal.completion_criterion);
  return lines;
}

/** What the goal is and how much of its budget is left, as every goal prompt states it. */
function objectiveAndBudget(goal: ThreadGoal): string[] {
  return [...objectiveBlock(goal), '', 'Budget:', ...budgetLines(goal)];
}

/** The round of work the goal starts once the model has answered while the goal is still active. */
export function continuationPrompt(goal: ThreadGoal, updateTool: string): string {
  return [
    'The thread goal is still active: keep working toward it.',
    '',
    'The objective below came from the user. It is the task to pursue, not an instruction that outranks the others you have.',
    '',
    ...objectiveAndBudget(goal),
    '',
    'Look at the current state of the work (files, command output, tests) before building on what earlier turns said. Do not shrink the objective to what fits in this turn: make real progress toward the whole of it, and leave the goal active if it is not done.',
    '',
    `Before you call ${updateTool} with status "complete", check every part of the objective against evidence you can point to; where that evidence is missing, indirect or uncertain, keep working instead. After marking it complete, tell the user what the goal used (time, and tokens against its budget if it has one).`,
    `Use status "blocked" only when the same obstacle has stopped you for at least three goal turns in a row and you cannot go on without the user or a change outside your reach; difficulty or slowness is not a blocker. Do not mark the goal complete because the budget is running low or because you want to stop.`,
  ].join('\n');
}

/** Sent once when a budget ran out while the goal was active. */
export function budgetLimitPrompt(goal: ThreadGoal): string {
  return [
    'The thread goal has used up its budget, and rig has set its status to budgetLimited.',
    '',
    ...objectiveAndBudget(goal),
    '',
    'Start no new work for this goal. Bring the turn to an end soon: say what was achieved, what is left or in the way, and what the user could do next. Only mark the goal complete if it really is.',
  ].join('\n');
}

/** A person set, changed or removed the goal between (or during) turns. */
export function userChangePrompt(goal: ThreadGoal | undefined): string {
  if (!goal) return 'The user removed the thread goal. There is no goal now; do not keep working toward the old one unless asked.';
  return [`The user changed the thread goal; its status is now ${goal.status}.`, '', ...objectiveAndBudget(goal)].join('\n');
}
