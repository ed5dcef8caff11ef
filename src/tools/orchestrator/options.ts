// What the orchestrator needs to decide and run: the thread's safety settings, resolved per
// settings change, and what the thread owns across them (sessions, processes, approvals).
import type { UnifiedExecManager } from '../../exec/unified-exec.js';
import type { ProcessScope } from '../../exec/process-groups.js';
import type { SandboxPolicy, WrapOptions } from '../../exec/sandbox/index.js';
import type { ApprovalCache, ApprovalPolicyConfig, ExecPolicy } from '../../policy/index.js';
import type { ClientFileSystem, ClientTerminals } from '../../protocol/index.js';
import type { ThreadMcp } from '../mcp/session.js';
import type { WebSearchBackend } from '../../web/index.js';

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
  /** The thread's processes: closing or interrupting the thread takes these down, nobody else's. */
  scope: ProcessScope;
  /** Approvals given "for the session". */
  approvalCache: ApprovalCache;
  /** The thread's MCP servers, when any are configured (MCP tool calls go through the pipeline too). */
  mcp?: ThreadMcp;
  platform?: NodeJS.Platform;
  /** The configured web_search backend (`[web_search] provider = ...`), when usable. */
  webSearch?: WebSearchBackend;
  /** For tests: a fixed bubblewrap diagnosis instead of probing. */
  wrapOptions?: WrapOptions;
  /** The client's files, when the front end's client offers them (asked at each change set). */
  clientFiles?: () => ClientFileSystem | undefined;
  /** The client's terminals, when the front end's client offers them (only for unsandboxed threads). */
  clientTerminals?: () => ClientTerminals | undefined;
}
