// What the engine's callers give and get: how a thread is started, resumed or forked, what reading
// a stored thread returns, and the engine's own options. Kept apart so that the parts of thread
// start-up that live in their own files can name these types without importing the engine.
import type { ConversationItem } from '../protocol/index.js';
import type { ModelClient } from '../model/types.js';
import type { ProviderInfo } from '../model/index.js';
import type { ThreadRow } from '../store/index.js';
import type { ThreadOverrides, ThreadSettings } from './thread-settings.js';
import type { SessionMcpServer } from './session-mcp.js';
import type { AgentLink } from './agents/tree.js';
import type { HistoryTurn } from './history-view.js';

export interface EngineOptions {
  /** rig's environment: config paths, provider keys, the base of every command's environment. */
  env?: NodeJS.ProcessEnv;
  /** RIG_HOME; default: $RIG_HOME, else ~/.rig. */
  home?: string;
  /** What the rollouts record as the thread's source: exec, cli, app-server, acp, ... */
  source?: string;
  /**
   * Tests and tools: the model client for a thread instead of the provider's (no network). Called
   * once per provider per thread build.
   */
  modelClient?: (provider: ProviderInfo, settings: ThreadSettings) => ModelClient | Promise<ModelClient>;
}

/** How a thread is started (resume and fork take the same fields; overrides beat what was recorded). */
export interface ThreadStartRequest {
  /** The directory relative paths are resolved against (a CLI's process cwd). */
  cwd: string;
  /** -C: the thread's working directory, relative to `cwd`. */
  cd?: string;
  /** --profile NAME */
  profile?: string;
  /** `-c key=value` overrides, in order. */
  config?: string[];
  ignoreUserConfig?: boolean;
  strictConfig?: boolean;
  /** Extra writable roots (relative to `cwd`). */
  addDirs?: string[];
  overrides?: ThreadOverrides;
  /** Write no rollout. */
  ephemeral?: boolean;
  /** Skip exec-policy .rules files. */
  ignoreRules?: boolean;
  /** Refuse outside a git repository or trusted project (`rig exec` without --skip-git-repo-check). */
  requireTrustedDirectory?: boolean;
  /**
   * False when nobody answers approval requests (`rig exec`, a headless client): what would need a
   * person is declined with a message naming the policy. Default true.
   */
  canAskApproval?: boolean;
  /**
   * Why this front end cannot host scheduled prompts (`rig exec` ends with its turn; an ACP or MCP
   * client starts every turn itself): the timer tools are then left out of the request with it.
   */
  noTimers?: string;
  /** Recorded as the rollout's originator. */
  originator?: string;
  /**
   * MCP servers the front end's client brings for this thread (ACP's `mcpServers`), started with
   * the configured ones; one named like a configured server replaces it for this thread.
   */
  mcpServers?: readonly SessionMcpServer[];
  /** Set for a sub-agent: its parent thread, task path and role (the agents service starts these). */
  agent?: AgentLink;
  /**
   * A new thread's opening history copied from another thread (a sub-agent's `fork_turns: N`),
   * written as the rollout's first record after its meta line; the source's rollout is untouched.
   */
  seed?: ThreadSeed;
}

export interface ThreadSeed {
  items: ConversationItem[];
  forkedFrom: string;
  /** Says what was copied, recorded with the items. */
  note: string;
}

export interface ForkRequest extends ThreadStartRequest {
  /** Keep the source's history through this turn (inclusive); default: all of it. */
  atTurn?: string;
}

export interface ThreadRead {
  id: string;
  rolloutPath?: string;
  /** Settings as recorded by the newest turn (or the meta line). */
  cwd?: string;
  model?: string;
  modelProvider?: string;
  harness?: string;
  forkedFrom?: string;
  warnings: string[];
  turns?: HistoryTurn[];
}

export type { HistoryTurn } from './history-view.js';
export type ThreadSummary = ThreadRow;
