// Approvals are asked as an event and answered through the engine (ThreadHandle.answerApproval).
// Each request is typed by the runtime that wants to act and carries what a person needs to decide.
import type { McpElicitationApprovalRequest, McpToolCallApprovalRequest } from './mcp.js';
import type { UserInputApprovalRequest } from './user-input.js';

export type ApprovalPolicyName = 'untrusted' | 'on-request' | 'on-failure' | 'granular' | 'never';

/** A command (any harness's shell tool). */
export interface ExecApprovalRequest {
  kind: 'exec';
  id: string;
  /** The command_execution item this request belongs to. */
  item_id: string;
  /** The argv that would run (a shell script arrives as [shell, -lc, script]). */
  command: string[];
  /** `command` shell-quoted, ready to show or paste. */
  command_text: string;
  cwd: string;
  /** Whether approving runs it inside the sandbox (false: with the user's full access). */
  sandboxed: boolean;
  /** This asks to rerun, outside the sandbox, a command the sandbox just blocked. */
  retry_without_sandbox: boolean;
  /** With retry_without_sandbox: what the sandbox blocked, from the sandboxed attempt's output. */
  sandbox_denial?: string;
  reason?: string;
  /** Proposed argv prefix for "approve for the session". */
  proposed_prefix?: string[];
  /** Set when a sub-agent asks: its task path (e.g. /root/implement_fix) and thread. */
  agent_path?: string;
  agent_thread_id?: string;
}

export interface FileChangeApprovalEntry {
  path: string;
  kind: 'add' | 'delete' | 'update';
  /** Destination of a rename. */
  move_to?: string;
  /** Unified diff of this file's change (empty for a pure rename or delete of an empty file). */
  diff: string;
}

/** A change set (apply_patch and every harness's edit/write tools). */
export interface FileChangeApprovalRequest {
  kind: 'file_change';
  id: string;
  item_id: string;
  /** Every path touched, rename destinations included. */
  paths: string[];
  changes: FileChangeApprovalEntry[];
  /** Whether approving still checks the paths against the sandbox's writable roots. */
  sandboxed: boolean;
  reason?: string;
  /** Set when a sub-agent asks: its task path (e.g. /root/implement_fix) and thread. */
  agent_path?: string;
  agent_thread_id?: string;
}

/** A network request rig makes itself (web_fetch, a web_search backend): one host at a time. */
export interface NetworkApprovalRequest {
  kind: 'network';
  id: string;
  /** The tool call's item, when it has one. */
  item_id?: string;
  url: string;
  host: string;
  /** fetch: the first request of a fetch; redirect: a hop the server sent it on to; search: a query to the search backend. */
  purpose: 'fetch' | 'redirect' | 'search';
  /** For a redirect: the URL that redirected. */
  from?: string;
  /** False when approving goes past the sandbox's network setting (network access is off). */
  sandboxed: boolean;
  reason?: string;
  /** Set when a sub-agent asks: its task path (e.g. /root/implement_fix) and thread. */
  agent_path?: string;
  agent_thread_id?: string;
}

export type ApprovalRequest =
  | ExecApprovalRequest
  | FileChangeApprovalRequest
  | NetworkApprovalRequest
  | McpToolCallApprovalRequest
  | McpElicitationApprovalRequest
  | UserInputApprovalRequest;

/**
 * approve once; approve this exact command prefix (or tool) for the session; approve and do not ask
 * again (MCP tools: persisted in config.toml; elsewhere the same as approve_for_session); deny (the
 * model is told); deny and stop the turn.
 */
export type ApprovalDecision = 'approve' | 'approve_for_session' | 'approve_always' | 'deny' | 'abort';

/** A person's answer to an approval request. */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  /**
   * With `deny`: what the person wants the agent to do instead. The model gets it with the refusal,
   * marked as the user's words, so it follows them rather than trying the refused action again.
   */
  feedback?: string;
  /** With `approve` of an mcp_elicitation: the answers to the server's form; of a user_input: UserInputAnswers. */
  content?: Record<string, unknown>;
}
