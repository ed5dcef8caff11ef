// The one flow every action a tool takes on the user's machine goes through, whatever it is:
//
//   policy -> approval -> attempt (in the sandbox unless the policy said otherwise)
//          -> on a sandbox denial, an escalated rerun where the policy permits it (asking first)
//
// Hooks take part at the approval step: PermissionRequest hooks answer before a person is asked,
// and a PreToolUse hook's permissionDecision allows without asking (never past a rejection) or
// forces the question (services.callGate).
//
// A runtime (a command, a file change set, a network request, an MCP tool call) says how each
// step applies to it: what the policy decides, what a person is shown, how an attempt runs and
// how a sandbox denial looks. Nothing is ever escalated silently, and an action meant for the
// sandbox never runs without it by accident.
import type { ApprovalAnswer, ApprovalRequest } from '../../protocol/index.js';
import {
  approvalPolicyName,
  decideRetryWithoutSandbox,
  type ApprovalAction,
  type ApprovalPolicyConfig,
  type RetryTool,
} from '../../policy/index.js';
import type { TurnServices } from '../spec.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type ApprovalQuestion = DistributiveOmit<ApprovalRequest, 'id'>;

export interface Attempt {
  sandboxed: boolean;
  /** This attempt reruns, outside the sandbox, what the sandbox blocked. */
  retry: boolean;
}

export interface AskContext {
  /** Whether approving runs the action inside the sandbox. */
  sandboxed: boolean;
  retry: boolean;
  reason?: string;
  proposedPrefix?: string[];
  /** With `retry`: what the sandbox blocked, as the runtime reads it from the attempt. */
  denial?: string;
}

export interface Runtime<Outcome> {
  /** Which retry rules of the policy apply (commands and patches differ). */
  readonly retryTool: RetryTool;
  /** Step 1: what the policy says (exec-policy rules, approval policy, sandbox mode). */
  decide(): Promise<ApprovalAction>;
  /** The question a person is asked; built only when someone will be asked. */
  question(context: AskContext): Promise<ApprovalQuestion>;
  /** "Approve for the session": remember this action so the policy skips asking next time. */
  rememberApproval(): void;
  /**
   * "Approve and don't ask again": remember it beyond the session (MCP tools: config.toml).
   * Runtimes without it treat the answer as approve-for-session.
   */
  rememberAlways?(): Promise<void>;
  run(attempt: Attempt): Promise<Outcome>;
  /** Whether a sandboxed attempt failed because the sandbox blocked it. */
  deniedBySandbox(outcome: Outcome): boolean;
  /** What the sandbox blocked in a denied attempt, in a line a person can judge (for the retry question). */
  denial(outcome: Outcome): string | undefined;
  /** The outcome of an action that does not run, with the message the model and the user see. */
  declined(message: string): Outcome;
  /** The message of a plain "no" from a person (Codex's wording for the kind of action). */
  readonly declinedByUser: string;
  /** `outcome` with a note for the model after what it already says. */
  withNote(outcome: Outcome, note: string): Outcome;
  /** How the action is named in messages ("the command `rm -rf build`"). */
  describe(): string;
}

export interface PipelineOptions {
  approvalPolicy: ApprovalPolicyConfig;
  /** Phrases the user can act on, per runtime kind, for a refusal nobody could overrule. */
  howToAllow: string;
}

/**
 * What the model is told when a person declined and said what to do instead: their words, marked
 * as theirs, so the model follows them rather than retrying the refused action.
 */
export function declinedWithFeedback(what: string, feedback: string): string {
  const text = feedback.trim();
  if (text === '') return `The user declined ${what}.`;
  return `The user declined ${what} and said what to do instead:\n${text}`;
}

/**
 * The refusal when the policy wanted a person to decide and the session has nobody to ask (`rig
 * exec`, a headless client): it names the policy that wanted the question and how to allow it.
 */
export function noApproverMessage(subject: string, policy: ApprovalPolicyConfig, howToAllow: string, reason?: string): string {
  const why = reason ? ` (${reason})` : '';
  return (
    `declined without asking: approval policy ${approvalPolicyName(policy)} requires approval for ${subject}${why}, ` +
    `and this session has no one to ask. ${howToAllow}`
  );
}

type Answer = { approved: true; forSession: boolean; always?: boolean } | { approved: false; stop: boolean; feedback?: string; hookDenial?: string };

function interpret(answer: ApprovalAnswer): Answer {
  switch (answer.decision) {
    case 'approve':
      return { approved: true, forSession: false };
    case 'approve_for_session':
      return { approved: true, forSession: true };
    case 'approve_always':
      return { approved: true, forSession: true, always: true };
    case 'deny':
      return { approved: false, stop: false, ...(answer.feedback?.trim() ? { feedback: answer.feedback.trim() } : {}) };
    case 'abort':
      return { approved: false, stop: true };
  }
}

export async function orchestrate<Outcome>(runtime: Runtime<Outcome>, services: TurnServices, options: PipelineOptions): Promise<Outcome> {
  const gate = services.callGate;
  const ask = async (context: AskContext): Promise<Answer | { noApprover: string }> => {
    // Hooks answer first (PermissionRequest, then PreToolUse's allow): a person is asked only when they did not.
    if (gate?.permissionRequest) {
      const verdict = await gate.permissionRequest(await runtime.question(context));
      if (verdict?.behavior === 'allow') return { approved: true, forSession: false };
      if (verdict?.behavior === 'deny') return { approved: false, stop: false, hookDenial: verdict.message };
    }
    if (gate?.permissionDecision === 'allow') return { approved: true, forSession: false };
    if (!services.canAskApproval) {
      return { noApprover: noApproverMessage(runtime.describe(), options.approvalPolicy, options.howToAllow, context.reason) };
    }
    const answer = interpret(await services.askApproval(await runtime.question(context)));
    if (answer.approved && answer.always && runtime.rememberAlways) await runtime.rememberAlways();
    else if (answer.approved && answer.forSession) runtime.rememberApproval();
    return answer;
  };

  let action = await runtime.decide();
  // A PreToolUse hook's "ask" puts the question to a person even where the policy would not.
  if (gate?.permissionDecision === 'ask' && (action.action === 'run-sandboxed' || action.action === 'run-unsandboxed')) {
    action = { action: 'ask', thenRun: action.action === 'run-sandboxed' ? 'sandboxed' : 'unsandboxed', reason: 'a PreToolUse hook asked for approval' };
  }
  let attempt: Attempt;
  let approvedByUser = false;
  switch (action.action) {
    case 'reject':
      return runtime.declined(action.reason);
    case 'run-sandboxed':
      attempt = { sandboxed: true, retry: false };
      break;
    case 'run-unsandboxed':
      attempt = { sandboxed: false, retry: false };
      break;
    case 'ask': {
      const sandboxed = action.thenRun === 'sandboxed';
      const answer = await ask({
        sandboxed,
        retry: false,
        ...(action.reason ? { reason: action.reason } : {}),
        ...(action.proposedAmendment ? { proposedPrefix: action.proposedAmendment } : {}),
      });
      if ('noApprover' in answer) return runtime.declined(answer.noApprover);
      if (!answer.approved && answer.hookDenial !== undefined) return runtime.declined(answer.hookDenial);
      if (!answer.approved) return runtime.declined(answer.feedback ? declinedWithFeedback(runtime.describe(), answer.feedback) : runtime.declinedByUser);
      approvedByUser = true;
      attempt = { sandboxed, retry: false };
      break;
    }
  }

  const outcome = await runtime.run(attempt);
  if (!attempt.sandboxed || services.signal.aborted || !runtime.deniedBySandbox(outcome)) return outcome;

  const retry = decideRetryWithoutSandbox({ tool: runtime.retryTool, policy: options.approvalPolicy, alreadyApproved: approvedByUser });
  if (retry.action === 'return-to-model') return outcome;
  if (retry.action === 'ask') {
    const denial = runtime.denial(outcome);
    const answer = await ask({ sandboxed: false, retry: true, reason: retry.reason, ...(denial ? { denial } : {}) });
    // The sandboxed attempt's result stands: the model sees what the sandbox blocked (and what the
    // person said to do instead).
    if ('noApprover' in answer) return outcome;
    if (!answer.approved && answer.hookDenial !== undefined) return runtime.withNote(outcome, answer.hookDenial);
    if (!answer.approved) return answer.feedback ? runtime.withNote(outcome, declinedWithFeedback(`running ${runtime.describe()} again without the sandbox`, answer.feedback)) : outcome;
  }
  return runtime.run({ sandboxed: false, retry: true });
}
