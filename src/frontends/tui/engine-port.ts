// The TUI's session port over the real engine: one thread at a time (a /new, /resume or /fork
// swaps it), its events forwarded as they come. Events the engine emitted before the TUI
// subscribed (thread.started, the settings, the name, load warnings) and a resumed thread's
// history are played first, so the TUI sees every thread the same way however it was opened.
import type { Engine, ForkRequest, ResumeTarget, ThreadStartRequest } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import type { EventEnvelope, ThreadItem, UserInput } from '../../protocol/index.js';
import { ENGINE_COMMANDS, runEngineCommand } from './engine-commands.js';
import { EventQueue } from './event-queue.js';
import type { ApprovalAnswer, CommandResult, SessionEvent, SessionPort, SlashCommandSpec, ThreadBrowser, ThreadListing } from './session-port.js';

export type OpenHow = 'started' | 'resumed' | 'forked';

export interface EnginePortOptions {
  /** Loads the engine (lazily: the TUI's first frame is drawn before the engine's code is read). */
  engine: () => Promise<Engine>;
  /** How new, resumed and forked threads are loaded (flags, -c overrides, the process cwd). */
  request: ThreadStartRequest;
  /** The directory the picker's "this directory" means. */
  cwd: string;
}

/** A file change the session made, with the turn it belongs to (for /diff). */
export interface SessionChange {
  turnId: string | null;
  item: Extract<ThreadItem, { type: 'file_change' }>;
}

export class EnginePort implements SessionPort {
  private readonly queue = new EventQueue<SessionEvent>();
  readonly events: AsyncIterable<SessionEvent> = this.queue;
  readonly threads: ThreadBrowser;
  private handleNow: ThreadHandle | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Turn ids in order, and which turn each user message opened (Esc Esc forks before it). */
  private readonly turnOf = new Map<string, string>();
  private turnIds: string[] = [];
  /** Each turn's first user message (for /rewind's list). */
  readonly promptOf = new Map<string, string>();
  /** Steering messages sent and not delivered yet. */
  private readonly pendingSteers = new Set<string>();
  readonly changes: SessionChange[] = [];
  lastTurnId: string | undefined;
  /** The last thread the session had open and saved (for "rig resume ID" on the way out). */
  lastThreadId: string | undefined;
  private closed = false;
  private engineNow: Engine | undefined;
  private engineLoading: Promise<Engine> | undefined;
  /** The session's first thread being opened (begin); every operation waits for it. */
  private starting: Promise<unknown> = Promise.resolve();

  constructor(readonly options: EnginePortOptions) {
    this.threads = new EngineThreadBrowser(this, options.cwd);
  }

  loadEngine(): Promise<Engine> {
    this.engineLoading ??= this.options.engine().then((engine) => (this.engineNow = engine));
    return this.engineLoading;
  }

  /** The engine, once loaded (it is whenever a thread is open). */
  get engine(): Engine {
    if (!this.engineNow) throw new Error('the engine is not loaded yet');
    return this.engineNow;
  }

  /** Opens the first thread in the background; operations wait for it. Rejects as `open` does. */
  begin(open: () => Promise<unknown>): Promise<unknown> {
    this.starting = open();
    return this.starting;
  }

  private async ready(): Promise<ThreadHandle> {
    await this.starting;
    return this.handle;
  }

  /** The open thread, if any (none while the start-up picker is open). */
  get current(): ThreadHandle | undefined {
    return this.handleNow;
  }

  get handle(): ThreadHandle {
    if (!this.handleNow) throw new Error('no thread is open in this session');
    return this.handleNow;
  }

  /** Opens a thread: a new one, or a stored one resumed or forked. */
  async open(how: 'new' | 'resume' | 'fork', target?: ResumeTarget | string, fork: Partial<ForkRequest> = {}): Promise<ThreadHandle> {
    const engine = await this.loadEngine();
    const request = this.options.request;
    const handle =
      how === 'new' ? await engine.startThread(request) : how === 'resume' ? await engine.resumeThread(target!, request) : await engine.forkThread(target!, { ...request, ...fork });
    await this.attach(handle, how === 'new' ? 'started' : how === 'resume' ? 'resumed' : 'forked');
    return handle;
  }

  /** Makes `handle` the session's thread; the one before it is closed (and saved). */
  async attach(handle: ThreadHandle, how: OpenHow): Promise<void> {
    const previous = this.handleNow;
    this.unsubscribe?.();
    this.handleNow = handle;
    this.lastThreadId = handle.info.rolloutPath ? handle.id : undefined;
    this.turnOf.clear();
    this.promptOf.clear();
    this.turnIds = [];
    this.pendingSteers.clear();
    this.changes.length = 0;
    this.lastTurnId = undefined;
    if (previous && previous !== handle) await previous.close();
    const push = (event: SessionEvent) => this.queue.push(event);
    push(how === 'resumed' ? { type: 'thread.resumed', thread_id: handle.id } : { type: 'thread.started', thread_id: handle.id });
    push({ type: 'thread.settings_updated', settings: handle.settings });
    if (handle.name) push({ type: 'thread.name_updated', thread_name: handle.name });
    if (how !== 'started') this.replayHistory(handle);
    for (const warning of handle.info.warnings) push({ type: 'item.completed', item: { id: handle.newItemId(), type: 'error', message: warning } });
    this.unsubscribe = handle.subscribe((envelope) => this.forward(envelope));
  }

  private replayHistory(handle: ThreadHandle): void {
    const read = this.engine.readThread(handle.id, { includeTurns: true });
    for (const turn of read.turns ?? []) {
      if (turn.id) this.turnIds.push(turn.id);
      for (const item of turn.items) {
        if (item.type === 'user_message' && turn.id) this.noteUserMessage(item.id, item.text, turn.id);
        this.queue.push({ type: 'item.completed', item });
      }
    }
    const usage = handle.usage;
    if (usage.input_tokens + usage.output_tokens > 0) this.queue.push({ type: 'usage.updated', last: usage, total: usage });
  }

  private noteUserMessage(itemId: string, text: string, turnId: string): void {
    this.turnOf.set(itemId, turnId);
    if (!this.promptOf.has(turnId)) this.promptOf.set(turnId, text);
  }

  /** The thread's turns, oldest first. */
  get turns(): readonly string[] {
    return this.turnIds;
  }

  /** Continues in a fork of the thread that ends just before `turnId` (a new thread when it is the first). */
  async forkBefore(turnId: string): Promise<void> {
    const index = this.turnIds.indexOf(turnId);
    if (index < 0) throw new Error(`turn ${turnId} is not in this thread`);
    const handle = await this.ready();
    if (handle.isRunning) await handle.interrupt();
    const before = index > 0 ? this.turnIds[index - 1] : undefined;
    if (before) await this.open('fork', handle.id, { atTurn: before });
    else await this.open('new');
  }

  private forward(envelope: EventEnvelope): void {
    const event = envelope.event;
    const turnId = envelope.turn_id;
    switch (event.type) {
      case 'turn.started':
        if (turnId) {
          this.turnIds.push(turnId);
          this.lastTurnId = turnId;
        }
        break;
      case 'item.completed':
        if (event.item.type === 'user_message' && turnId) this.noteUserMessage(event.item.id, event.item.text, turnId);
        if (event.item.type === 'file_change' && event.item.status === 'completed') this.changes.push({ turnId, item: event.item });
        break;
      case 'steer.delivered':
        this.pendingSteers.delete(event.steer_id);
        break;
      case 'turn.completed':
      case 'turn.failed':
      case 'turn.interrupted':
        // The TUI puts steers the turn did not take back in its queue (or the composer) and sends
        // them itself, so the engine must not also carry them into the next turn.
        for (const steerId of this.pendingSteers) this.handleNow?.retractSteer(steerId);
        this.pendingSteers.clear();
        break;
      case 'thread.closed':
        // The TUI never sees a thread close: swapping threads closes the old one, leaving ends the session.
        return;
    }
    this.queue.push(event);
  }

  async submit(input: UserInput): Promise<void> {
    (await this.ready()).startTurn(input);
  }

  async steer(steerId: string, input: UserInput): Promise<void> {
    const handle = await this.ready();
    if (!handle.isRunning) {
      // The turn ended while the message was typed: it starts the next one instead.
      this.queue.push({ type: 'steer.delivered', steer_id: steerId, item_id: '' });
      handle.startTurn(input);
      return;
    }
    this.pendingSteers.add(steerId);
    handle.steer(input, undefined, { steerId });
  }

  async retractSteer(steerId: string): Promise<boolean> {
    const retracted = (await this.ready()).retractSteer(steerId);
    if (retracted) this.pendingSteers.delete(steerId);
    return retracted;
  }

  async interrupt(): Promise<void> {
    await (await this.ready()).interrupt();
  }

  async answerApproval(requestId: string, answer: ApprovalAnswer): Promise<void> {
    (await this.ready()).answerApproval(requestId, answer.decision, { ...(answer.feedback ? { feedback: answer.feedback } : {}), ...(answer.content ? { content: answer.content } : {}) });
  }

  async editMessage(userMessageId: string, input: UserInput): Promise<void> {
    const turnId = this.turnOf.get(userMessageId);
    if (!turnId) throw new Error('that message is not in this thread any more');
    // The fork keeps the turns before the edited message; editing the first one starts afresh.
    await this.forkBefore(turnId);
    this.handle.startTurn(input);
  }

  commands(): readonly SlashCommandSpec[] {
    return ENGINE_COMMANDS;
  }

  async runCommand(name: string, args: string): Promise<CommandResult> {
    await this.starting;
    return runEngineCommand(this, name, args);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      // A thread still being opened is opened first, so closing it saves it and ends its processes.
      await this.starting.catch(() => undefined);
      this.unsubscribe?.();
      await this.engineNow?.close();
    } finally {
      this.queue.end();
    }
  }
}

class EngineThreadBrowser implements ThreadBrowser {
  constructor(
    private readonly port: EnginePort,
    readonly cwd: string,
  ) {}

  async list(options: { all: boolean }): Promise<ThreadListing[]> {
    const rows = await (await this.port.loadEngine()).listThreads({ ...(options.all ? {} : { cwd: this.cwd }), limit: 500 });
    return rows.map((row) => ({ id: row.id, title: row.title, cwd: row.cwd, updatedAt: row.updatedAt, ...(row.model ? { model: row.model } : {}) }));
  }

  async text(id: string): Promise<string> {
    const read = (await this.port.loadEngine()).readThread(id, { includeTurns: true });
    const parts: string[] = [];
    for (const turn of read.turns ?? []) {
      for (const item of turn.items) if (item.type === 'user_message' || item.type === 'agent_message') parts.push(item.text);
    }
    return parts.join('\n');
  }
}
