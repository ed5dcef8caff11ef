// What the orchestrator needs to decide and run: the session's safety settings, resolved once.
import type { UnifiedExecManager } from '../../exec/unified-exec.js';
import type { SandboxPolicy, WrapOptions } from '../../exec/sandbox/index.js';
import type { ApprovalCache, ApprovalPolicyConfig, ExecPolicy } from '../../policy/index.js';

export interface OrchestratorOptions {
  sandbox: SandboxPolicy;
  approvalPolicy: ApprovalPolicyConfig;
  execPolicy: ExecPolicy;
  /** --dangerously-bypass-approvals-and-sandbox: no sandbox, never ask. */
  yolo: boolean;
  /** Environment for model-run commands, after the shell environment policy. */
  commandEnv: Record<string, string>;
  /** The thread's unified-exec sessions. */
  unifiedExec: UnifiedExecManager;
  /** Approvals given "for the session". */
  approvalCache: ApprovalCache;
  platform?: NodeJS.Platform;
  /** For tests: a fixed bubblewrap diagnosis instead of probing. */
  wrapOptions?: WrapOptions;
}
