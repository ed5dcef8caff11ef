// update_plan: the model's checklist, shown to the user as a todo_list item.
import type { ToolSpec } from '../spec.js';
import { nativeParameters } from './shipped-parameters.js';
import { failure } from '../router.js';

interface UpdatePlanArgs {
  explanation?: string;
  plan: { step: string; status: 'pending' | 'in_progress' | 'completed' }[];
}

export function updatePlanTool(): ToolSpec {
  return {
    name: 'update_plan',
    description: 'Record or update the task plan. Keep steps short; exactly one step may be in_progress at a time.',
    kind: 'function',
    parameters: nativeParameters('update_plan'),
    parallelSafe: true,
    async handle(raw, ctx) {
      const args = raw as UpdatePlanArgs;
      const active = args.plan.filter((entry) => entry.status === 'in_progress').length;
      if (active > 1) return failure(`update_plan: ${active} steps are in_progress; at most one step may be in_progress at a time`);
      ctx.caps.updatePlan(
        args.plan.map((entry) => ({ text: entry.step, completed: entry.status === 'completed' })),
        args.explanation,
      );
      return { output: 'Plan updated', success: true };
    },
  };
}
