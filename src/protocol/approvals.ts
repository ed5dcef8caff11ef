// Approvals are asked as an event and answered as an op (see ops.ts).

export type ApprovalPolicyName = 'untrusted' | 'on-request' | 'on-failure' | 'granular' | 'never';

export interface ExecApprovalRequest {
  kind: 'exec';
  id: string;
  item_id: string;
  command: string[];
  cwd: string;
  reason?: string;
  /** Proposed argv prefix for "approve for the session". */
  proposed_prefix?: string[];
}

export interface FileChangeApprovalRequest {
  kind: 'file_change';
  id: string;
  item_id: string;
  paths: string[];
  reason?: string;
}

export type ApprovalRequest = ExecApprovalRequest | FileChangeApprovalRequest;

/** approve once; approve this exact command prefix for the session; deny (the model is told); deny and stop the turn. */
export type ApprovalDecision = 'approve' | 'approve_for_session' | 'deny' | 'abort';
