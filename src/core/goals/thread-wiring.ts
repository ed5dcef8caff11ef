// How a Thread's goal reaches the rollout and the event stream, and which of its tools the
// continuation prompt tells the model to mark the goal done with.
import type { ThreadGoal, ToolDefinition } from '../../protocol/index.js';
import type { Thread } from '../thread.js';

/** The goal-update tools of the harnesses that have one (native/Qwen Code, Kimi Code). */
const UPDATE_TOOLS = ['update_goal', 'UpdateGoal'];

export function goalUpdateToolName(tools: readonly ToolDefinition[] | undefined): string | undefined {
  return tools?.find((tool) => UPDATE_TOOLS.includes(tool.name))?.name;
}

export function recordGoalChange(thread: Thread, goal: ThreadGoal | undefined): void {
  const turnId = thread.currentTurnId ?? null;
  if (goal) thread.recorder.goalUpdated?.(goal, turnId);
  else thread.recorder.goalCleared?.();
  // Between turns nothing else flushes the rollout: a goal set from the app server must survive a crash.
  if (turnId === null) thread.recorder.flush();
  thread.emit(goal ? { type: 'thread.goal_updated', goal } : { type: 'thread.goal_cleared' });
}
