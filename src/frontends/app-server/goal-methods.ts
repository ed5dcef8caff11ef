// thread/goal/set|get|clear: a loaded thread's goal, as Codex's app server offers it. A set with an
// objective starts (or replaces) the goal with fresh accounting; without one it changes the status
// or budget of the goal there is. Changes reach every client as thread/goal/updated|cleared (the
// event bridge), and the model hears of a person's change with its next request.
import { GoalError, type GoalOrigin } from '../../core/goals/thread-goals.js';
import { goalToWire } from '../../protocol/index.js';
import { ERROR_CODES, type ParamsOf, type ResultOf } from '../../protocol/app-server/index.js';
import { RpcError } from './connection.js';
import type { MethodHandler, ServerContext } from './server.js';

function origin(value: 'user' | 'automatic' | null | undefined): GoalOrigin {
  return value === 'automatic' ? 'model' : 'user';
}

function goalCall<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof GoalError) throw new RpcError(ERROR_CODES.invalidParams, error.message);
    throw error;
  }
}

export const GOAL_METHODS: Record<string, MethodHandler> = {
  'thread/goal/set': (params: ParamsOf<'thread/goal/set'>, context: ServerContext): ResultOf<'thread/goal/set'> => {
    const goals = context.loaded(params.threadId).goals;
    const change = {
      ...(params.objective !== undefined && params.objective !== null ? { objective: params.objective } : {}),
      ...(params.status !== undefined && params.status !== null ? { status: params.status } : {}),
      ...(params.tokenBudget !== undefined ? { tokenBudget: params.tokenBudget } : {}),
    };
    return { goal: goalToWire(goalCall(() => goals.update(change, origin(params.origin)))) };
  },

  'thread/goal/get': (params: ParamsOf<'thread/goal/get'>, context: ServerContext): ResultOf<'thread/goal/get'> => {
    const goal = context.loaded(params.threadId).goals.current();
    return { goal: goal ? goalToWire(goal) : null };
  },

  'thread/goal/clear': (params: ParamsOf<'thread/goal/clear'>, context: ServerContext): ResultOf<'thread/goal/clear'> => {
    return { cleared: context.loaded(params.threadId).goals.clear(origin(params.origin)) };
  },
};
