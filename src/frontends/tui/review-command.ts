// /review in the interactive session: a read-only review turn on the open thread (core/review),
// its progress in the transcript as any turn's, then the findings as a list. The thread gets its
// edit tools back for the next turn.
import { formatReview, startReview, type ReviewTarget } from '../../core/review/index.js';
import type { EnginePort } from './engine-port.js';
import type { CommandResult } from './session-port.js';

/** `/review` arguments as a target, or what is wrong with them. */
export function reviewTargetFromArgs(args: string): ReviewTarget | string {
  const words = args.split(/\s+/).filter(Boolean);
  if (words.length === 0 || (words.length === 1 && words[0] === '--uncommitted')) return { type: 'uncommittedChanges' };
  if (words[0] === '--base' || words[0] === '--commit') {
    if (words.length !== 2) return `/review ${words[0]} takes one ${words[0] === '--base' ? 'branch' : 'commit'}; got "${args}"`;
    return words[0] === '--base' ? { type: 'baseBranch', branch: words[1]! } : { type: 'commit', sha: words[1]! };
  }
  return { type: 'custom', instructions: args };
}

export async function runReviewCommand(port: EnginePort, args: string): Promise<CommandResult> {
  const handle = port.handle;
  if (handle.isRunning) return { error: 'a turn is running: wait for it (or press Esc) before /review' };
  const target = reviewTargetFromArgs(args);
  if (typeof target === 'string') return { error: target };
  let review;
  try {
    review = await startReview(handle, target);
  } catch (error) {
    return { error: `/review: ${error instanceof Error ? error.message : String(error)}` };
  }
  const outcome = await review.done;
  if (outcome.status !== 'completed') return { error: `/review of ${review.hint}: ${outcome.error}` };
  if (!outcome.review.ok) return { error: `/review of ${review.hint}: ${outcome.review.error}; its answer is above in the transcript` };
  return { text: formatReview(outcome.review.output, handle.settings.cwd, review.hint).join('\n') };
}
