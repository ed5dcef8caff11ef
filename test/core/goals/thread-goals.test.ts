// ThreadGoals on its own, with a hand-moved clock: what a goal accounts (Codex's token count,
// wall-clock time only while a turn runs with the goal active), the statuses the lifecycle moves
// it through (budgetLimited, paused on interrupt, Kimi's turn budget), and what it records.
import { expect, test } from 'vitest';
import { ThreadGoals, goalTokenDelta } from '../../../src/core/goals/thread-goals.js';
import { GoalError } from '../../../src/tools/goals/capability.js';
import type { ThreadGoal, TokenUsage } from '../../../src/protocol/index.js';
import { reconstructThread } from '../../../src/store/reconstruct.js';
import type { RolloutRecord } from '../../../src/store/rollout-types.js';

function usage(input: number, cached: number, output: number): TokenUsage {
  return { input_tokens: input, cached_input_tokens: cached, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 7 };
}

function setup(restored?: ThreadGoal) {
  let now = 1_000_000;
  const changes: (ThreadGoal | undefined)[] = [];
  const goals = new ThreadGoals('thread-b', restored, { changed: (goal) => changes.push(goal) }, () => now);
  return { goals, changes, advance: (ms: number) => (now += ms) };
}

test("Codex's token count leaves cached input out and does not add reasoning again", () => {
  expect(goalTokenDelta(usage(900, 400, 80))).toBe(580);
});

test('time counts only while a turn runs with the goal active; a spent budget limits the goal once', () => {
  const { goals, changes, advance } = setup();
  goals.create({ objective: 'ship it', tokenBudget: 1000 }, 'model');
  advance(5000); // idle: not counted
  goals.roundStarted();
  goals.requestStarting();
  advance(2500);
  goals.accountUsage(usage(600, 0, 100));
  expect(goals.current()).toMatchObject({ tokens_used: 700, time_used_seconds: 2, status: 'active' });
  goals.requestStarting();
  advance(600);
  goals.accountUsage(usage(300, 0, 50));
  expect(goals.current()).toMatchObject({ tokens_used: 1050, time_used_seconds: 3, status: 'budgetLimited' });
  const notes = goals.takeNotes();
  expect(notes).toHaveLength(1);
  expect(notes[0]).toContain('used up its budget');
  expect(goals.takeNotes()).toEqual([]);
  goals.requestStarting();
  goals.accountUsage(usage(300, 0, 50));
  expect(goals.current()!.tokens_used).toBe(1050);
  goals.turnEnded('completed');
  expect(changes.map((goal) => goal?.status)).toEqual(['active', 'budgetLimited']);
});

test('an interrupted turn pauses an active goal; Kimi turn budgets end it after the turns; a new objective restarts the count', () => {
  const { goals, changes } = setup();
  goals.create({ objective: 'one' }, 'model');
  goals.roundStarted();
  goals.turnEnded('interrupted');
  expect(goals.current()!.status).toBe('paused');
  goals.update({ status: 'active', turnBudget: 2 }, 'user');
  expect(goals.takeNotes()[0]).toMatch(/^The user changed the thread goal; its status is now active/);
  goals.roundStarted();
  goals.turnEnded('completed');
  expect(goals.current()).toMatchObject({ status: 'active', turns_used: 1 });
  goals.roundStarted();
  expect(goals.continuation('UpdateGoal')).toBeUndefined();
  expect(goals.current()!.status).toBe('budgetLimited');
  goals.turnEnded('completed');
  expect(() => goals.create({ objective: 'two' }, 'model')).toThrow(GoalError);
  const fresh = goals.create({ objective: 'two', replace: true, tokenBudget: 10.4 }, 'model');
  expect(fresh).toMatchObject({ objective: 'two', status: 'active', tokens_used: 0, token_budget: 10 });
  expect(fresh.turn_budget).toBeUndefined();
  expect(goals.clear('model')).toBe(true);
  expect(changes.at(-1)).toBeUndefined();
  expect(() => goals.update({ status: 'complete' }, 'model')).toThrow('this thread has no goal to change');
});

test('the rollout rebuilds the newest goal; a clear removes it; a forked thread takes it under its own id', () => {
  const goal: ThreadGoal = { thread_id: 'thread-a', objective: 'x', status: 'active', token_budget: null, tokens_used: 5, time_used_seconds: 1, created_at: 1, updated_at: 2 };
  const at = '2026-01-01T00:00:00.000Z';
  const event = (payload: Record<string, unknown>) => ({ timestamp: at, type: 'event_msg', payload }) as unknown as RolloutRecord;
  const updated = event({ type: 'thread_goal_updated', thread_id: 'thread-a', turn_id: null, goal });
  const damaged = event({ type: 'thread_goal_updated', goal: { objective: 'y', status: 'nonsense' } });
  expect(reconstructThread([updated, damaged]).goal).toEqual(goal);
  expect(reconstructThread([updated, event({ type: 'thread_goal_cleared' })]).goal).toBeUndefined();
  const { goals } = setup(goal);
  expect(goals.current()).toMatchObject({ thread_id: 'thread-b', tokens_used: 5 });
});
