// The engine's event stream as app-server notifications, and its approval requests as requests
// to the client. One bridge per connection; it keeps, per thread, what the protocol needs and the
// engine's events do not carry: when items and turns started, which items were announced, which
// approvals are open, the client's ids for its messages.
import type { ThreadHandle } from '../../core/thread-handle.js';
import type { ApprovalAnswer, ApprovalDecision, ApprovalRequest, EventEnvelope, ThreadItem as RigItem, TodoEntry, TokenUsage } from '../../protocol/index.js';
import { goalToWire } from '../../protocol/index.js';
import type { NotificationParams, RequestId, ServerNotificationMethod, ServerRequestMethod, ThreadStatus } from '../../protocol/app-server/index.js';
import { toProtocolItem, turnError } from './items.js';
import { liveTurn } from './thread-view.js';
import { elicitationRequest, mcpToolCallRequest, networkRequest } from './mcp-approvals.js';
import { userInputRequest } from './user-input.js';

export interface BridgeOutput {
  notify<M extends ServerNotificationMethod>(method: M, params: NotificationParams<M>): void;
  request(method: ServerRequestMethod, params: unknown): { id: RequestId; result: Promise<unknown> };
  /** The thread/started notification's thread (built by the server, which knows names and times). */
  threadView(handle: ThreadHandle): NotificationParams<'thread/started'>['thread'];
  handle(threadId: string): ThreadHandle | undefined;
}

interface OpenApproval {
  rpcId: RequestId;
  itemId: string;
}

interface ThreadTrack {
  turnId?: string;
  turnStartedAtMs?: number;
  announced: Set<string>;
  itemStartedAt: Map<string, number>;
  declined: Set<string>;
  approvals: Map<string, OpenApproval>;
  clientMessageIds: string[];
  failure?: string;
}

function track(): ThreadTrack {
  return { announced: new Set(), itemStartedAt: new Map(), declined: new Set(), approvals: new Map(), clientMessageIds: [] };
}

function breakdown(usage: TokenUsage) {
  return {
    totalTokens: usage.input_tokens + usage.output_tokens,
    inputTokens: usage.input_tokens,
    cachedInputTokens: usage.cached_input_tokens,
    cacheWriteInputTokens: usage.cache_write_input_tokens,
    outputTokens: usage.output_tokens,
    reasoningOutputTokens: usage.reasoning_output_tokens,
  };
}

function planSteps(entries: readonly TodoEntry[]) {
  let current = false;
  return entries.map((entry) => {
    if (entry.completed) return { step: entry.text, status: 'completed' as const };
    if (!current) {
      current = true;
      return { step: entry.text, status: 'inProgress' as const };
    }
    return { step: entry.text, status: 'pending' as const };
  });
}

/** Codex's decisions as the engine's. */
export function engineDecision(result: unknown): ApprovalDecision {
  const decision = (result as { decision?: unknown } | null)?.decision;
  if (decision === 'accept') return 'approve';
  if (decision === 'acceptForSession') return 'approve_for_session';
  if (decision === 'cancel') return 'abort';
  if (typeof decision === 'object' && decision !== null && 'acceptWithExecpolicyAmendment' in decision) return 'approve_for_session';
  return 'deny';
}

export class EventBridge {
  private readonly threads = new Map<string, ThreadTrack>();

  constructor(private readonly out: BridgeOutput) {}

  /** turn/start gave a client id for the user message the turn opens with. */
  expectClientMessageId(threadId: string, clientId: string): void {
    this.state(threadId).clientMessageIds.push(clientId);
  }

  /** Whether the thread waits on the client for an approval. */
  status(threadId: string): ThreadStatus {
    const handle = this.out.handle(threadId);
    if (!handle) return { type: 'notLoaded' };
    if (!handle.isRunning) return { type: 'idle' };
    const waiting = (this.threads.get(threadId)?.approvals.size ?? 0) > 0;
    return { type: 'active', activeFlags: waiting ? ['waitingOnApproval'] : [] };
  }

  handle(envelope: EventEnvelope): void {
    const threadId = envelope.thread_id;
    const state = this.state(threadId);
    const turnId = envelope.turn_id ?? state.turnId ?? '';
    const event = envelope.event;
    const now = envelope.timestamp_ms;
    const cwd = this.out.handle(threadId)?.settings.cwd ?? '';
    switch (event.type) {
      case 'thread.started': {
        const handle = this.out.handle(threadId);
        if (handle) this.out.notify('thread/started', { thread: this.out.threadView(handle) });
        return;
      }
      case 'thread.resumed':
      case 'thread.settings_updated':
        return;
      case 'thread.closed':
        this.threads.delete(threadId);
        this.out.notify('thread/status/changed', { threadId, status: { type: 'notLoaded' } });
        this.out.notify('thread/closed', { threadId });
        return;
      case 'turn.started':
        state.turnId = turnId;
        state.turnStartedAtMs = now;
        state.failure = undefined;
        this.out.notify('thread/status/changed', { threadId, status: { type: 'active', activeFlags: [] } });
        this.out.notify('turn/started', { threadId, turn: liveTurn(turnId, 'inProgress', { startedAtMs: now }) });
        return;
      case 'turn.completed':
      case 'turn.failed':
      case 'turn.interrupted': {
        const status = event.type === 'turn.completed' ? 'completed' : event.type === 'turn.failed' ? 'failed' : 'interrupted';
        const message = event.type === 'turn.failed' ? event.error.message : undefined;
        if (message !== undefined && state.failure !== message) {
          this.out.notify('error', { error: turnError(message), willRetry: false, threadId, turnId });
        }
        const startedAtMs = state.turnStartedAtMs ?? now;
        this.out.notify('turn/completed', { threadId, turn: liveTurn(turnId, status, { startedAtMs, completedAtMs: now }, message) });
        state.turnId = undefined;
        state.announced.clear();
        state.itemStartedAt.clear();
        state.declined.clear();
        this.out.notify('thread/status/changed', { threadId, status: { type: 'idle' } });
        return;
      }
      case 'error':
        state.failure = event.message;
        this.out.notify('error', { error: turnError(event.message), willRetry: false, threadId, turnId });
        return;
      case 'model.retry':
        this.out.notify('error', {
          error: turnError(`${event.reason}; retrying (attempt ${event.attempt} of ${event.max_attempts}) in ${event.delay_ms} ms`),
          willRetry: true,
          threadId,
          turnId,
        });
        return;
      case 'thread.goal_updated':
        this.out.notify('thread/goal/updated', { threadId, turnId: envelope.turn_id, goal: goalToWire(event.goal) });
        return;
      case 'thread.goal_cleared':
        this.out.notify('thread/goal/cleared', { threadId });
        return;
      case 'usage.updated':
        this.out.notify('thread/tokenUsage/updated', {
          threadId,
          turnId,
          tokenUsage: { total: breakdown(event.total), last: breakdown(event.last), modelContextWindow: null },
        });
        return;
      case 'item.agent_message.delta':
        this.announce(threadId, turnId, { type: 'agent_message', id: event.item_id, text: '' }, now, cwd);
        this.out.notify('item/agentMessage/delta', { threadId, turnId, itemId: event.item_id, delta: event.delta });
        return;
      case 'item.reasoning.delta':
        this.announce(threadId, turnId, { type: 'reasoning', id: event.item_id, text: '' }, now, cwd);
        this.out.notify('item/reasoning/summaryTextDelta', { threadId, turnId, itemId: event.item_id, delta: event.delta, summaryIndex: 0 });
        return;
      case 'item.command_execution.output_delta':
        this.out.notify('item/commandExecution/outputDelta', { threadId, turnId, itemId: event.item_id, delta: event.delta });
        return;
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        this.item(threadId, turnId, envelope.turn_id === null, event.type, event.item, now, cwd);
        return;
      case 'approval.requested':
        this.askClient(threadId, turnId, event.request, now, cwd);
        return;
      case 'approval.resolved': {
        const open = state.approvals.get(event.request_id);
        if (!open) return;
        state.approvals.delete(event.request_id);
        if (event.decision === 'deny' || event.decision === 'abort') state.declined.add(open.itemId);
        this.out.notify('serverRequest/resolved', { threadId, requestId: open.rpcId });
        if (this.out.handle(threadId)?.isRunning) this.out.notify('thread/status/changed', { threadId, status: this.status(threadId) });
        return;
      }
    }
  }

  private item(threadId: string, turnId: string, threadLevel: boolean, phase: 'item.started' | 'item.updated' | 'item.completed', item: RigItem, now: number, cwd: string): void {
    const state = this.state(threadId);
    if (item.type === 'error') {
      this.out.notify('warning', { threadId, message: item.message });
      return;
    }
    if (threadLevel) return;
    if (item.type === 'todo_list') {
      this.out.notify('turn/plan/updated', { threadId, turnId, explanation: null, plan: planSteps(item.items) });
      return;
    }
    if (phase === 'item.updated') return;
    if (phase === 'item.started') {
      this.announce(threadId, turnId, item, now, cwd);
      return;
    }
    const clientId = item.type === 'user_message' ? state.clientMessageIds.shift() : undefined;
    this.announce(threadId, turnId, item, now, cwd, clientId);
    const startedAt = state.itemStartedAt.get(item.id) ?? now;
    const mapped = toProtocolItem(item, { cwd, durationMs: now - startedAt, declined: state.declined.has(item.id), ...(clientId ? { clientId } : {}) });
    if (mapped) this.out.notify('item/completed', { item: mapped, threadId, turnId, completedAtMs: now });
  }

  /** item/started, once per item: the protocol's lifecycle starts every item, rig's only some. */
  private announce(threadId: string, turnId: string, item: RigItem, now: number, cwd: string, clientId?: string): void {
    const state = this.state(threadId);
    if (state.announced.has(item.id)) return;
    const started = startedForm(item);
    const mapped = toProtocolItem(started, { cwd, ...(clientId ? { clientId } : {}) });
    if (!mapped) return;
    state.announced.add(item.id);
    state.itemStartedAt.set(item.id, now);
    this.out.notify('item/started', { item: mapped, threadId, turnId, startedAtMs: now });
  }

  private askClient(threadId: string, turnId: string, request: ApprovalRequest, now: number, cwd: string): void {
    if (request.kind === 'mcp_tool_call' || request.kind === 'mcp_elicitation' || request.kind === 'network' || request.kind === 'user_input') {
      const asked =
        request.kind === 'user_input'
          ? userInputRequest(request, threadId, turnId)
          : request.kind === 'mcp_tool_call'
          ? mcpToolCallRequest(request, threadId, turnId)
          : request.kind === 'mcp_elicitation'
            ? elicitationRequest(request, threadId, turnId)
            : networkRequest(request, threadId, turnId, cwd, now);
      const sent = this.out.request(asked.method, asked.params);
      // A server's question is not a decision about an item: declining it declines no item.
      const itemId = request.kind === 'mcp_elicitation' ? request.id : (request.item_id ?? request.id);
      this.state(threadId).approvals.set(request.id, { rpcId: sent.id, itemId });
      this.out.notify('thread/status/changed', { threadId, status: { type: 'active', activeFlags: ['waitingOnApproval'] } });
      sent.result.then(
        (result) => this.answer(threadId, request.id, asked.answer(result)),
        () => this.answer(threadId, request.id, { decision: request.kind === 'mcp_elicitation' ? 'abort' : 'deny' }),
      );
      return;
    }
    const state = this.state(threadId);
    // The pending item comes first, as in Codex's order.
    this.announce(threadId, turnId, pendingItem(request), now, cwd);
    const base = { threadId, turnId, itemId: request.item_id, startedAtMs: now };
    const sent =
      request.kind === 'exec'
        ? this.out.request('item/commandExecution/requestApproval', {
            kind: 'command',
            ...base,
            approvalId: null,
            environmentId: null,
            reason: approvalReason(request),
            command: request.command_text,
            cwd: request.cwd,
            commandActions: [{ type: 'unknown', command: request.command_text }],
            proposedExecpolicyAmendment: request.proposed_prefix ?? null,
          })
        : this.out.request('item/fileChange/requestApproval', { ...base, reason: request.reason ?? null, grantRoot: null });
    state.approvals.set(request.id, { rpcId: sent.id, itemId: request.item_id });
    this.out.notify('thread/status/changed', { threadId, status: { type: 'active', activeFlags: ['waitingOnApproval'] } });
    sent.result.then(
      (result) => this.answer(threadId, request.id, { decision: engineDecision(result) }),
      // A client that answers with an error (or disconnects) has not approved anything.
      () => this.answer(threadId, request.id, { decision: 'deny' }),
    );
  }

  private answer(threadId: string, requestId: string, answer: ApprovalAnswer): void {
    if (!this.threads.get(threadId)?.approvals.has(requestId)) return;
    try {
      this.out.handle(threadId)?.answerApproval(requestId, answer.decision, {
        ...(answer.feedback !== undefined ? { feedback: answer.feedback } : {}),
        ...(answer.content !== undefined ? { content: answer.content } : {}),
      });
    } catch {
      // The turn ended first (interrupted): the engine already resolved the request as aborted.
    }
  }

  private state(threadId: string): ThreadTrack {
    let state = this.threads.get(threadId);
    if (!state) {
      state = track();
      this.threads.set(threadId, state);
    }
    return state;
  }
}

/** An item as it looks when it begins (rig's completed-only items start empty). */
function startedForm(item: RigItem): RigItem {
  switch (item.type) {
    case 'agent_message':
      return { ...item, text: '' };
    case 'reasoning':
      return { ...item, text: '' };
    case 'command_execution':
      return { ...item, status: 'in_progress', aggregated_output: '', exit_code: null };
    case 'file_change':
    case 'mcp_tool_call':
    case 'file_tool':
    case 'tool_call':
      return { ...item, status: 'in_progress' } as RigItem;
    default:
      return item;
  }
}

function pendingItem(request: Exclude<ApprovalRequest, { kind: 'mcp_tool_call' | 'mcp_elicitation' | 'network' | 'user_input' }>): RigItem {
  if (request.kind === 'exec') {
    return { id: request.item_id, type: 'command_execution', command: request.command_text, aggregated_output: '', exit_code: null, status: 'in_progress' };
  }
  return {
    id: request.item_id,
    type: 'file_change',
    changes: request.changes.map((change) => ({ path: change.path, kind: change.kind, diff: change.diff })),
    status: 'in_progress',
  };
}

function approvalReason(request: Extract<ApprovalRequest, { kind: 'exec' }>): string | null {
  const parts = [
    request.retry_without_sandbox ? `the sandbox blocked this command${request.sandbox_denial ? ` (${request.sandbox_denial})` : ''}; approving reruns it without the sandbox` : undefined,
    !request.retry_without_sandbox && !request.sandboxed ? 'runs without the sandbox' : undefined,
    request.reason,
  ].filter((part): part is string => Boolean(part));
  return parts.length ? parts.join('; ') : null;
}

