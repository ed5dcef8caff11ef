// The approval decision table: given what a command or patch requires and the
// session's settings, what happens next — run (in or out of the sandbox), ask
// the user, or refuse with a message the model can act on.

import {
  approvalPolicyDebugName,
  isGranular,
  isRestrictedSandbox,
  type ApprovalPolicyConfig,
  type SandboxMode,
} from './approval-policy.js';
import type { ExecApprovalRequirement } from './exec-assessment.js';

export type ApprovalAction =
  | { action: 'run-sandboxed'; reason?: string }
  | { action: 'run-unsandboxed'; reason?: string }
  /** Ask the user; on approval run as `thenRun` says. */
  | { action: 'ask'; reason?: string; proposedAmendment?: string[]; thenRun: 'sandboxed' | 'unsandboxed' }
  | { action: 'reject'; reason: string };

export interface ExecDecisionInput {
  requirement: ExecApprovalRequirement;
  policy: ApprovalPolicyConfig;
  sandboxMode: SandboxMode;
  /** The model asked for `sandbox_permissions: "require_escalated"`. */
  escalationRequested?: boolean;
  /** Escalated permissions were already granted earlier in this turn. */
  escalationPreapproved?: boolean;
  /** A platform sandbox (bubblewrap, Seatbelt) can be used. Default true. */
  sandboxAvailable?: boolean;
  /** `--yolo` / `--dangerously-bypass-approvals-and-sandbox`. */
  yolo?: boolean;
  /** The user already approved this command for the session (see ApprovalCache). */
  approvedForSession?: boolean;
}

export const YOLO_REASON = 'approvals and sandbox bypassed (--dangerously-bypass-approvals-and-sandbox)';
export const NO_SANDBOX_REASON = 'no sandbox is available on this machine; run without sandbox?';
export const RETRY_WITHOUT_SANDBOX_REASON = 'command failed; retry without sandbox?';

/** The model-facing refusal when it asks for escalation under a policy other than on-request. */
export function escalationRejectedMessage(policy: ApprovalPolicyConfig): string {
  const name = approvalPolicyDebugName(policy);
  return `approval policy is ${name}; reject command — you cannot ask for escalated permissions if the approval policy is ${name}`;
}

export function decideExecApproval(input: ExecDecisionInput): ApprovalAction {
  const { requirement, policy } = input;
  if (input.yolo) return { action: 'run-unsandboxed', reason: YOLO_REASON };
  if (input.escalationRequested && !input.escalationPreapproved && policy !== 'on-request') {
    return { action: 'reject', reason: escalationRejectedMessage(policy) };
  }
  if (requirement.kind === 'forbidden') return { action: 'reject', reason: requirement.reason };

  const unsandboxed =
    (requirement.kind === 'skip' && requirement.bypassSandbox) || input.escalationRequested === true || !isRestrictedSandbox(input.sandboxMode);
  const thenRun = unsandboxed ? 'unsandboxed' : 'sandboxed';

  if (!unsandboxed && input.sandboxAvailable === false) {
    // Without a sandbox the restricted mode cannot be enforced, so running needs a person's consent.
    if (policy === 'never') return { action: 'reject', reason: `no sandbox is available on this machine, and approval policy never does not allow asking to run without one` };
    if (isGranular(policy) && !policy.granular.sandbox_approval) return { action: 'reject', reason: 'approval policy disallowed sandbox approval prompt' };
    if (input.approvedForSession) return { action: 'run-unsandboxed' };
    return { action: 'ask', reason: requirement.kind === 'needs-approval' && requirement.reason ? requirement.reason : NO_SANDBOX_REASON, thenRun: 'unsandboxed' };
  }

  if (requirement.kind === 'needs-approval' && !input.approvedForSession) {
    const ask: ApprovalAction = { action: 'ask', thenRun };
    if (requirement.reason !== undefined) ask.reason = requirement.reason;
    if (requirement.proposedAmendment !== undefined) ask.proposedAmendment = requirement.proposedAmendment;
    return ask;
  }
  return { action: unsandboxed ? 'run-unsandboxed' : 'run-sandboxed' };
}

export type RetryTool = 'shell' | 'apply_patch';

/** Whether a sandbox denial may lead to asking to rerun without the sandbox (per tool and policy). */
export function wantsNoSandboxApproval(tool: RetryTool, policy: ApprovalPolicyConfig): boolean {
  if (policy === 'never') return false;
  if (isGranular(policy)) return policy.granular.sandbox_approval;
  if (tool === 'apply_patch') return true;
  return policy === 'untrusted';
}

export type RetryAction =
  | { action: 'return-to-model' }
  | { action: 'ask'; reason: string; then: 'rerun-unsandboxed' | 'rerun-with-host-allowed' }
  | { action: 'rerun-unsandboxed' };

export interface RetryInput {
  tool: RetryTool;
  policy: ApprovalPolicyConfig;
  /** The user approved this very call before the first attempt. */
  alreadyApproved: boolean;
  /** Set when the denial was only network access to this host: the sandbox stays, the host is allowed. */
  blockedHost?: string;
}

/** After a sandboxed attempt failed in a way that looks like a sandbox denial (see the exec room's heuristic). */
export function decideRetryWithoutSandbox(input: RetryInput): RetryAction {
  if (!wantsNoSandboxApproval(input.tool, input.policy)) return { action: 'return-to-model' };
  if (input.blockedHost !== undefined) {
    return { action: 'ask', reason: `Network access to "${input.blockedHost}" is blocked by policy.`, then: 'rerun-with-host-allowed' };
  }
  if (input.alreadyApproved) return { action: 'rerun-unsandboxed' };
  return { action: 'ask', reason: RETRY_WITHOUT_SANDBOX_REASON, then: 'rerun-unsandboxed' };
}

export interface PatchDecisionInput {
  policy: ApprovalPolicyConfig;
  sandboxMode: SandboxMode;
  /** Every target (and move destination) is inside a writable root. */
  allPathsWritable: boolean;
  /** The patch changes nothing. */
  empty?: boolean;
  sandboxAvailable?: boolean;
  yolo?: boolean;
  /** Every target path was already approved for the session. */
  approvedForSession?: boolean;
}

/**
 * apply_patch safety (apply-patch.md §7.5). `run-sandboxed` means "apply, checked against the
 * writable roots"; `run-unsandboxed` means "apply without that check" (full access or approved).
 */
export function decidePatchApproval(input: PatchDecisionInput): ApprovalAction {
  const { policy } = input;
  if (input.empty) return { action: 'reject', reason: 'patch rejected: empty patch' };
  if (input.yolo) return { action: 'run-unsandboxed', reason: YOLO_REASON };
  if (input.approvedForSession) return { action: 'run-unsandboxed' };
  if (policy === 'untrusted') return { action: 'ask', thenRun: 'unsandboxed' };
  if (!isRestrictedSandbox(input.sandboxMode)) return { action: 'run-unsandboxed' };
  if (input.allPathsWritable) {
    return input.sandboxAvailable === false ? { action: 'ask', thenRun: 'unsandboxed' } : { action: 'run-sandboxed' };
  }
  if (policy === 'never' || (isGranular(policy) && !policy.granular.sandbox_approval)) {
    const reason =
      input.sandboxMode === 'read-only'
        ? 'writing is blocked by read-only sandbox; rejected by user approval settings'
        : 'writing outside of the project; rejected by user approval settings';
    return { action: 'reject', reason };
  }
  return { action: 'ask', thenRun: 'unsandboxed' };
}
