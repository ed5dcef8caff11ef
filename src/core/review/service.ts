// A review turn on a thread: rig gathers the target's changes, switches the thread to its
// read-only mode for the turn (read-only sandbox, no edit tools, nothing escalates: the engine
// enforces it as it does plan mode), sends its review prompt with the diff, and parses the final
// message as findings. Every front end (rig review, /review, review/start) runs reviews through here.
import type { ThreadHandle } from '../thread-handle.js';
import type { TurnResult } from '../thread-types.js';
import { parseReviewAnswer, type ParsedReview } from './findings.js';
import { reviewContextText, reviewRequestText } from './prompt.js';
import { gatherChanges, reviewHint, targetProblem, type GatheredChanges, type ReviewTarget } from './target.js';

export type ReviewOutcome =
  | { status: 'completed'; review: ParsedReview; turn: TurnResult }
  | { status: 'failed' | 'interrupted'; error: string; turn: TurnResult };

export interface ReviewCallbacks {
  /** The turn's body begins (after turn.started): review mode is entered. */
  entered?(turnId: string, hint: string): void;
  /** Before the turn's terminal event: review mode is left with this outcome. */
  exited?(turnId: string, hint: string, outcome: ReviewOutcome): void;
}

export interface StartedReview {
  turnId: string;
  hint: string;
  changes: GatheredChanges;
  done: Promise<ReviewOutcome>;
}


function outcomeOf(result: TurnResult, cwd: string): ReviewOutcome {
  if (result.status === 'completed') return { status: 'completed', review: parseReviewAnswer(result.lastAgentMessage, cwd), turn: result };
  return { status: result.status, error: result.error ?? (result.status === 'interrupted' ? 'the review was interrupted' : 'the review turn failed'), turn: result };
}


/**
 * Gather the target's changes (throws when that is impossible: not a repository, unknown branch or
 * commit, nothing changed) and start the review turn. A thread not in a read-only mode is put in
 * one for this turn and put back afterwards.
 */
export async function startReview(handle: ThreadHandle, target: ReviewTarget, callbacks: ReviewCallbacks = {}): Promise<StartedReview> {
  const problem = targetProblem(target);
  if (problem) throw new Error(problem);
  if (handle.isRunning) throw new Error(`thread ${handle.id} is running ${handle.currentTurnId}: wait for it, or interrupt it, before starting a review`);
  const cwd = handle.settings.cwd;
  const changes = await gatherChanges(cwd, target);
  if (target.type !== 'custom' && changes.diff.trim() === '') throw new NothingToReview(target);
  const hint = reviewHint(target.type === 'commit' && !target.title && changes.commitTitle ? { ...target, title: changes.commitTitle } : target);
  const switched = handle.settings.plan_mode !== true;
  if (switched) await handle.updateSettings({ plan_mode: true });
  let outcome: ReviewOutcome | undefined;
  let started;
  try {
    started = handle.startTurn(
      { text: reviewRequestText(target, hint) },
      {
        context: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: reviewContextText(target, changes, cwd) }] }],
        frame: {
          started: (turnId) => callbacks.entered?.(turnId, hint),
          finished: (turnId, result) => {
            outcome = outcomeOf(result, cwd);
            callbacks.exited?.(turnId, hint, outcome);
          },
        },
      },
    );
  } catch (error) {
    if (switched) await handle.updateSettings({ plan_mode: false });
    throw error;
  }
  const done = started.done.then(async (result) => {
    if (switched && !handle.closed) await handle.updateSettings({ plan_mode: false });
    return outcome ?? outcomeOf(result, cwd);
  });
  return { turnId: started.turnId, hint, changes, done };
}

/** The target has no changes: there is nothing for a reviewer to look at. */
export class NothingToReview extends Error {
  constructor(readonly target: ReviewTarget) {
    super(
      target.type === 'uncommittedChanges'
        ? 'nothing to review: the working tree has no uncommitted changes'
        : target.type === 'baseBranch'
          ? `nothing to review: no changes against ${target.branch}`
          : `nothing to review: commit ${target.type === 'commit' ? target.sha : ''} changes no file`,
    );
  }
}
