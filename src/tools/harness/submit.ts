// swe.submit: SWE-agent's `submit` with review on submit (its default configuration; the bundle
// SWE-agent/SWE-agent tools/review_on_submit_m @ 3ea751c). The first call shows the diff and asks
// for a review; the next one prints the patch between <<SWE_AGENT_SUBMISSION>> lines, which ends
// the task. The diff is read without touching the user's index (the original runs `git add -A`),
// through the orchestrator like every command.
import {
  SWE_AGENT_SUBMISSION_MARKER,
  sweAgentReviewMessage,
} from '../../harness/text-actions/swe-agent.js';
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolContext, ToolSpec } from '../spec.js';
import { fail, functionSpec, ok } from './common.js';

const STAGE_KEY = 'harness.submitStage';
const NOT_A_REPOSITORY = '__RIG_NOT_A_GIT_REPOSITORY__';

/**
 * Prints the changes against HEAD (or against nothing before the first commit), new untracked
 * files included, from the repository root. Reads only.
 */
export const DIFF_SCRIPT = [
  `git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo ${NOT_A_REPOSITORY}; exit 0; }`,
  'cd "$(git rev-parse --show-toplevel)" || exit 1',
  'if git rev-parse --verify -q HEAD >/dev/null; then git diff --no-color HEAD --; else git diff --no-color --cached --; git diff --no-color --; fi',
  // Only regular files: the sandbox shows its own masks (.rig, .codex) as special files.
  "git ls-files --others --exclude-standard -z | while IFS= read -r -d '' file; do [ -f \"$file\" ] && [ ! -L \"$file\" ] || continue; git diff --no-color --no-index -- /dev/null \"$file\"; done",
  'exit 0',
].join('\n');

async function currentDiff(ctx: ToolContext): Promise<string> {
  const outcome = await ctx.caps.exec({ command: DIFF_SCRIPT, argv: ['bash', '-c', DIFF_SCRIPT], cwd: ctx.cwd, timeoutMs: 30_000, displayCommand: 'submit' });
  if (outcome.declined) throw new Error(outcome.declined);
  if (outcome.exitCode !== 0) throw new Error(`reading the diff failed (exit ${outcome.exitCode ?? 'none'}):\n${outcome.output}`);
  if (outcome.output.startsWith(NOT_A_REPOSITORY)) return '(the working directory is not in a git repository, so there is no diff to show)';
  return outcome.output.replace(/\n$/, '');
}

export function createSubmitTool(tool: ResolvedTool): ToolSpec {
  const reviews = tool.options['review'] === false ? 0 : 1;
  return functionSpec(
    tool,
    { description: 'Submit the changes.', parameters: { type: 'object' }, parallelSafe: false, runsCommands: true },
    async (_args, ctx) => {
      let diff: string;
      try {
        diff = await currentDiff(ctx);
      } catch (error) {
        return fail(`submit failed: ${(error as Error).message}`);
      }
      const stage = (ctx.threadState.get(STAGE_KEY) as number | undefined) ?? 0;
      if (stage < reviews) {
        ctx.threadState.set(STAGE_KEY, stage + 1);
        return ok(sweAgentReviewMessage(diff));
      }
      return ok(`${SWE_AGENT_SUBMISSION_MARKER}\n${diff}\n${SWE_AGENT_SUBMISSION_MARKER}`);
    },
  );
}
