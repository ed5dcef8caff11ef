// Sub-agents on the engine: a child is a thread of the same engine, started with its role's model,
// effort, harness and developer instructions, and never with a broader sandbox or approval policy
// than its parent. The service keeps one tree of agents per session, hands each thread its
// AgentsCapability, forwards children's approvals to the parent's front end (labelled with the
// child's path), and interrupts or closes children with their parent.
import { resolve as resolvePath } from 'node:path';
import { resolveAgents, type AgentRole, type AgentsSettings, type RigConfig } from '../../config/index.js';
import { listProviderModels, type ProviderInfo } from '../../model/index.js';
import type { ApprovalRequest, EventEnvelope } from '../../protocol/index.js';
import { AgentToolError, type AgentView, type SpawnRequest } from '../../tools/agents/capability.js';
import type { EnvelopeListener } from '../event-hub.js';
import type { ThreadStartRequest } from '../engine.js';
import type { ThreadHandle } from '../thread-handle.js';
import type { BuiltRuntime } from '../thread-runtime.js';
import { threadAgentsCapability } from './capability.js';
import { capChildSafety } from './permissions.js';
import { lastTurns } from './fork-turns.js';
import { createAgentWorktree, settleAgentWorktree } from './isolation.js';
import { readRollout } from '../../store/index.js';
import { AgentNode, AgentTree, ROOT_PATH, statusOf, taskSegment, type AgentLink } from './tree.js';

/** What the service needs of the engine. */
export interface AgentHost {
  readonly env: NodeJS.ProcessEnv;
  startThread(request: ThreadStartRequest): Promise<ThreadHandle>;
  forkThread(id: string, request: ThreadStartRequest & { atTurn?: string }): Promise<ThreadHandle>;
  resumeThread(id: string, request: ThreadStartRequest): Promise<ThreadHandle>;
  thread(id: string): ThreadHandle | undefined;
  subscribe(listener: EnvelopeListener): () => void;
}

export const SUBAGENT_NOTIFICATION_TAG = 'subagent_notification';

export class AgentsService {
  private readonly nodes = new Map<string, AgentNode>();
  private readonly modelLists = new Map<string, Promise<string[] | undefined>>();

  constructor(private readonly host: AgentHost) {
    host.subscribe((envelope) => this.observe(envelope));
  }

  /**
   * Called with each build of a thread's runtime: records the thread in its session's tree (a
   * child by the link its start request carries) and gives the runtime its agents capability.
   */
  attach(threadId: string, built: BuiltRuntime, config: RigConfig, request: ThreadStartRequest, home: string): BuiltRuntime {
    let node = this.nodes.get(threadId);
    if (!node) {
      const link = request.agent;
      const parent = link ? this.nodes.get(link.parentThreadId) : undefined;
      if (link && parent) {
        node = new AgentNode(threadId, parent.tree, link.path, link.nickname, link.depth, request, parent, link.role);
        parent.children.push(node);
      } else {
        node = new AgentNode(threadId, new AgentTree(), ROOT_PATH, 'root', 0, request);
      }
      node.tree.nodes.set(threadId, node);
      this.nodes.set(threadId, node);
    }
    node.closed = false;
    node.request = request;
    node.config = config;
    node.agents = built.agents ?? resolveAgents(config, home, request.cwd);
    node.provider = built.provider;
    node.model = built.model;
    built.runtime.agents = threadAgentsCapability(this, node);
    return built;
  }

  node(threadId: string): AgentNode | undefined {
    return this.nodes.get(threadId);
  }

  loaded(node: AgentNode): ThreadHandle | undefined {
    return this.host.thread(node.threadId);
  }

  handle(node: AgentNode): ThreadHandle {
    const handle = this.host.thread(node.threadId);
    if (!handle) throw new AgentToolError(`agent ${node.path} is closed; resume it first (resume_agent) or spawn a new one`);
    return handle;
  }

  async spawn(caller: AgentNode, request: SpawnRequest): Promise<AgentNode> {
    const settings = caller.agents;
    const depth = caller.depth + 1;
    if (depth > settings.maxDepth) {
      throw new AgentToolError(
        `cannot spawn a sub-agent: agents.max_depth = ${settings.maxDepth} and this agent (${caller.path}) is at depth ${caller.depth}. Do this work yourself, or raise max_depth under [agents] in config.toml.`,
      );
    }
    const open = caller.tree.openCount();
    if (open >= settings.maxThreads) {
      throw new AgentToolError(
        `cannot spawn a sub-agent: ${open} agents are open and agents.max_concurrent_threads_per_session = ${settings.maxThreads}. Wait for one to finish and close it (close_agent) first, or raise the limit under [agents] in config.toml.`,
      );
    }
    const role = this.role(settings, request);
    const parentHandle = this.handle(caller);
    const parent = parentHandle.settings;
    const model = request.model ?? role?.model ?? settings.defaultModel ?? parent.model;
    if (request.model !== undefined) await this.checkModel(caller, request.model, role);
    const effort = request.reasoningEffort ?? role?.reasoningEffort ?? settings.defaultReasoningEffort ?? parent.reasoning_effort;
    const segment = this.uniqueSegment(caller, taskSegment(request.taskName ?? request.description ?? role?.name ?? 'agent'));
    const path = `${caller.path}/${segment}`;
    const safety = capChildSafety(
      { sandbox: parent.sandbox_mode, approvalPolicy: parent.approval_policy },
      { ...(role?.sandboxMode ? { sandbox: role.sandboxMode } : {}), ...(role?.approvalPolicy ? { approvalPolicy: role.approvalPolicy } : {}) },
      `agent ${path}${role ? ` (role ${role.name}, ${role.source})` : ''}`,
    );
    for (const warning of safety.warnings) parentHandle.emitThreadEvent({ type: 'item.completed', item: { id: parentHandle.newItemId(), type: 'error', message: warning } });
    const base = caller.request;
    const link: AgentLink = {
      parentThreadId: caller.threadId,
      path,
      nickname: segment,
      depth,
      ...(role ? { role: role.name } : {}),
      ...(role?.developerInstructions !== undefined ? { developerInstructions: role.developerInstructions } : {}),
    };
    const worktree = request.isolation === 'worktree' ? await createAgentWorktree(parent.cwd, segment) : undefined;
    const childRequest: ThreadStartRequest = {
      cwd: worktree?.path ?? parent.cwd,
      ...(base.profile ? { profile: base.profile } : {}),
      config: [...(base.config ?? []), ...(role?.developerInstructions !== undefined ? [`developer_instructions=${JSON.stringify(role.developerInstructions)}`] : [])],
      ...(base.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
      ...(base.strictConfig ? { strictConfig: true } : {}),
      ...(base.addDirs?.length ? { addDirs: base.addDirs.map((dir) => resolvePath(base.cwd, dir)) } : {}),
      overrides: {
        model,
        provider: role?.provider ?? parent.model_provider,
        harness: role?.harness ?? parent.harness,
        sandbox: safety.sandbox,
        ...(safety.approvalPolicy ? { approvalPolicy: safety.approvalPolicy } : {}),
        ...(effort ? { reasoningEffort: effort } : {}),
        ...(parent.yolo && safety.sandbox === 'danger-full-access' && safety.approvalPolicy === 'never' ? { yolo: true } : {}),
        ...(parent.plan_mode ? { planMode: true } : {}),
      },
      ephemeral: parentHandle.info.rolloutPath === undefined || base.ephemeral === true,
      ...(base.ignoreRules ? { ignoreRules: true } : {}),
      canAskApproval: base.canAskApproval ?? true,
      ...(base.originator ? { originator: base.originator } : {}),
      agent: link,
    };
    caller.tree.reserved++;
    let handle: ThreadHandle;
    try {
      handle = await this.startChild(caller, childRequest, request.forkTurns ?? 'none');
    } catch (error) {
      // The worktree made for a child that never started holds nothing of anyone's.
      if (worktree) await settleAgentWorktree(worktree);
      if (error instanceof AgentToolError) throw error;
      throw new AgentToolError(`could not start agent ${path}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      caller.tree.reserved--;
    }
    const node = this.nodes.get(handle.id)!;
    node.worktree = worktree;
    this.watch(node, handle);
    // The parent's SubagentStart hooks may give the child context; it goes before its first message.
    const started = await parentHandle.hooks?.run('SubagentStart', { agent_id: handle.id, agent_type: role?.name ?? 'default' });
    if (started?.additionalContexts.length) node.pendingInput.push(...started.additionalContexts);
    return node;
  }

  /** Start (or, with input kept for it, continue) a turn of the child. */
  startTurn(node: AgentNode, text: string, stopHookActive = false): void {
    const handle = this.handle(node);
    const input = [...node.pendingInput.splice(0), text].filter((part) => part !== '').join('\n\n');
    const turn = handle.startTurn({ text: input });
    node.status = 'running';
    node.current = turn.done.then(async (result) => {
      // The parent's SubagentStop hooks may send the child on (as Stop does for a turn), once per answer.
      const more = result.status === 'completed' ? await this.subagentStop(node, handle, result.lastAgentMessage, stopHookActive) : undefined;
      if (more !== undefined) {
        this.startTurn(node, more, true);
        return node.current!;
      }
      node.status = statusOf(result);
      node.totalTokens = handle.usage.input_tokens + handle.usage.output_tokens;
      node.current = undefined;
      node.wake();
      this.report(node);
      return result;
    });
    node.parent?.wake();
  }

  private async subagentStop(node: AgentNode, handle: ThreadHandle, lastMessage: string | undefined, stopHookActive: boolean): Promise<string | undefined> {
    const parent = node.parent && this.host.thread(node.parent.threadId);
    const outcome = await parent?.hooks?.run('SubagentStop', {
      agent_id: handle.id,
      agent_type: node.role ?? 'default',
      agent_transcript_path: handle.info.rolloutPath ?? null,
      last_assistant_message: lastMessage ?? null,
      stop_hook_active: stopHookActive,
    });
    // Once per answer: a child already sent on by these hooks finishes with its next answer.
    if (stopHookActive || !outcome?.blocked || outcome.stop) return undefined;
    const text = outcome.continuation.join('\n\n');
    return text === '' ? undefined : text;
  }

  /** Load a closed child again from its rollout (same thread, same path). */
  async resume(node: AgentNode): Promise<void> {
    const handle = await this.host.resumeThread(node.threadId, node.request);
    node.closed = false;
    this.watch(node, handle);
  }

  /** Deliver v2 notifications about finished children as input to the caller's running turn. */
  deliverNotifications(caller: AgentNode, views: AgentView[]): void {
    if (views.length === 0) return;
    const handle = this.host.thread(caller.threadId);
    if (!handle?.isRunning) {
      // Kept for the next wait_agent of a later turn.
      return;
    }
    const text = views
      .map((view) => `<${SUBAGENT_NOTIFICATION_TAG}>\n${JSON.stringify({ agent_path: view.path, status: view.status })}\n</${SUBAGENT_NOTIFICATION_TAG}>`)
      .join('\n');
    handle.steer({ text });
  }

  private report(node: AgentNode): void {
    const parent = node.parent;
    if (!parent) return;
    if (!node.foreground) {
      parent.mailbox.push(node);
      // Nobody waits: a running parent hears of it with its next request.
      if (parent.waiters.size === 0 && this.host.thread(parent.threadId)?.isRunning) {
        this.deliverNotifications(parent, parent.mailbox.splice(0).map((n) => n.view()));
      }
    }
    parent.wake();
  }

  private async startChild(caller: AgentNode, request: ThreadStartRequest, forkTurns: 'none' | 'all' | number): Promise<ThreadHandle> {
    if (forkTurns === 'none') return this.host.startThread(request);
    const parentHandle = this.handle(caller);
    const rolloutPath = parentHandle.info.rolloutPath;
    if (!rolloutPath) {
      throw new AgentToolError('fork_turns needs the parent thread to be recorded (this session is ephemeral); spawn with fork_turns "none" and put what the agent needs in its message');
    }
    if (forkTurns === 'all') return this.host.forkThread(caller.threadId, request);
    const forked = lastTurns(readRollout(rolloutPath).records, forkTurns);
    const note = `forked context: the last ${forked.turns} turn${forked.turns === 1 ? '' : 's'} of thread ${caller.threadId} (${caller.path})${forked.summarized ? ', after the summary of its earlier turns' : ''}`;
    return this.host.startThread({ ...request, seed: { items: forked.items, forkedFrom: caller.threadId, note } });
  }

  private role(settings: AgentsSettings, request: SpawnRequest): AgentRole | undefined {
    const name = request.role;
    if (name === undefined || name === '' || name === 'default') return undefined;
    const role = settings.roles.get(name);
    if (role) return role;
    if (request.defaultRoleAliases?.includes(name)) return undefined;
    const known = [...settings.roles.keys()];
    throw new AgentToolError(
      `unknown agent type "${name}": ${known.length > 0 ? `the configured roles are ${known.map((k) => `"${k}"`).join(', ')}` : 'no roles are configured'}. Use one of them, or leave the type out for the default agent. (Roles are [agents.<role>] tables in config.toml or files in RIG_HOME/agents/.)`,
    );
  }

  private async checkModel(caller: AgentNode, model: string, role: AgentRole | undefined): Promise<void> {
    const settings = caller.agents;
    const configured = new Set([caller.model, caller.config.model, settings.defaultModel, ...[...settings.roles.values()].map((r) => r.model)]);
    if (configured.has(model)) return;
    const provider: ProviderInfo = caller.provider;
    const key = `${provider.id}\u0000${provider.base_url}`;
    let listing = this.modelLists.get(key);
    if (!listing) {
      listing = listProviderModels(provider, this.host.env);
      this.modelLists.set(key, listing);
    }
    const models = await listing;
    if (models?.includes(model)) return;
    const fallback = role?.model ?? settings.defaultModel ?? caller.model;
    throw new AgentToolError(
      models
        ? `model "${model}" does not exist at provider ${provider.id} (it offers: ${models.slice(0, 20).join(', ')}). Spawn again with one of those, or leave model out to use ${fallback}.`
        : `model "${model}" is not known: provider ${provider.id} gave no model list and no config names it. Leave model out to use ${fallback}, or name the model under [agents] in config.toml.`,
    );
  }

  private uniqueSegment(caller: AgentNode, segment: string): string {
    let candidate = segment;
    for (let n = 2; caller.tree.byPath(`${caller.path}/${candidate}`); n++) candidate = `${segment}_${n}`;
    return candidate;
  }

  /** Count tool calls, and send the child's approval requests up to its parent's front end. */
  private watch(node: AgentNode, handle: ThreadHandle): void {
    handle.subscribe((envelope) => {
      const event = envelope.event;
      if (event.type === 'item.completed' && event.item.type !== 'agent_message' && event.item.type !== 'reasoning' && event.item.type !== 'user_message' && event.item.type !== 'error') {
        node.toolUses++;
      } else if (event.type === 'approval.requested') {
        this.forwardApproval(node, handle, event.request);
      }
    });
  }

  private forwardApproval(node: AgentNode, child: ThreadHandle, request: ApprovalRequest): void {
    const parent = node.parent && this.host.thread(node.parent.threadId);
    if (!parent) return;
    const { id, ...rest } = request;
    const labelled = { ...rest, agent_path: request.agent_path ?? node.path, agent_thread_id: request.agent_thread_id ?? node.threadId };
    void parent.askOnBehalf(labelled).then((answer) => {
      try {
        // The content goes too: the answers to a child's MCP server form.
        child.answerApproval(id, answer.decision, { ...(answer.feedback ? { feedback: answer.feedback } : {}), ...(answer.content ? { content: answer.content } : {}) });
      } catch {
        // The child's turn ended meanwhile; nothing waits for the answer any more.
      }
    });
  }

  /**
   * Children that finished while their parent had no turn running (Codex queues their completion
   * without starting a turn): the parent hears of them as its next turn starts.
   */
  private deliverQueued(threadId: string): void {
    const node = this.nodes.get(threadId);
    if (!node || node.mailbox.length === 0) return;
    this.deliverNotifications(node, node.mailbox.splice(0).map((child) => child.view()));
  }

  /** Interrupting or closing a thread does the same to the agents it spawned. */
  private observe(envelope: EventEnvelope): void {
    const type = envelope.event.type;
    if (type === 'turn.started') return this.deliverQueued(envelope.thread_id);
    if (type !== 'turn.interrupted' && type !== 'thread.closed') return;
    const node = this.nodes.get(envelope.thread_id);
    if (!node) return;
    if (type === 'thread.closed') node.closed = true;
    for (const child of node.children) {
      const handle = this.host.thread(child.threadId);
      if (!handle) continue;
      if (type === 'thread.closed') void handle.close();
      else if (handle.isRunning) void handle.interrupt();
    }
    if (type === 'thread.closed') {
      node.status = node.status === 'running' || node.status === 'pending_init' ? 'shutdown' : node.status;
      node.parent?.wake();
    }
  }
}
