// Turning an approval question into the outcome the orchestrator acts on.
import type { ApprovalDecision } from '../../protocol/index.js';

export type AskOutcome = { approved: true; forSession: boolean } | { approved: false; stop: boolean };

export function interpretDecision(decision: ApprovalDecision): AskOutcome {
  switch (decision) {
    case 'approve':
      return { approved: true, forSession: false };
    case 'approve_for_session':
      return { approved: true, forSession: true };
    case 'deny':
      return { approved: false, stop: false };
    case 'abort':
      return { approved: false, stop: true };
  }
}
