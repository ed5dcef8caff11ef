// `rig sessions show ID [--json]`: one thread as its rollout describes it — the listing's fields,
// the name it was given, its turns, and its goal (objective, status, budget and usage).
import { openThreadCatalog, rigHomeFor, threadJson, type ThreadJson } from '../../core/catalog.js';
import { loadRollout } from '../../core/session-resume.js';
import type { ThreadGoal } from '../../protocol/index.js';
import { defaultSessionsIo, type SessionsIo } from './io.js';

export interface ThreadDescription extends ThreadJson {
  name: string | null;
  turns: number;
  goal: ThreadGoal | null;
}

function goalLines(goal: ThreadGoal | null): string[] {
  if (!goal) return ['goal:      none'];
  const budget = goal.token_budget === null ? 'no token budget' : `${goal.tokens_used} of ${goal.token_budget} tokens`;
  const extra = [
    ...(goal.turn_budget !== undefined ? [`${goal.turns_used ?? 0} of ${goal.turn_budget} turns`] : []),
    `${goal.time_used_seconds}${goal.time_budget_seconds !== undefined ? ` of ${goal.time_budget_seconds}` : ''} s`,
  ];
  return [
    `goal:      ${goal.objective}`,
    `  status:  ${goal.status}`,
    `  used:    ${goal.token_budget === null ? `${goal.tokens_used} tokens (${budget})` : budget}, ${extra.join(', ')}`,
    ...(goal.completion_criterion ? [`  met when: ${goal.completion_criterion}`] : []),
  ];
}

export async function runSessionsShow(input: { id: string; json?: boolean }, io: SessionsIo = defaultSessionsIo()): Promise<number> {
  const index = await openThreadCatalog(rigHomeFor(io.env));
  let description: ThreadDescription;
  try {
    let row;
    try {
      row = index.findThread(input.id);
    } catch (error) {
      io.stderr(`rig: ${(error as Error).message}\n`);
      return 1;
    }
    if (!row) {
      io.stderr(`rig: no thread with id ${input.id} under ${index.home}; see \`rig sessions list --all\` (add --archived for archived ones)\n`);
      return 1;
    }
    const rollout = loadRollout(row.rolloutPath, row.id);
    description = { ...threadJson(row), name: rollout.threadName ?? null, turns: rollout.turns, goal: rollout.goal ?? null };
  } finally {
    index.close();
  }
  if (input.json) {
    io.stdout(`${JSON.stringify(description, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `thread:    ${description.id}`,
    `title:     ${description.name ?? description.title}`,
    `cwd:       ${description.cwd}`,
    `model:     ${description.model ?? 'unknown'}${description.harness ? ` (harness ${description.harness})` : ''}`,
    `updated:   ${description.updated_at}${description.archived ? ' (archived)' : ''}`,
    `turns:     ${description.turns}`,
    ...goalLines(description.goal),
    `rollout:   ${description.rollout_path}`,
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}
