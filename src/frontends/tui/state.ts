// What the TUI knows about the session, updated from its events: the transcript (for the pager
// and an explicit reflow), the items still in progress (for the live region), the approvals
// waiting, the queues, the status line's figures. Finished items are rendered once here, into
// `pendingHistory`, which the next frame writes to the scrollback.
import type { CommandExecutionItem, ThreadItem, ThreadSettingsView, TodoListItem, TokenUsage, UserInput } from '../../protocol/index.js';
import type { SessionEvent } from './session-port.js';
import type { SessionInfo } from './view/status-line.js';
import { sanitize, serialize, type Capabilities, type Line } from './text/styled.js';
import { MarkdownStream, type MarkdownContext } from './view/markdown.js';
import { renderItem, renderUserMessage, type ItemContext } from './view/items.js';
import { ApprovalModal } from './view/approval.js';
import { theme } from './view/theme.js';
import { wrap } from './text/wrap.js';

export type TranscriptEntry = { kind: 'item'; item: ThreadItem } | { kind: 'note'; render: (context: ItemContext) => Line[] };

export interface RunningItem {
  item: ThreadItem;
  startedAt: number;
  output: string;
}

export interface QueuedInput {
  id: string;
  kind: 'steer' | 'follow-up';
  input: UserInput;
}

export interface UserMessageRef {
  id: string | undefined;
  text: string;
  images?: string[];
}

export interface StateOptions {
  caps: Capabilities;
  width: () => number;
  now: () => number;
}

/** The status line's view of the thread's settings. */
export function infoFromSettings(settings: ThreadSettingsView): SessionInfo {
  return {
    model: settings.model,
    harness: settings.harness,
    ...(settings.reasoning_effort ? { reasoning_effort: settings.reasoning_effort } : {}),
    sandbox: settings.yolo ? 'no sandbox' : settings.sandbox_mode,
    approval_policy: settings.yolo ? 'never asks' : settings.approval_policy,
    cwd: settings.cwd,
    ...(settings.context_window ? { context_window: settings.context_window } : {}),
  };
}

export class TuiState {
  info: SessionInfo = {};
  lastUsage: TokenUsage | undefined;
  totalUsage: TokenUsage | undefined;
  turn: { startedAt: number } | undefined;
  readonly transcript: TranscriptEntry[] = [];
  /** Serialized lines for the scrollback, written by the next frame. */
  pendingHistory: string[] = [];
  readonly running = new Map<string, RunningItem>();
  readonly streams = new Map<string, { stream: MarkdownStream; started: boolean }>();
  reasoning: { id: string; text: string } | undefined;
  plan: TodoListItem | undefined;
  readonly approvals: ApprovalModal[] = [];
  queue: QueuedInput[] = [];
  notice: { text: string; style: 'info' | 'warning' | 'error'; until: number } | undefined;
  retry: string | undefined;
  /** User messages of this session in order (for Esc Esc). */
  readonly userMessages: UserMessageRef[] = [];
  /** Prompts the TUI printed itself, waiting for the engine's user_message item to name them. */
  private readonly echoed: UserMessageRef[] = [];
  private gap = false;
  /** Set by events the app must act on (turn ended, approval waiting); read and cleared by the app. */
  turnEnded: 'completed' | 'failed' | 'interrupted' | undefined;
  approvalArrived = false;

  constructor(private readonly options: StateOptions) {}

  itemContext(overrides: Partial<ItemContext> = {}): ItemContext {
    return { width: this.options.width(), mode: 'history', hyperlinks: this.options.caps.hyperlinks, expanded: false, ...overrides };
  }

  private markdownContext(): MarkdownContext {
    return { width: this.options.width(), mode: 'history', hyperlinks: this.options.caps.hyperlinks };
  }

  /** Adds lines to the scrollback (a blank line before each new block). */
  commit(lines: readonly Line[], continuing = false): void {
    if (lines.length === 0) return;
    if (this.gap && !continuing) this.pendingHistory.push('');
    for (const line of lines) this.pendingHistory.push(serialize(line, this.options.caps));
    this.gap = lines[lines.length - 1]!.length > 0;
  }

  note(text: string, style: 'info' | 'warning' | 'error' = 'info'): void {
    const render = (context: ItemContext): Line[] => {
      const styled = style === 'error' ? theme.error : style === 'warning' ? theme.warning : theme.dim;
      return sanitize(text)
        .split('\n')
        .flatMap((line, index) =>
          wrap([{ text: line, style: styled }], {
            width: context.width,
            mode: context.mode,
            first: [{ text: index === 0 ? (style === 'error' ? '■ ' : '• ') : '  ', style: styled }],
            rest: [{ text: '  ' }],
          }),
        );
    };
    this.transcript.push({ kind: 'note', render });
    this.commit(render(this.itemContext()));
  }

  /** Lines already rendered (help text, command output) as a transcript note. */
  noteLines(render: (context: ItemContext) => Line[]): void {
    this.transcript.push({ kind: 'note', render });
    this.commit(render(this.itemContext()));
  }

  flash(text: string, now: number, style: 'info' | 'warning' | 'error' = 'info', ms = 2500): void {
    this.notice = { text, style, until: now + ms };
  }

  /** The prompt the user just sent, printed at once (before the engine echoes it). */
  echoUserMessage(input: UserInput): void {
    const ref: UserMessageRef = { id: undefined, text: input.text, ...(input.images ? { images: input.images } : {}) };
    this.echoed.push(ref);
    this.userMessages.push(ref);
    const item: ThreadItem = { id: '', type: 'user_message', text: input.text, ...(input.images ? { images: input.images } : {}) };
    this.transcript.push({ kind: 'item', item });
    this.commit(renderUserMessage(input.text, input.images, this.itemContext()));
  }

  apply(event: SessionEvent): void {
    const now = this.options.now();
    switch (event.type) {
      case 'thread.started':
      case 'thread.resumed':
        if (this.info.thread_id && this.info.thread_id !== event.thread_id) {
          // Another thread (/new, /resume, /fork): its messages, figures and name are its own.
          this.userMessages.length = 0;
          this.lastUsage = undefined;
          this.totalUsage = undefined;
          this.info = {};
        }
        this.info = { ...this.info, thread_id: event.thread_id };
        return;
      case 'thread.settings_updated': {
        // A settings event is whole: what it leaves out (an effort) is unset now.
        const { thread_id, thread_name } = this.info;
        this.info = { ...(thread_id ? { thread_id } : {}), ...(thread_name ? { thread_name } : {}), ...infoFromSettings(event.settings) };
        return;
      }
      case 'thread.name_updated':
        this.info = { ...this.info, thread_name: event.thread_name };
        return;
      case 'turn.started':
        this.turn = { startedAt: now };
        this.retry = undefined;
        return;
      case 'turn.completed':
        this.totalUsage = event.usage;
        this.endTurn('completed');
        return;
      case 'turn.failed':
        this.note(`turn failed: ${event.error.message}`, 'error');
        this.endTurn('failed');
        return;
      case 'turn.interrupted':
        this.note(`interrupted${event.reason ? ` (${event.reason})` : ''}`, 'warning');
        this.endTurn('interrupted');
        return;
      case 'usage.updated':
        this.lastUsage = event.last;
        this.totalUsage = event.total;
        return;
      case 'model.retry':
        this.retry = `retrying (${event.attempt}/${event.max_attempts}) in ${Math.round(event.delay_ms / 1000)}s: ${sanitize(event.reason)}`;
        return;
      case 'error':
        this.note(event.message, 'error');
        return;
      case 'approval.requested':
        this.approvals.push(new ApprovalModal(event.request, this.info.sandbox));
        this.approvalArrived = true;
        return;
      case 'approval.resolved': {
        // Answered elsewhere, or dropped because its turn ended: the question is gone.
        const index = this.approvals.findIndex((modal) => modal.request.id === event.request_id);
        if (index >= 0) this.approvals.splice(index, 1);
        return;
      }
      case 'steer.delivered': {
        const index = this.queue.findIndex((queued) => queued.id === event.steer_id);
        if (index === -1) return;
        const [delivered] = this.queue.splice(index, 1);
        this.echoUserMessage(delivered!.input);
        return;
      }
      case 'item.agent_message.delta': {
        const entry = this.streamFor(event.item_id);
        this.streamedText.set(event.item_id, (this.streamedText.get(event.item_id) ?? '') + event.delta);
        entry.stream.append(sanitize(event.delta));
        this.commitStream(entry);
        return;
      }
      case 'item.reasoning.delta':
        if (this.reasoning?.id !== event.item_id) this.reasoning = { id: event.item_id, text: '' };
        this.reasoning.text += event.delta;
        return;
      case 'item.command_execution.output_delta': {
        const running = this.running.get(event.item_id);
        if (running) running.output = (running.output + event.delta).slice(-65_536);
        return;
      }
      case 'item.started':
      case 'item.updated':
        this.progress(event.item, now);
        return;
      case 'item.completed':
        this.complete(event.item);
        return;
    }
  }

  private endTurn(how: 'completed' | 'failed' | 'interrupted'): void {
    // Whatever was still streaming is final now.
    for (const [id, entry] of this.streams) {
      this.commit(entry.stream.finish(), entry.started);
      this.streams.delete(id);
    }
    for (const [id, running] of this.running) {
      if (running.item.type === 'command_execution') this.complete({ ...running.item, aggregated_output: running.output, status: 'failed' });
      this.running.delete(id);
    }
    if (this.plan) this.commitPlan();
    this.reasoning = undefined;
    this.turn = undefined;
    this.approvals.length = 0;
    this.turnEnded = how;
  }

  private streamFor(id: string): { stream: MarkdownStream; started: boolean } {
    let entry = this.streams.get(id);
    if (!entry) {
      entry = { stream: new MarkdownStream(() => this.markdownContext()), started: false };
      this.streams.set(id, entry);
    }
    return entry;
  }

  private commitStream(entry: { stream: MarkdownStream; started: boolean }): void {
    const lines = entry.stream.take();
    if (lines.length === 0) return;
    this.commit(lines, entry.started);
    entry.started = true;
  }

  private progress(item: ThreadItem, now: number): void {
    switch (item.type) {
      case 'agent_message': {
        // Engines that send whole texts in updates instead of deltas: append what is new.
        const entry = this.streamFor(item.id);
        const received = this.streamedText.get(item.id) ?? '';
        if (item.text.startsWith(received) && item.text.length > received.length) {
          entry.stream.append(sanitize(item.text.slice(received.length)));
          this.streamedText.set(item.id, item.text);
          this.commitStream(entry);
        }
        return;
      }
      case 'reasoning':
        this.reasoning = { id: item.id, text: item.text };
        return;
      case 'todo_list':
        this.plan = item;
        return;
      case 'user_message':
        this.nameUserMessage(item);
        return;
      case 'command_execution':
      case 'file_change':
      case 'mcp_tool_call':
      case 'web_search': {
        const running = this.running.get(item.id);
        if (running) {
          running.item = item;
          if (item.type === 'command_execution' && item.aggregated_output.length > running.output.length) running.output = item.aggregated_output;
        } else {
          this.running.set(item.id, { item, startedAt: now, output: item.type === 'command_execution' ? item.aggregated_output : '' });
        }
        return;
      }
      default:
        return;
    }
  }

  private readonly streamedText = new Map<string, string>();

  private nameUserMessage(item: Extract<ThreadItem, { type: 'user_message' }>): boolean {
    const echoed = this.echoed.findIndex((ref) => ref.text === item.text);
    if (echoed === -1) return false;
    this.echoed[echoed]!.id = item.id;
    this.echoed.splice(echoed, 1);
    return true;
  }

  private complete(item: ThreadItem): void {
    this.running.delete(item.id);
    switch (item.type) {
      case 'user_message':
        if (this.nameUserMessage(item) || this.userMessages.some((ref) => ref.id === item.id)) return;
        this.userMessages.push({ id: item.id, text: item.text, ...(item.images ? { images: item.images } : {}) });
        break;
      case 'agent_message': {
        const entry = this.streams.get(item.id);
        this.transcript.push({ kind: 'item', item });
        this.streamedText.delete(item.id);
        if (entry) {
          this.streams.delete(item.id);
          this.commit(entry.stream.finish(), entry.started);
          return;
        }
        this.commit(renderItem(item, this.itemContext()));
        return;
      }
      case 'reasoning':
        if (this.reasoning?.id === item.id) this.reasoning = undefined;
        break;
      case 'todo_list':
        this.plan = item;
        this.commitPlan();
        return;
    }
    this.transcript.push({ kind: 'item', item });
    this.commit(renderItem(item, this.itemContext()));
  }

  private commitPlan(): void {
    const plan = this.plan!;
    this.plan = undefined;
    this.transcript.push({ kind: 'item', item: plan });
    this.commit(renderItem(plan, this.itemContext()));
  }

  get working(): boolean {
    return this.turn !== undefined || this.running.size > 0;
  }

  /** Commands still running (for the live region). */
  runningCommands(): { item: CommandExecutionItem; startedAt: number; output: string }[] {
    const out: { item: CommandExecutionItem; startedAt: number; output: string }[] = [];
    for (const running of this.running.values()) if (running.item.type === 'command_execution') out.push({ item: running.item, startedAt: running.startedAt, output: running.output });
    return out;
  }
}
