// review/start: a read-only review turn (core/review) on the thread, or on a new thread in the same
// directory for `delivery: "detached"`. The result comes at once, as Codex sends it ({turn,
// reviewThreadId}); the turn is framed by an enteredReviewMode item after turn/started and an
// exitedReviewMode item before turn/completed, which carries the review text and, as rig's
// addition, the structured findings (`reviewOutput`) or why the answer was not a review.
import { formatReview, startReview, type ReviewOutcome, type ReviewTarget } from '../../core/review/index.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { ERROR_CODES, type ParamsOf, type ResultOf } from '../../protocol/app-server/index.js';
import { RpcError } from './connection.js';
import type { MethodHandler, ServerContext } from './server.js';
import { liveTurn } from './thread-view.js';
import { clientError } from './thread-methods.js';

function reviewTarget(target: ParamsOf<'review/start'>['target']): ReviewTarget {
  switch (target.type) {
    case 'uncommittedChanges':
      return { type: 'uncommittedChanges' };
    case 'baseBranch':
      return { type: 'baseBranch', branch: target.branch };
    case 'commit':
      return { type: 'commit', sha: target.sha, ...(target.title ? { title: target.title } : {}) };
    case 'custom':
      return { type: 'custom', instructions: target.instructions };
  }
}

/** The exitedReviewMode item's fields for an outcome. */
function exitedFields(outcome: ReviewOutcome, cwd: string, hint: string) {
  if (outcome.status !== 'completed') return { review: `review ${outcome.status === 'interrupted' ? 'interrupted' : 'failed'}: ${outcome.error}`, reviewOutput: null, reviewError: { message: outcome.error, raw: '' } };
  const parsed = outcome.review;
  if (!parsed.ok) return { review: `${parsed.error}\n\n${parsed.raw}`, reviewOutput: null, reviewError: { message: parsed.error, raw: parsed.raw } };
  return { review: formatReview(parsed.output, cwd, hint).join('\n'), reviewOutput: JSON.parse(JSON.stringify(parsed.output)) as Record<string, never>, reviewError: null };
}

async function detachedThread(source: ThreadHandle, context: ServerContext): Promise<ThreadHandle> {
  const s = source.settings;
  const handle = await context.engine.startThread({
    cwd: s.cwd,
    ...(context.config.length ? { config: [...context.config] } : {}),
    overrides: { model: s.model, provider: s.model_provider, harness: s.harness },
    canAskApproval: true,
    originator: 'rig_app_server',
  });
  context.noteLoaded(handle, '');
  return handle;
}

export const REVIEW_METHODS: Record<string, MethodHandler> = {
  'review/start': async (params: ParamsOf<'review/start'>, context): Promise<ResultOf<'review/start'>> => {
    const source = context.loaded(params.threadId);
    if (source.isRunning) {
      throw new RpcError(ERROR_CODES.invalidRequest, `thread ${source.id} is running ${source.currentTurnId}; wait for it or stop it with turn/interrupt before review/start`);
    }
    const handle = params.delivery === 'detached' ? await detachedThread(source, context).catch((error: unknown) => Promise.reject(clientError(error))) : source;
    const cwd = handle.settings.cwd;
    const stamp = (turnId: string, kind: 'entered' | 'exited') => `review_${kind}_${turnId}`;
    let started;
    try {
      started = await startReview(handle, reviewTarget(params.target), {
        entered: (turnId, hint) => {
          context.notify('item/started', { item: { type: 'enteredReviewMode', id: stamp(turnId, 'entered'), review: hint }, threadId: handle.id, turnId, startedAtMs: Date.now() });
          context.notify('item/completed', { item: { type: 'enteredReviewMode', id: stamp(turnId, 'entered'), review: hint }, threadId: handle.id, turnId, completedAtMs: Date.now() });
        },
        exited: (turnId, hint, outcome) => {
          const item = { type: 'exitedReviewMode' as const, id: stamp(turnId, 'exited'), ...exitedFields(outcome, cwd, hint) };
          context.notify('item/started', { item, threadId: handle.id, turnId, startedAtMs: Date.now() });
          context.notify('item/completed', { item, threadId: handle.id, turnId, completedAtMs: Date.now() });
        },
      });
    } catch (error) {
      // A detached thread made for a review that could not start is not left loaded.
      if (handle !== source) await handle.close();
      throw new RpcError(ERROR_CODES.invalidParams, `review/start: ${error instanceof Error ? error.message : String(error)}`);
    }
    context.noteLoaded(handle, `review: ${started.hint}`);
    return { turn: liveTurn(started.turnId, 'inProgress', { startedAtMs: Date.now() }), reviewThreadId: handle.id };
  },
};
