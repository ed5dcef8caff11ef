// The settings a thread runs with, as front ends see and change them. They come from config, the
// overrides given when the thread was started or resumed, and later updateSettings calls.
import type { ApprovalPolicyName } from './approvals.js';

export type SandboxModeName = 'read-only' | 'workspace-write' | 'danger-full-access';

export interface ThreadSettingsView {
  cwd: string;
  model: string;
  model_provider: string;
  /** The harness profile the model sees. */
  harness: string;
  approval_policy: ApprovalPolicyName;
  sandbox_mode: SandboxModeName;
  /** As the provider spells it (minimal, low, medium, high, xhigh, ...). */
  reasoning_effort?: string;
  /** --dangerously-bypass-approvals-and-sandbox: no sandbox, nothing asked. */
  yolo: boolean;
  /** Plan mode (`--plan`, /plan): read-only, only read, search and plan tools. */
  plan_mode?: boolean;
  /** The model's context window in tokens (config's model_context_window, else rig's model table). */
  context_window?: number;
}

/** What updateSettings may change; each applies from the next turn. */
export interface SettingsUpdate {
  model?: string;
  reasoning_effort?: string;
  approval_policy?: 'untrusted' | 'on-request' | 'on-failure' | 'never';
  sandbox_mode?: SandboxModeName;
  harness?: string;
  /** Enter (true) or leave (false) plan mode. */
  plan_mode?: boolean;
}
