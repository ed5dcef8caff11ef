// Operations a front end sends to a thread.
import type { ApprovalDecision } from './approvals.js';

export interface UserInput {
  text: string;
  /** Local image paths attached to this input. */
  images?: string[];
}

export type ThreadOp =
  | { type: 'user_input'; input: UserInput }
  | { type: 'steer'; input: UserInput }
  | { type: 'interrupt' }
  | { type: 'approval'; request_id: string; decision: ApprovalDecision }
  | { type: 'compact' };
