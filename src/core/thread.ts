// A Thread owns its history and runs one turn at a time. Front ends drive it with ops (run a turn,
// steer, interrupt, answer an approval) and read one typed event stream.
import type {
  ApprovalDecision,
  ApprovalRequest,
  ContentPart,
  ConversationItem,
  ThreadEvent,
  ThreadOp,
  TokenUsage,
  UserInput,
  JsonSchema,
  ToolDefinition,
} from '../protocol/index.js';
import { addUsage, emptyUsage } from '../protocol/index.js';
import type { ModelClient, ModelRequest } from '../model/types.js';
import { OUTPUT_LIMIT_NOTICE } from '../model/index.js';
import { inputLengthProblem } from './input-limit.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { CapabilitiesFactory, ToolCapabilities, TurnServices } from '../tools/spec.js';
import { EventHub, type ThreadEventListener } from './event-hub.js';
import { noopRecorder, type ThreadRecorder, type TurnContextRecord } from './recorder.js';
import { runStep, type StepOutcome } from './step.js';
import { TurnState } from './turn-state.js';
import { TokenTracker } from '../context/tokens.js';
import { loadImagePart } from '../tools/native/image-file.js';

export const DEFAULT_MAX_TURN_STEPS = 200;

export interface ThreadOptions {
  id: string;
  cwd: string;
  model: string;
  client: ModelClient;
  tools: ToolRegistry;
  instructions: string;
  capabilities: CapabilitiesFactory;
  /** History restored from a rollout. */
  history?: ConversationItem[];
  /** Context items placed before the first user message of a new thread (AGENTS.md, environment). */
  initialContext?: ConversationItem[];
  maxTurnSteps?: number;
  recorder?: ThreadRecorder;
  /** The tool definitions to advertise this step; default: every registered tool. */
  advertisedTools?: (threadState: Map<string, unknown>) => ToolDefinition[];
  /** Fixed request fields (reasoning, temperature, extra body...). */
  requestDefaults?: Partial<ModelRequest>;
  /** Harness request shaping, applied last; must be pure. */
  shapeRequest?: (request: ModelRequest) => ModelRequest;
  turnContext?: Partial<TurnContextRecord>;
  /**
   * Compaction before a step once the context reaches `limit` tokens (provider-reported usage
   * plus estimates of items added since). `compact` returns true when it replaced the history.
   */
  autoCompact?: { limit: number; compact: (thread: Thread) => Promise<boolean> };
  /** Called when a request failed because the context is too long; returns true if it compacted. */
  onContextOverflow?: (thread: Thread) => Promise<boolean>;
}

export interface TurnOptions {
  outputSchema?: JsonSchema;
}

export interface TurnResult {
  status: 'completed' | 'failed' | 'interrupted';
  lastAgentMessage?: string;
  error?: string;
  usage: TokenUsage;
}

export class Thread {
  readonly id: string;
  readonly history: ConversationItem[];
  usage: TokenUsage = emptyUsage();
  lastRequestUsage: TokenUsage | undefined;
  private readonly hub = new EventHub();
  private readonly pendingInput: UserInput[] = [];
  private readonly approvals = new Map<string, (decision: ApprovalDecision) => void>();
  private readonly threadState = new Map<string, unknown>();
  private pendingImages: ContentPart[] = [];
  private turnController: AbortController | undefined;
  private running = false;
  private itemCounter = 0;
  private approvalCounter = 0;
  private turnCounter = 0;
  private readonly tokens = new TokenTracker();

  constructor(private readonly options: ThreadOptions) {
    this.id = options.id;
    this.history = [...(options.history ?? [])];
  }

  get recorder(): ThreadRecorder {
    return this.options.recorder ?? noopRecorder;
  }

  get isRunning(): boolean {
    return this.running;
  }

  subscribe(listener: ThreadEventListener): () => void {
    return this.hub.subscribe(listener);
  }

  emit(event: ThreadEvent): void {
    this.hub.emit(event);
  }

  newItemId(): string {
    return `item_${this.itemCounter++}`;
  }

  /** Dispatches an op from a front end. A `user_input` while a turn runs is treated as steering. */
  submit(op: ThreadOp): Promise<TurnResult> | void {
    switch (op.type) {
      case 'user_input':
        if (this.running) return this.steer(op.input);
        return this.runTurn(op.input);
      case 'steer':
        return this.steer(op.input);
      case 'interrupt':
        return this.interrupt();
      case 'approval':
        return this.answerApproval(op.request_id, op.decision);
      case 'compact':
        throw new Error('compaction is started through the session, not the bare thread');
    }
  }

  steer(input: UserInput): void {
    this.pendingInput.push(input);
  }

  interrupt(): void {
    this.turnController?.abort();
    for (const [id, resolve] of this.approvals) {
      this.approvals.delete(id);
      resolve('abort');
    }
  }

  answerApproval(requestId: string, decision: ApprovalDecision): void {
    const resolve = this.approvals.get(requestId);
    if (!resolve) throw new Error(`no pending approval with id ${requestId}`);
    this.approvals.delete(requestId);
    resolve(decision);
    if (decision === 'abort') this.interrupt();
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
    const request: ModelRequest = {
      ...this.options.requestDefaults,
      model: this.options.model,
      instructions: this.options.instructions,
      input: this.history,
      tools: this.options.advertisedTools?.(this.threadState) ?? this.options.tools.definitions(),
      promptCacheKey: this.id,
      sessionId: this.id,
      ...extra,
    };
    return this.options.shapeRequest ? this.options.shapeRequest(request) : request;
  }

  get client(): ModelClient {
    return this.options.client;
  }

  async runTurn(input: UserInput, turnOptions: TurnOptions = {}): Promise<TurnResult> {
    if (this.running) throw new Error('a turn is already running on this thread; steer or interrupt it');
    // Every front end's input passes here: one over Codex's limit never reaches the model.
    const tooLong = inputLengthProblem(input.text);
    if (tooLong) return { status: 'failed', error: tooLong, usage: this.usage };
    this.running = true;
    const controller = new AbortController();
    this.turnController = controller;
    const turnId = `turn_${this.turnCounter++}`;
    const turn = new TurnState(this, controller.signal, turnId);
    this.recorder.turnStarted({
      turn_id: turnId,
      cwd: this.options.cwd,
      model: this.options.model,
      ...this.options.turnContext,
    });
    this.emit({ type: 'turn.started' });
    let result: TurnResult;
    try {
      if (this.history.length === 0 && this.options.initialContext) this.append(...this.options.initialContext);
      this.append(this.userMessage(input));
      result = await this.loop(turn, controller.signal, turnOptions);
    } catch (error) {
      result = controller.signal.aborted
        ? { status: 'interrupted', usage: this.usage }
        : { status: 'failed', error: error instanceof Error ? error.message : String(error), usage: this.usage };
    } finally {
      this.running = false;
      this.turnController = undefined;
    }
    turn.finishPlan();
    if (result.status === 'completed') {
      this.emit({ type: 'turn.completed', usage: this.usage });
    } else if (result.status === 'failed') {
      this.emit({ type: 'turn.failed', error: { message: result.error ?? 'turn failed' } });
    } else {
      this.append(this.userMessage({ text: '<turn_aborted>The user interrupted the previous turn. Some tools may have been stopped part-way; check the state before continuing.</turn_aborted>' }));
      this.emit({ type: 'turn.interrupted', reason: 'interrupted by the user' });
    }
    this.recorder.turnEnded({ turn_id: turnId, status: result.status, usage: this.usage, ...(result.error ? { error: result.error } : {}) });
    this.recorder.flush();
    return result;
  }

  private async loop(turn: TurnState, signal: AbortSignal, turnOptions: TurnOptions): Promise<TurnResult> {
    const maxSteps = this.options.maxTurnSteps ?? DEFAULT_MAX_TURN_STEPS;
    let lastAgentMessage: string | undefined;
    let overflowRetried = false;
    for (let step = 0; ; step++) {
      if (step >= maxSteps) {
        return {
          status: 'failed',
          error: `turn stopped after ${maxSteps} model requests without finishing (max_turn_steps = ${maxSteps}); raise it with -c max_turn_steps=N or send a new prompt to continue`,
          usage: this.usage,
        };
      }
      this.drainSteering();
      await this.maybeAutoCompact();
      const request = this.buildRequest(turnOptions.outputSchema ? { outputSchema: turnOptions.outputSchema } : {});
      const outcome: StepOutcome = await runStep(this.options.client, request, this.options.tools, turn.stepHooks(), signal);
      this.recorder.modelResponse({ turn_id: turn.id, step, events: outcome.events });
      this.append(...outcome.items);
      if (outcome.usage) {
        this.tokens.recordUsage(outcome.usage, this.history.length);
        this.lastRequestUsage = outcome.usage;
        this.usage = addUsage(this.usage, outcome.usage);
        this.emit({ type: 'usage.updated', last: outcome.usage, total: this.usage });
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
      if (outcome.error) {
        if (outcome.error.kind === 'aborted') return { status: 'interrupted', usage: this.usage };
        if (outcome.error.kind === 'context_length' && !overflowRetried && this.options.onContextOverflow) {
          overflowRetried = true;
          if (await this.options.onContextOverflow(this)) continue;
        }
        return { status: 'failed', error: outcome.error.message, usage: this.usage };
      }
      if (outcome.toolCallCount === 0 && this.pendingInput.length === 0) {
        return { status: 'completed', ...(lastAgentMessage !== undefined ? { lastAgentMessage } : {}), usage: this.usage };
      }
    }
  }

  /** Tokens the next request would carry, as far as we know. */
  contextTokens(): number {
    return this.tokens.current(this.history);
  }

  private async maybeAutoCompact(): Promise<void> {
    const auto = this.options.autoCompact;
    if (!auto || this.contextTokens() < auto.limit) return;
    await auto.compact(this);
  }

  private drainSteering(): void {
    while (this.pendingInput.length > 0) this.append(this.userMessage(this.pendingInput.shift()!));
  }

  private flushImages(): void {
    if (this.pendingImages.length === 0) return;
    this.append({ type: 'message', role: 'user', content: this.pendingImages });
    this.pendingImages = [];
  }

  private userMessage(input: UserInput): ConversationItem {
    const content: ContentPart[] = [{ type: 'input_text', text: input.text }];
    for (const path of input.images ?? []) content.push(loadImagePart(path));
    return { type: 'message', role: 'user', content };
  }

  /** @internal used by TurnState */
  requestApproval(request: Omit<ApprovalRequest, 'id'>, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.resolve('abort');
    const id = `approval_${this.approvalCounter++}`;
    return new Promise((resolve) => {
      this.approvals.set(id, resolve);
      this.emit({ type: 'approval.requested', request: { ...request, id } as ApprovalRequest });
    });
  }

  /** @internal */
  makeCapabilities(services: TurnServices): Omit<ToolCapabilities, 'updatePlan' | 'attachImage'> {
    return this.options.capabilities(services);
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
    return this.options.cwd;
  }
}
