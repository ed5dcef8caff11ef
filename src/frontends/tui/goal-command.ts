// /goal, as Codex's TUI has it: the thread's goal shown (`/goal`), set or replaced with a new
// objective (`/goal TEXT`, which also sends TEXT as the prompt so the work starts), paused,
// resumed or removed (`/goal pause|resume|clear`). The model hears of each change with its next
// request (core/goals).
import { GoalError } from '../../core/goals/thread-goals.js';
import type { ThreadGoal } from '../../protocol/index.js';
import type { EnginePort } from './engine-port.js';
import type { CommandResult } from './session-port.js';

function describe(goal: ThreadGoal): string {
  const budget = goal.token_budget === null ? `${goal.tokens_used} tokens` : `${goal.tokens_used} of ${goal.token_budget} tokens`;
  return `goal **${goal.status}**: ${goal.objective} (${budget}, ${goal.time_used_seconds} s)`;
}

export function runGoalCommand(port: EnginePort, args: string): CommandResult {
  const goals = port.handle.goals;
  const word = args.trim();
  try {
    switch (word) {
      case '': {
        const goal = goals.current();
        return { text: goal ? `${describe(goal)} — /goal pause, /goal resume, /goal clear, or /goal TEXT for a new one` : 'no goal: set one with /goal TEXT' };
      }
      case 'clear':
        return { text: goals.clear('user') ? 'goal removed' : 'there was no goal to remove' };
      case 'pause':
      case 'resume':
        return { text: describe(goals.update({ status: word === 'pause' ? 'paused' : 'active' }, 'user')) };
      default: {
        const goal = goals.update({ objective: word }, 'user');
        if (port.handle.isRunning) return { text: `${describe(goal)} — the model hears of it with its next request` };
        return { text: describe(goal), send: { text: word } };
      }
    }
  } catch (error) {
    if (error instanceof GoalError) return { error: error.message };
    throw error;
  }
}
