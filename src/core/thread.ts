// The turn loop of one thread: it owns the history, runs one turn at a time, and emits every event
// of the thread in an envelope (thread id, turn id, sequence number, time). What it samples with —
// model client, tools, request shaping, capabilities — is its runtime, which settings changes
// replace between turns. Front ends never touch this class: they drive a ThreadHandle.
import type {
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
  ContentPart,
  ConversationItem,
  EventEnvelope,
  ThreadEvent,
  TokenUsage,
  UserInput,
} from '../protocol/index.js';
import { addUsage, emptyUsage } from '../protocol/index.js';
import type { ModelClient, ModelRequest } from '../model/types.js';
import { OUTPUT_LIMIT_NOTICE } from '../model/index.js';
import { inputLengthProblem } from './input-limit.js';
import type { ToolCapabilities, TurnServices } from '../tools/spec.js';
import type { StartedTurn, ThreadOptions, ThreadRuntime, TurnFrame, TurnOptions, TurnResult } from './thread-types.js';
import { ApprovalDesk } from './approval-desk.js';
import { SteeringQueue } from './steering.js';
import { developerMessage, interruptionMessage, userMessage } from './turn-messages.js';
import { EventHub, type EnvelopeListener } from './event-hub.js';
import { noopRecorder, type ThreadRecorder } from './recorder.js';
import { runStep, type StepOutcome } from './step.js';
import { TurnState } from './turn-state.js';
import { TokenTracker } from '../context/tokens.js';
import { ThreadGoals } from './goals/thread-goals.js';
import { goalUpdateToolName, recordGoalChange } from './goals/thread-wiring.js';

export type { StartedTurn, ThreadOptions, ThreadRuntime, TurnOptions, TurnResult } from './thread-types.js';

/**
 * Every front end's input passes through startTurn or steer: one over Codex's limit is refused
 * before it is recorded or sent, so it never becomes a turn.
 */
function assertInputLength(input: UserInput): void {
  const tooLong = inputLengthProblem(input.text);
  if (tooLong) throw new Error(tooLong);
}

export class Thread {
  readonly id: string;
  readonly history: ConversationItem[];
  usage: TokenUsage = emptyUsage();
  lastRequestUsage: TokenUsage | undefined;
  private runtime: ThreadRuntime;
  private pendingRuntime: ThreadRuntime | undefined;
  private readonly hub = new EventHub();
  /** Steered input waiting for the next model request; `steerId` when the front end named it. */
  private readonly pendingInput = new SteeringQueue();
  private readonly approvals = new ApprovalDesk((event) => this.emit(event));
  private readonly threadState = new Map<string, unknown>();
  private pendingImages: ContentPart[] = [];
  private turnController: AbortController | undefined;
  private activeTurn: { id: string; done: Promise<TurnResult> } | undefined;
  private itemCounter = 0;
  /** User messages have ids of their own, so the item_N numbering stays Codex's (exec --json). */
  private userItemCounter = 0;
  private turnCounter: number;
  private seq = 0;
  private cwdNow: string;
  /** Bumped by relocate: a running turn's tools pick up the new directory and runtime. */
  private workspaceGeneration = 0;
  private readonly tokens = new TokenTracker();
  /** The thread's goal (core/goals): its tools, the app server and the TUI change it. */
  readonly goals: ThreadGoals;

  constructor(private readonly options: ThreadOptions) {
    this.id = options.id;
    this.history = [...(options.history ?? [])];
    this.runtime = options.runtime;
    this.turnCounter = options.firstTurn ?? 0;
    this.cwdNow = options.cwd;
    this.goals = new ThreadGoals(this.id, options.goal, { changed: (goal) => recordGoalChange(this, goal) });
  }

  get recorder(): ThreadRecorder {
    return this.options.recorder ?? noopRecorder;
  }

  get isRunning(): boolean {
    return this.activeTurn !== undefined;
  }

  /** The running turn's id, if any. */
  get currentTurnId(): string | undefined {
    return this.activeTurn?.id;
  }

  /** The runtime the next turn will use. */
  get nextRuntime(): ThreadRuntime {
    return this.pendingRuntime ?? this.runtime;
  }

  subscribe(listener: EnvelopeListener): () => void {
    return this.hub.subscribe(listener);
  }

  /** Emit an event of the running turn (or, between turns, of the thread). */
  emit(event: ThreadEvent): void {
    this.emitFor(this.activeTurn?.id ?? null, event);
  }

  /** Emit with an explicit turn: null for thread-level events. */
  emitFor(turnId: string | null, event: ThreadEvent): void {
    const envelope: EventEnvelope = { thread_id: this.id, turn_id: turnId, seq: this.seq++, timestamp_ms: Date.now(), event };
    this.hub.emit(envelope);
  }

  newItemId(): string {
    return `item_${this.itemCounter++}`;
  }

  /** Use this runtime from the next turn on (at once when no turn runs). */
  reconfigure(runtime: ThreadRuntime): void {
    if (this.activeTurn) this.pendingRuntime = runtime;
    else this.runtime = runtime;
  }

  /**
   * Move the thread to another working directory at once, even in the middle of a turn (entering
   * or leaving a worktree): the turn's next tool calls and requests use `cwd` and `runtime`, which
   * must have been built for it (sandbox roots, prompt). A settings change waiting for the turn's
   * end is dropped: `runtime` was built from the newest settings.
   */
  relocate(cwd: string, runtime: ThreadRuntime): void {
    this.cwdNow = cwd;
    this.runtime = runtime;
    this.pendingRuntime = undefined;
    this.workspaceGeneration++;
  }

  /** @internal TurnState rebuilds its tools' capabilities when this changes. */
  get workspaceVersion(): number {
    return this.workspaceGeneration;
  }

  /**
   * Add input to the running turn; it reaches the model with the next request. With `steerId`,
   * `steer.delivered` says when it does, and retractSteer can take it back until then.
   */
  steer(input: UserInput, expectedTurnId?: string, steerId?: string): string {
    const active = this.activeTurn;
    if (!active) throw new Error('no turn is running on this thread to steer; start a turn instead');
    assertInputLength(input);
    if (expectedTurnId !== undefined && expectedTurnId !== active.id) {
      throw new Error(`turn ${expectedTurnId} is not the running turn (${active.id} is); steer the running turn or start a new one`);
    }
    this.pendingInput.add(input, steerId);
    return active.id;
  }

  /** Take back a steering message not handed to the model yet; false when it was (or is unknown). */
  retractSteer(steerId: string): boolean {
    return this.pendingInput.retract(steerId);
  }

  /** Stop the running turn: its model request and the commands it waits on. Resolves once it has ended. */
  async interrupt(): Promise<void> {
    const active = this.activeTurn;
    this.turnController?.abort();
    this.approvals.dropAll();
    if (active) await active.done;
  }

  /** `feedback` goes with `deny`: the person's instructions, sent to the model with the refusal. */
  answerApproval(requestId: string, decision: ApprovalDecision, feedback?: string, content?: Record<string, unknown>): void {
    this.approvals.answer(requestId, decision, feedback, content);
    if (decision === 'abort') void this.interrupt();
  }

  /** Appends items to history and the rollout. */
  append(...items: ConversationItem[]): void {
    for (const item of items) {
      this.history.push(item);
      this.recorder.item(item);
    }
  }

  /** Replaces the whole history (compaction). */
  replaceHistory(items: ConversationItem[], summary: string): void {
    this.history.splice(0, this.history.length, ...items);
    this.tokens.reset();
    this.recorder.compacted({ summary, replacement: items });
  }

  buildRequest(extra: Partial<ModelRequest> = {}): ModelRequest {
    const runtime = this.runtime;
    const request: ModelRequest = {
      ...runtime.requestDefaults,
      model: runtime.model,
      instructions: runtime.instructions,
      input: this.history,
      tools: runtime.advertisedTools?.(this.threadState) ?? runtime.tools.definitions(),
      promptCacheKey: this.id,
      sessionId: this.id,
      ...extra,
    };
    return runtime.shapeRequest ? runtime.shapeRequest(request) : request;
  }

  get client(): ModelClient {
    return this.runtime.client;
  }

  /** Start a turn; the id is known at once, the result when `done` settles. */
  startTurn(input: UserInput, turnOptions: TurnOptions = {}): StartedTurn {
    assertInputLength(input);
    const frame = turnOptions.frame;
    if (frame) return this.beginTurn((turn, signal) => this.framed(frame, turn, signal, () => this.promptAndLoop(input, turn, signal, turnOptions)));
    return this.beginTurn((turn, signal) => this.promptAndLoop(input, turn, signal, turnOptions));
  }

  private async framed(frame: TurnFrame, turn: TurnState, signal: AbortSignal, body: () => Promise<TurnResult>): Promise<TurnResult> {
    frame.started?.(turn.id);
    let result: TurnResult | undefined;
    try {
      result = await body();
      return result;
    } finally {
      frame.finished?.(turn.id, result ?? { status: signal.aborted ? 'interrupted' : 'failed', usage: this.usage });
    }
  }

  private async promptAndLoop(input: UserInput, turn: TurnState, signal: AbortSignal, turnOptions: TurnOptions): Promise<TurnResult> {
    if (this.history.length === 0 && this.options.initialContext) this.append(...this.options.initialContext);
    // Waits only when a hook runs: steering right after startTurn must still reach the second request.
    const pending = turn.extension.beforePrompt?.(input);
    const prompt = pending instanceof Promise ? await pending : pending;
    if (prompt?.blocked !== undefined) return { status: 'failed', error: prompt.blocked, usage: this.usage };
    if (prompt) this.append(...prompt.items);
    if (turnOptions.context?.length) this.append(...turnOptions.context);
    this.appendUserInput(input);
    return this.loop(turn, signal, turnOptions);
  }

  /** startTurn and its result; an input over the length limit gives a failed result instead of throwing. */
  runTurn(input: UserInput, turnOptions: TurnOptions = {}): Promise<TurnResult> {
    const tooLong = inputLengthProblem(input.text);
    if (tooLong) return Promise.resolve({ status: 'failed', error: tooLong, usage: this.usage });
    return this.startTurn(input, turnOptions).done;
  }

  /** Compaction as a turn of its own: started, the context_compaction item, then completed or failed. */
  startCompaction(): StartedTurn {
    return this.beginTurn(async () => {
      const compact = this.runtime.compact;
      if (!compact) return { status: 'failed', error: 'this thread has no compaction configured', usage: this.usage };
      return compact(this);
    });
  }

  private beginTurn(body: (turn: TurnState, signal: AbortSignal) => Promise<TurnResult>): StartedTurn {
    if (this.activeTurn) throw new Error(`turn ${this.activeTurn.id} is already running on this thread; steer or interrupt it`);
    if (this.pendingRuntime) {
      this.runtime = this.pendingRuntime;
      this.pendingRuntime = undefined;
    }
    const controller = new AbortController();
    this.turnController = controller;
    const turnId = `turn_${this.turnCounter++}`;
    let resolveDone!: (result: TurnResult) => void;
    const done = new Promise<TurnResult>((resolve) => (resolveDone = resolve));
    this.activeTurn = { id: turnId, done };
    const extension = this.options.extensions?.beginTurn(turnId, controller.signal) ?? {};
    const turn = new TurnState(this, controller.signal, turnId, this.options.canAskApproval ?? true, extension);
    this.recorder.turnStarted({ turn_id: turnId, cwd: this.cwdNow, model: this.runtime.model, ...this.runtime.turnContext });
    this.emit({ type: 'turn.started' });
    this.goals.roundStarted();
    void (async () => {
      let result: TurnResult;
      try {
        result = await body(turn, controller.signal);
      } catch (error) {
        result = controller.signal.aborted
          ? { status: 'interrupted', usage: this.usage }
          : { status: 'failed', error: error instanceof Error ? error.message : String(error), usage: this.usage };
      }
      if (controller.signal.aborted && result.status !== 'failed') result = { ...result, status: 'interrupted' };
      try {
        await extension.end?.(result);
      } catch (error) {
        this.emit({ type: 'item.completed', item: { id: this.newItemId(), type: 'error', message: `ending the turn: ${(error as Error).message}` } });
      }
      this.finishTurn(turn, turnId, result);
      this.turnController = undefined;
      this.activeTurn = undefined;
      if (this.pendingRuntime) {
        this.runtime = this.pendingRuntime;
        this.pendingRuntime = undefined;
      }
      resolveDone(result);
    })();
    return { turnId, done };
  }

  private finishTurn(turn: TurnState, turnId: string, result: TurnResult): void {
    turn.finishPlan();
    this.goals.turnEnded(result.status);
    // Approvals still open belong to this turn and can no longer be answered.
    this.approvals.dropAll();
    if (result.status === 'completed') {
      this.emit({ type: 'turn.completed', usage: this.usage });
    } else if (result.status === 'failed') {
      this.emit({ type: 'turn.failed', error: { message: result.error ?? 'turn failed' } });
    } else {
      this.recordInterruption();
      this.emit({ type: 'turn.interrupted', reason: 'interrupted by the user' });
    }
    this.recorder.turnEnded({ turn_id: turnId, status: result.status, usage: this.usage, ...(result.error ? { error: result.error } : {}) });
    this.recorder.flush();
  }

  private async loop(turn: TurnState, signal: AbortSignal, turnOptions: TurnOptions): Promise<TurnResult> {
    const maxSteps = this.runtime.maxTurnSteps;
    let lastAgentMessage: string | undefined;
    let overflowRetried = false;
    for (let step = 0; ; step++) {
      if (maxSteps !== undefined && step >= maxSteps) {
        return {
          status: 'failed',
          error: `turn stopped after ${maxSteps} model requests without finishing (max_turn_steps = ${maxSteps}); raise it with -c max_turn_steps=N or send a new prompt to continue`,
          usage: this.usage,
        };
      }
      this.drainSteering();
      for (const note of this.goals.takeNotes()) this.append(developerMessage(note));
      await this.maybeAutoCompact();
      const request = this.buildRequest(turnOptions.outputSchema ? { outputSchema: turnOptions.outputSchema } : {});
      this.goals.requestStarting();
      const hooks = { ...turn.stepHooks(), ...(this.runtime.warmUp ? { answerStarted: this.runtime.warmUp } : {}) };
      const outcome: StepOutcome = await runStep(this.runtime.client, request, this.runtime.tools, hooks, signal);
      this.recorder.modelResponse({ turn_id: turn.id, step, events: outcome.events });
      this.append(...outcome.items);
      if (outcome.usage) {
        this.tokens.recordUsage(outcome.usage, this.history.length);
        this.lastRequestUsage = outcome.usage;
        this.usage = addUsage(this.usage, outcome.usage);
        this.emit({ type: 'usage.updated', last: outcome.usage, total: this.usage });
        this.goals.accountUsage(outcome.usage);
      }
      if (outcome.stopReason === 'max_tokens') this.emit({ type: 'item.completed', item: { id: this.newItemId(), type: 'error', message: OUTPUT_LIMIT_NOTICE } });
      for (const item of outcome.items) {
        if (item.type === 'message' && item.role === 'assistant') {
          const text = item.content.map((part) => ('text' in part ? part.text : '')).join('');
          if (text.trim() !== '') lastAgentMessage = text;
        }
      }
      this.flushImages();
      if (signal.aborted) return { status: 'interrupted', usage: this.usage };
      const hookStop = turn.extension.stopReason?.();
      if (hookStop !== undefined) {
        this.emit({ type: 'item.completed', item: { id: this.newItemId(), type: 'error', message: hookStop } });
        return { status: 'completed', ...(lastAgentMessage !== undefined ? { lastAgentMessage } : {}), usage: this.usage };
      }
      if (outcome.error) {
        if (outcome.error.kind === 'aborted') return { status: 'interrupted', usage: this.usage };
        if (outcome.error.kind === 'context_length' && !overflowRetried && this.runtime.onContextOverflow) {
          overflowRetried = true;
          if (await this.runtime.onContextOverflow(this)) continue;
        }
        return { status: 'failed', error: outcome.error.message, usage: this.usage };
      }
      if (outcome.toolCallCount === 0 && this.pendingInput.size === 0) {
        const more = await turn.extension.afterAnswer?.(lastAgentMessage);
        if (more !== undefined) {
          this.append(userMessage({ text: more }));
          continue;
        }
        // An active goal carries the thread into another round of work, as Codex's continuation does.
        const goalRound = this.goals.continuation(goalUpdateToolName(this.buildRequest().tools));
        if (goalRound !== undefined) {
          this.append(developerMessage(goalRound));
          this.goals.roundStarted();
          continue;
        }
        return { status: 'completed', ...(lastAgentMessage !== undefined ? { lastAgentMessage } : {}), usage: this.usage };
      }
    }
  }

  /** Tokens the next request would carry, as far as we know. */
  contextTokens(): number {
    return this.tokens.current(this.history);
  }

  private async maybeAutoCompact(): Promise<void> {
    const auto = this.runtime.autoCompact;
    if (!auto || this.contextTokens() < auto.limit) return;
    await auto.compact(this);
  }

  private drainSteering(): void {
    // One at a time: a message steered while an earlier one is appended goes out with this request too.
    for (let message = this.pendingInput.next(); message; message = this.pendingInput.next()) this.appendUserInput(message.input, message.steerId);
  }

  /** The user's input enters the history, and the stream as a user_message item. */
  private appendUserInput(input: UserInput, steerId?: string): void {
    this.append(userMessage(input));
    const id = `user_message_${this.userItemCounter++}`;
    if (steerId !== undefined) this.emit({ type: 'steer.delivered', steer_id: steerId, item_id: id });
    this.emit({
      type: 'item.completed',
      item: { id, type: 'user_message', text: input.text, ...(input.images?.length ? { images: input.images } : {}) },
    });
  }

  private flushImages(): void {
    if (this.pendingImages.length === 0) return;
    this.append({ type: 'message', role: 'user', content: this.pendingImages });
    this.pendingImages = [];
  }

  private recordInterruption(): void {
    const note = interruptionMessage(this.runtime.interruptedMarker ?? 'user');
    if (note) this.append(note);
  }

  /** @internal used by TurnState */
  requestApproval(request: Omit<ApprovalRequest, 'id'>, signal: AbortSignal): Promise<ApprovalAnswer> {
    return this.approvals.request(request, signal);
  }

  /** @internal */
  makeCapabilities(services: TurnServices): Omit<ToolCapabilities, 'updatePlan' | 'attachImage'> {
    const agents = this.runtime.agents;
    return { ...this.runtime.capabilities(services), ...(agents ? { agents } : {}), goals: this.goals };
  }

  /** @internal */
  addImage(part: ContentPart): void {
    this.pendingImages.push(part);
  }

  /** @internal */
  get state(): Map<string, unknown> {
    return this.threadState;
  }

  get cwd(): string {
    return this.cwdNow;
  }
}
