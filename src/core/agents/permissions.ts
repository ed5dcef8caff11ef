// A child never gets more than its parent: a sandbox, approval policy or set of writable roots
// broader than the parent's is capped to the parent's (with a warning saying so).
import type { SandboxModeName } from '../../protocol/index.js';

const SANDBOX_ORDER: readonly SandboxModeName[] = ['read-only', 'workspace-write', 'danger-full-access'];

export type ChildApprovalPolicy = 'untrusted' | 'on-request' | 'on-failure' | 'never';

/**
 * Broader means fewer questions to a person: `untrusted` asks most, `never` asks nothing. A parent
 * with granular rules counts as on-request (a child may only ask for `untrusted` beyond it).
 */
const APPROVAL_ORDER: readonly string[] = ['untrusted', 'on-request', 'granular', 'on-failure', 'never'];

export interface CappedSafety {
  sandbox: SandboxModeName;
  /** Undefined: the parent's policy (inherited through the same config). */
  approvalPolicy?: ChildApprovalPolicy;
  warnings: string[];
}

export function capChildSafety(
  parent: { sandbox: SandboxModeName; approvalPolicy: string },
  asked: { sandbox?: SandboxModeName; approvalPolicy?: ChildApprovalPolicy },
  who: string,
): CappedSafety {
  const warnings: string[] = [];
  let sandbox = parent.sandbox;
  if (asked.sandbox !== undefined) {
    if (SANDBOX_ORDER.indexOf(asked.sandbox) > SANDBOX_ORDER.indexOf(parent.sandbox)) {
      warnings.push(`${who} asks for sandbox_mode = "${asked.sandbox}", broader than its parent's "${parent.sandbox}"; the child runs with "${parent.sandbox}"`);
    } else {
      sandbox = asked.sandbox;
    }
  }
  let approvalPolicy: ChildApprovalPolicy | undefined = parent.approvalPolicy === 'granular' ? undefined : (parent.approvalPolicy as ChildApprovalPolicy);
  if (asked.approvalPolicy !== undefined) {
    if (APPROVAL_ORDER.indexOf(asked.approvalPolicy) > APPROVAL_ORDER.indexOf(parent.approvalPolicy)) {
      warnings.push(`${who} asks for approval_policy = "${asked.approvalPolicy}", which asks less than its parent's "${parent.approvalPolicy}"; the child runs with "${parent.approvalPolicy}"`);
    } else {
      approvalPolicy = asked.approvalPolicy;
    }
  }
  return { sandbox, ...(approvalPolicy ? { approvalPolicy } : {}), warnings };
}
