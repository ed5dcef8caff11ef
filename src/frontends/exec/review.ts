// `rig review`: one read-only review turn, non-interactively. Progress goes to stderr as in
// `rig exec`; the findings list goes to stdout. With --json, stdout carries `rig exec --json`'s
// event stream and then one `review.completed` line with the findings (or `review.failed` with the
// reviewer's raw answer). Exit 0 when the review ran and gave findings (any number of them), 1 when
// it could not run or its answer was not a review, 130 when interrupted.
import { Engine, type ThreadStartRequest } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { rigVersion } from '../../core/version.js';
import { formatReview, NothingToReview, startReview, type ReviewOutcome, type ReviewTarget } from '../../core/review/index.js';
import type { ThreadEvent } from '../../protocol/index.js';
import { createHumanRenderer, renderHeader } from './human.js';
import { createJsonlRenderer } from './jsonl.js';

export interface ReviewCommandInput {
  target: ReviewTarget;
  thread: ThreadStartRequest;
  json: boolean;
  color: 'always' | 'never' | 'auto';
}

const EXIT_INTERRUPTED = 130;

/** An agent message is the reviewer's JSON answer: the human output shows the list made of it instead. */
function isAgentMessage(event: ThreadEvent): boolean {
  return event.type === 'item.agent_message.delta' || ('item' in event && event.item.type === 'agent_message');
}

export async function runReviewCommand(input: ReviewCommandInput): Promise<number> {
  const { json } = input;
  let redact: { out: (text: string) => string; err: (text: string) => string } = { out: (t) => t, err: (t) => t };
  const stdout = (text: string) => process.stdout.write(redact.out(text));
  const stderr = (text: string) => process.stderr.write(redact.err(text));
  const fail = (message: string, extra: Record<string, unknown> = {}): number => {
    if (json) stdout(`${JSON.stringify({ type: 'review.failed', error: message, ...extra })}\n`);
    stderr(`rig review: ${message}\n`);
    return 1;
  };
  const color = input.color === 'always' || (input.color !== 'never' && Boolean(process.stderr.isTTY) && !process.env['NO_COLOR']);

  const engine = new Engine({ env: process.env, source: 'exec' });
  const held: ThreadEvent[] = [];
  let render: ((event: ThreadEvent) => void) | undefined;
  let rootId: string | undefined;
  engine.subscribe((envelope) => {
    if (rootId !== undefined && envelope.thread_id !== rootId) return;
    if (render) render(envelope.event);
    else held.push(envelope.event);
  });

  let thread: ThreadHandle;
  try {
    thread = await engine.startThread({ ...input.thread, overrides: { ...input.thread.overrides, planMode: true } });
  } catch (error) {
    await engine.close();
    return fail(error instanceof Error ? error.message : String(error));
  }
  rootId = thread.id;
  const { redactor } = thread;
  redact = { out: json ? (t) => redactor.redactJson(t) : (t) => redactor.redactText(t), err: (t) => redactor.redactText(t) };
  if (json) {
    render = createJsonlRenderer(stdout);
  } else {
    const human = createHumanRenderer({ stdout, stderr, color, agentMessages: 'stderr', cwd: thread.settings.cwd, showTokens: true });
    render = (event) => {
      if (!isAgentMessage(event)) human(event);
    };
    const s = thread.settings;
    stderr(
      renderHeader(
        { version: rigVersion(), workdir: s.cwd, model: s.model, provider: thread.info.provider, harness: s.harness, sandbox: s.sandbox_mode, approvals: s.approval_policy, sessionId: thread.id, ...(s.reasoning_effort ? { reasoningEffort: s.reasoning_effort } : {}) },
        color,
      ),
    );
  }
  for (const event of held.splice(0)) render(event);

  let interrupted = false;
  const onSignal = () => {
    if (interrupted) process.exit(EXIT_INTERRUPTED);
    interrupted = true;
    void thread.interrupt();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const cwd = thread.settings.cwd;
  let verdict: () => number;
  try {
    const review = await startReview(thread, input.target);
    if (!json) stderr(`reviewing ${review.hint}\n`);
    const outcome = await review.done;
    verdict = () => report(outcome, review.hint);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Nothing changed is an answer, not a failure: the review ran and found nothing to look at.
    if (error instanceof NothingToReview) {
      verdict = () => {
        if (json) stdout(`${JSON.stringify({ type: 'review.completed', review: { target: input.target, findings: [], overall_correctness: '', overall_explanation: message } })}\n`);
        else stdout(`${message}\n`);
        return 0;
      };
    } else verdict = () => fail(message);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await engine.close();
  }
  return verdict();

  function report(outcome: ReviewOutcome, hint: string): number {
    if (outcome.status !== 'completed') {
      if (outcome.status === 'failed' && !interrupted) return fail(outcome.error);
      if (!json) stderr('rig review: interrupted\n');
      return EXIT_INTERRUPTED;
    }
    const parsed = outcome.review;
    if (!parsed.ok) {
      if (!json) stderr(`the reviewer's answer, as it came:\n${parsed.raw}\n`);
      return fail(`${parsed.error} (its answer is kept above${json ? ' in "raw"' : ''}; rerun the review, or try another model)`, { raw: parsed.raw });
    }
    if (json) stdout(`${JSON.stringify({ type: 'review.completed', review: { target: input.target, hint, ...parsed.output } })}\n`);
    else stdout(`${formatReview(parsed.output, cwd, hint).join('\n')}\n`);
    return 0;
  }
}
