// The agents of one session: a root thread and the children it (and they) spawned, addressed by
// task path (/root/implement_fix/tests). Each node tracks its child thread's state for the tools.
import type { AgentWorktree } from './isolation.js';
import type { AgentsSettings, RigConfig } from '../../config/index.js';
import type { ProviderInfo } from '../../model/index.js';
import type { AgentStatusValue, AgentView } from '../../tools/agents/capability.js';
import type { ThreadStartRequest } from '../engine.js';
import type { TurnResult } from '../thread-types.js';

export const ROOT_PATH = '/root';

/** Recorded with a child thread: who spawned it and under which path and role. */
export interface AgentLink {
  parentThreadId: string;
  path: string;
  nickname: string;
  role?: string;
  depth: number;
  /** The role's developer instructions (a forked child gets them after the copied history). */
  developerInstructions?: string;
}

export class AgentNode {
  status: AgentStatusValue = 'pending_init';
  readonly children: AgentNode[] = [];
  /** Updates (finished turns) of children the model has not been told about yet. */
  readonly mailbox: AgentNode[] = [];
  /** Wakes waiters (wait_agent, result) when a child's state changes. */
  readonly waiters = new Set<() => void>();
  /** Input kept for this agent's next turn (v2 send_message to an idle agent). */
  readonly pendingInput: string[] = [];
  current: Promise<TurnResult> | undefined;
  /** A caller is waiting for this agent's result itself (a harness's synchronous delegation). */
  foreground = false;
  closed = false;
  toolUses = 0;
  totalTokens = 0;
  readonly startedAt = Date.now();
  /** Its own worktree (isolation "worktree"), until removed. */
  worktree: AgentWorktree | undefined;
  config!: RigConfig;
  agents!: AgentsSettings;
  provider!: ProviderInfo;
  model!: string;

  constructor(
    readonly threadId: string,
    readonly tree: AgentTree,
    readonly path: string,
    readonly nickname: string,
    readonly depth: number,
    public request: ThreadStartRequest,
    readonly parent?: AgentNode,
    readonly role?: string,
  ) {}

  view(): AgentView {
    return {
      id: this.threadId,
      path: this.path,
      nickname: this.nickname,
      ...(this.role ? { role: this.role } : {}),
      status: this.status,
      toolUses: this.toolUses,
      startedAt: this.startedAt,
      totalTokens: this.totalTokens,
      ...(this.worktree ? { worktree: { path: this.worktree.path, branch: this.worktree.branch } } : {}),
    };
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

export class AgentTree {
  readonly nodes = new Map<string, AgentNode>();
  /** Spawns under way: they count against the concurrency limit before their thread exists. */
  reserved = 0;

  /**
   * Children that hold a slot: spawned and not closed (Codex counts them until close_agent). A
   * harness's synchronous delegate gives its slot back when it finishes; it stays loaded so the
   * harness can send it more work (SendMessage, opencode's task_id).
   */
  openCount(): number {
    let open = this.reserved;
    for (const node of this.nodes.values()) if (node.parent && !node.closed && (node.running || !node.foreground)) open++;
    return open;
  }

  byPath(path: string): AgentNode | undefined {
    for (const node of this.nodes.values()) if (node.path === path) return node;
    return undefined;
  }
}

/** A task path segment: lowercase letters, digits and `_` (Codex's task_name rule). */
export function taskSegment(text: string): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
  return cleaned === '' ? 'agent' : cleaned;
}

export function statusOf(result: TurnResult): AgentStatusValue {
  if (result.status === 'completed') return { completed: result.lastAgentMessage ?? null };
  if (result.status === 'interrupted') return 'interrupted';
  return { errored: result.error ?? 'the turn failed' };
}
