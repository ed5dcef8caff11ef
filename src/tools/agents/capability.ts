// What sub-agent tools may ask of the engine: spawn a child thread, talk to it, wait for it, stop
// it, list the agents of the session. The core agents service (src/core/agents/) implements it per
// thread; every harness's delegation tool and Codex's native tools go through this one interface.
import type { CollabAgentState } from '../../protocol/index.js';

/** Codex's agent status values (reference/tools-native.md §9). */
export type AgentStatusValue =
  | 'pending_init'
  | 'running'
  | 'interrupted'
  | 'shutdown'
  | 'not_found'
  | { completed: string | null }
  | { errored: string };

export interface AgentView {
  /** The child's thread id. */
  id: string;
  /** Its task path, e.g. /root/implement_fix. */
  path: string;
  nickname: string;
  role?: string;
  status: AgentStatusValue;
  /** The number of tool calls it made so far, and when it was spawned. */
  toolUses: number;
  startedAt: number;
  /** Total tokens its turns used. */
  totalTokens: number;
  /** The worktree it works in, when spawned with isolation "worktree". */
  worktree?: { path: string; branch: string };
}

export interface SpawnRequest {
  message: string;
  /** v2's task_name (a path segment); harness tools give a description instead. */
  taskName?: string;
  description?: string;
  role?: string;
  model?: string;
  reasoningEffort?: string;
  /** How much of the caller's history the child starts with. Default: none. */
  forkTurns?: 'none' | 'all' | number;
  /** Harness defaults (Explore, general-purpose, coder, ...) that mean the default role when not configured. */
  defaultRoleAliases?: readonly string[];
  /** The caller waits for the result itself (a synchronous delegation): no notification follows. */
  foreground?: boolean;
  /** Run the child in a git worktree of its own (Claude Code's `isolation: "worktree"`). */
  isolation?: 'worktree';
}

/** Thrown with a message meant for the model (what was wrong and what to do). */
export class AgentToolError extends Error {
  override readonly name = 'AgentToolError';
}

export interface WaitOutcome {
  /** The agents that finished a turn (or failed) while waiting, or were finished already. */
  updated: AgentView[];
  timedOut: boolean;
}

export interface AgentsCapability {
  /** Is the [agents] feature on for this thread (tools answer how to enable it when not). */
  readonly enabled: boolean;
  spawn(request: SpawnRequest, signal: AbortSignal): Promise<AgentView>;
  /** A child by path, relative task name, nickname or thread id (descendants of the caller's root). */
  find(target: string): AgentView | undefined;
  /**
   * Give a child input: `startTurn` starts a turn when it is idle (followup_task, send_input); a
   * running child gets it as steering. Without `startTurn`, an idle child keeps it for its next turn.
   */
  message(target: string, text: string, options: { startTurn: boolean; interrupt?: boolean; foreground?: boolean }): Promise<AgentView>;
  /** Until one of `targets` (default: any child of the caller) ends a turn, or the timeout. */
  wait(targets: string[] | undefined, timeoutMs: number, signal: AbortSignal): Promise<WaitOutcome>;
  /** Until `target`'s running turn ends; its final message or failure. */
  result(target: string, signal: AbortSignal): Promise<AgentView>;
  interrupt(target: string): Promise<AgentStatusValue>;
  close(target: string): Promise<AgentStatusValue>;
  /** Reload a closed child from its rollout. */
  resume(target: string): Promise<AgentView>;
  list(pathPrefix?: string): AgentView[];
  /** Notifications about children that finished since the last call, taken once (v2's mailbox). */
  takeNotifications(): AgentView[];
  /**
   * After an isolated child's work: removes its worktree when it changed nothing there, else keeps
   * it; undefined for a child without one.
   */
  settleWorktree?(target: string): Promise<{ path: string; branch: string; kept: boolean } | undefined>;
}

export function statusName(status: AgentStatusValue): CollabAgentState['status'] {
  if (typeof status === 'string') return status;
  return 'completed' in status ? 'completed' : 'errored';
}

export function collabState(status: AgentStatusValue): CollabAgentState {
  if (typeof status === 'string') return { status };
  return 'completed' in status ? { status: 'completed', message: status.completed } : { status: 'errored', message: status.errored };
}

/** The final message of a finished agent, if any. */
export function finalMessage(status: AgentStatusValue): string | undefined {
  if (typeof status === 'object' && 'completed' in status) return status.completed ?? undefined;
  return undefined;
}
