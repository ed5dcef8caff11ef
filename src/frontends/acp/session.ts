// One ACP session = one engine thread. Turns the thread's events into `session/update`s (message
// and thought chunks, tool calls and their updates, plans) and its approval requests into
// `session/request_permission`, in the order the engine emitted them; replays stored history the
// same way for `session/load`.
import type { PermissionOption, RequestPermissionRequest, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { HistoryTurn } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import type { ApprovalDecision, ApprovalRequest, EventEnvelope, McpElicitationApprovalRequest, ThreadItem, TodoEntry, UserInputApprovalRequest } from '../../protocol/index.js';
import { ELICITATION_OPTIONS, planElicitation } from './elicitation.js';
import { planUserInput } from './user-input.js';
import { changeDiff, isToolItem, pendingToolCall, toolCallEnd, toolCallStart } from './tool-calls.js';

export interface SessionOutput {
  update(sessionId: string, update: SessionUpdate): Promise<void>;
  /** Asks the client; resolves with the chosen option id, or undefined when the client cancelled. */
  askPermission(sessionId: string, request: Omit<RequestPermissionRequest, 'sessionId'>): Promise<string | undefined>;
}

const OPTIONS: (PermissionOption & { decision: ApprovalDecision })[] = [
  { optionId: 'approve', name: 'Allow once', kind: 'allow_once', decision: 'approve' },
  { optionId: 'approve_for_session', name: 'Allow for this session', kind: 'allow_always', decision: 'approve_for_session' },
  { optionId: 'deny', name: 'Reject', kind: 'reject_once', decision: 'deny' },
];

/** Characters of a running command's output sent while it runs. */
const STREAMED_OUTPUT_LIMIT = 16_000;

function planEntries(items: readonly TodoEntry[]) {
  let current = false;
  return items.map((entry) => {
    if (entry.completed) return { content: entry.text, priority: 'medium' as const, status: 'completed' as const };
    const status = current ? ('pending' as const) : ('in_progress' as const);
    current = true;
    return { content: entry.text, priority: 'medium' as const, status };
  });
}

export class AcpSession {
  /** Tool calls already announced with `tool_call`. */
  private readonly announced = new Set<string>();
  /** Messages and thoughts streamed as deltas (their completed item adds nothing). */
  private readonly streamed = new Set<string>();
  /** A file change's diffs, taken before it applied. */
  private readonly diffs = new Map<string, ToolCallContent[]>();
  /** A running command's output so far (ACP replaces a tool call's content with each update). */
  private readonly output = new Map<string, string>();
  /** Updates go out one after another, in event order. */
  private queue: Promise<void> = Promise.resolve();
  prompting = false;

  constructor(
    readonly handle: ThreadHandle,
    private readonly out: SessionOutput,
  ) {}

  get id(): string {
    return this.handle.id;
  }

  private get cwd(): string {
    return this.handle.settings.cwd;
  }

  private send(update: SessionUpdate): void {
    this.queue = this.queue.then(() => this.out.update(this.id, update)).catch(() => {});
  }

  /** Resolves once every update queued so far is written. */
  flush(): Promise<void> {
    return this.queue;
  }

  onEvent(envelope: EventEnvelope): void {
    const event = envelope.event;
    switch (event.type) {
      case 'item.agent_message.delta':
        this.streamed.add(event.item_id);
        this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.delta }, messageId: event.item_id });
        return;
      case 'item.reasoning.delta':
        this.streamed.add(event.item_id);
        this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.delta }, messageId: event.item_id });
        return;
      case 'item.command_execution.output_delta': {
        const sofar = (this.output.get(event.item_id) ?? '') + event.delta;
        this.output.set(event.item_id, sofar);
        // Each update carries all of it, so a long output streams only its start; the rest comes with the end.
        if (this.announced.has(event.item_id) && sofar.length <= STREAMED_OUTPUT_LIMIT) {
          this.send({ sessionUpdate: 'tool_call_update', toolCallId: event.item_id, status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: sofar } }] });
        }
        return;
      }
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        if (envelope.turn_id === null) return;
        this.item(event.type, event.item);
        return;
      case 'approval.requested':
        this.ask(event.request);
        return;
      default:
        return;
    }
  }

  private item(phase: 'item.started' | 'item.updated' | 'item.completed', item: ThreadItem): void {
    if (item.type === 'todo_list') {
      this.send({ sessionUpdate: 'plan', entries: planEntries(item.items) });
      return;
    }
    if (phase === 'item.completed' && (item.type === 'agent_message' || item.type === 'reasoning')) {
      if (this.streamed.delete(item.id) || !item.text) return;
      this.send({ sessionUpdate: item.type === 'agent_message' ? 'agent_message_chunk' : 'agent_thought_chunk', content: { type: 'text', text: item.text }, messageId: item.id });
      return;
    }
    if (!isToolItem(item) || phase === 'item.updated') return;
    if (!this.announced.has(item.id)) {
      if (item.type === 'file_change' && phase === 'item.started') this.diffs.set(item.id, this.changeDiffs(item.changes));
      this.announced.add(item.id);
      this.send({ sessionUpdate: 'tool_call', ...toolCallStart(item, this.cwd, this.diffs.get(item.id)) });
    }
    if (phase === 'item.completed') {
      this.send({ sessionUpdate: 'tool_call_update', ...toolCallEnd(item, this.cwd, this.diffs.get(item.id)) });
      this.diffs.delete(item.id);
      this.output.delete(item.id);
    }
  }

  private changeDiffs(changes: readonly { path: string; kind: 'add' | 'delete' | 'update'; diff?: string }[]): ToolCallContent[] {
    return changes.map((change) => changeDiff(change, this.cwd)).filter((diff): diff is ToolCallContent => diff !== undefined);
  }

  private ask(request: ApprovalRequest): void {
    if (request.kind === 'mcp_elicitation') return this.elicit(request);
    if (request.kind === 'user_input') return this.askQuestion(request);
    const toolCall = pendingToolCall(request, this.cwd);
    if (request.kind === 'file_change') this.diffs.set(request.item_id, toolCall.content ?? []);
    if (!this.announced.has(toolCall.toolCallId)) {
      this.announced.add(toolCall.toolCallId);
      this.send({ sessionUpdate: 'tool_call', ...toolCall });
    }
    const options = OPTIONS.map(({ optionId, name, kind }) => ({ optionId, name, kind }));
    // Asked after the tool call it is about has been written.
    void this.queue
      .then(() => this.out.askPermission(this.id, { toolCall: { ...toolCall, content: toolCall.content ?? [] }, options }))
      .then(
        (chosen) => this.answer(request.id, chosen === undefined ? 'abort' : (OPTIONS.find((option) => option.optionId === chosen)?.decision ?? 'deny')),
        // A client that fails the request (or has gone) approved nothing.
        () => this.answer(request.id, 'abort'),
      );
  }

  /** A server's confirmation question as a permission request about the MCP call that raised it. */
  private elicit(request: McpElicitationApprovalRequest): void {
    const plan = planElicitation(request);
    if (!plan.ask) return this.answer(request.id, plan.answer.decision, plan.answer.feedback !== undefined ? { feedback: plan.answer.feedback } : {});
    void this.queue
      .then(() => this.out.askPermission(this.id, { toolCall: plan.toolCall, options: ELICITATION_OPTIONS }))
      .then(
        (chosen) => (chosen === 'accept' ? this.answer(request.id, 'approve', { content: plan.accept }) : this.answer(request.id, chosen === undefined ? 'abort' : 'deny')),
        () => this.answer(request.id, 'abort'),
      );
  }

  /** The model's question as a permission request whose options are its choices (user-input.ts). */
  private askQuestion(request: UserInputApprovalRequest): void {
    const plan = planUserInput(request);
    if (!plan.ask) return this.answer(request.id, plan.answer.decision, plan.answer.feedback !== undefined ? { feedback: plan.answer.feedback } : {});
    void this.queue
      .then(() => this.out.askPermission(this.id, { toolCall: plan.toolCall, options: plan.options }))
      .then(
        (chosen) => {
          const answer = plan.answer(chosen);
          this.answer(request.id, answer.decision, answer.content ? { content: answer.content } : {});
        },
        () => this.answer(request.id, 'abort'),
      );
  }

  private answer(requestId: string, decision: ApprovalDecision, options: { feedback?: string; content?: Record<string, unknown> } = {}): void {
    try {
      this.handle.answerApproval(requestId, decision, options);
    } catch {
      // The turn ended first (cancelled): the engine already resolved the request.
    }
  }

  /** Stored turns as the updates a live session would have sent. */
  replay(turns: readonly HistoryTurn[]): void {
    for (const turn of turns) {
      for (const item of turn.items) {
        if (item.type === 'user_message') {
          if (item.text) this.send({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: item.text }, messageId: item.id });
          continue;
        }
        if (item.type === 'agent_message' || item.type === 'reasoning') {
          if (!item.text) continue;
          this.send({ sessionUpdate: item.type === 'agent_message' ? 'agent_message_chunk' : 'agent_thought_chunk', content: { type: 'text', text: item.text }, messageId: item.id });
          continue;
        }
        if (item.type === 'todo_list') {
          this.send({ sessionUpdate: 'plan', entries: planEntries(item.items) });
          continue;
        }
        if (!isToolItem(item)) continue;
        const start = toolCallStart(item, this.cwd);
        const end = toolCallEnd(item, this.cwd);
        this.send({ sessionUpdate: 'tool_call', ...start, status: end.status, content: end.content });
      }
    }
  }
}
