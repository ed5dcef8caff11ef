// A loaded thread as every front end drives it: turns, steering, interrupts, approvals, settings,
// compaction, its one event stream, and close. The engine creates handles (startThread,
// resumeThread, forkThread); a handle owns the thread's processes, sessions, approval cache and
// rollout writer, and closing it releases exactly those.
import type {
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
  ConversationItem,
  EventEnvelope,
  JsonSchema,
  SettingsUpdate,
  ThreadSettingsView,
  TokenUsage,
  UserInput,
} from '../protocol/index.js';
import type { ClientFileSystem, ClientTerminals } from '../protocol/index.js';
import type { RigConfig } from '../config/index.js';
import type { Redactor } from '../store/index.js';
import type { EnvelopeListener } from './event-hub.js';
import type { StartedTurn, Thread } from './thread.js';
import { applySettingsUpdate, resolveThreadSettings, settingsView, type RecordedSettings, type ThreadOverrides } from './thread-settings.js';
import type { BuiltRuntime, ThreadResources } from './thread-runtime.js';
import type { ThreadSettings } from './thread-settings.js';
import { contextWindowFor } from '../context/index.js';
import type { ThreadCheckpoints } from './checkpointing.js';
import type { ThreadHooks } from './hook-points.js';
import type { TurnFrame } from './thread-types.js';
import type { GoalCapability } from '../tools/goals/capability.js';

export type { StartedTurn, TurnResult } from './thread.js';

export interface ThreadInfo {
  id: string;
  /** Set when this thread was forked from another. */
  forkedFrom?: string;
  /** The rollout the thread is recorded in (or, when ephemeral, was read from); undefined for a new ephemeral thread. */
  rolloutPath?: string;
  /** Config and load warnings, in order (also emitted as error items right after thread.started). */
  warnings: string[];
  /** How the model client was built: the provider's wire. */
  wire: string;
  /** The provider the thread was loaded with (its id and display name). */
  provider: { id: string; name: string };
}

export interface StartTurnOptions {
  /** JSON Schema the final answer must follow (this turn only). */
  outputSchema?: JsonSchema;
  /** Callbacks as the turn begins and ends, around its items (see TurnFrame). */
  frame?: TurnFrame;
  /** Items for the model before the input, not shown as the person's message (see TurnOptions). */
  context?: ConversationItem[];
}

export interface ThreadHandleParts {
  thread: Thread;
  info: ThreadInfo;
  config: RigConfig;
  overrides: ThreadOverrides;
  recorded: RecordedSettings;
  settings: ThreadSettings;
  built: BuiltRuntime;
  resources: ThreadResources;
  rebuild(settings: ThreadSettings): Promise<BuiltRuntime>;
  /** The name a resumed thread was given earlier (setName). */
  name?: string;
  /** Replaces every secret the thread knows of (provider keys, header values, credential variables). */
  redactor: Redactor;
  /** Closes the rollout writer (and releases its lock). */
  closeRecorder(): void;
  onClosed(): void;
}

export class ThreadHandle {
  readonly id: string;
  readonly info: ThreadInfo;
  private readonly thread: Thread;
  private overrides: ThreadOverrides;
  private settingsNow: ThreadSettings;
  private built: BuiltRuntime;
  private closing: Promise<void> | undefined;
  private nameNow: string | undefined;

  constructor(private readonly parts: ThreadHandleParts) {
    this.nameNow = parts.name;
    this.id = parts.info.id;
    this.info = parts.info;
    this.thread = parts.thread;
    this.overrides = parts.overrides;
    this.settingsNow = parts.settings;
    this.built = parts.built;
  }

  /** This thread's events, each in its envelope. Returns the unsubscribe function. */
  subscribe(listener: EnvelopeListener): () => void {
    return this.thread.subscribe(listener);
  }

  /**
   * Replaces every secret the thread knows of with "[redacted]" (rollouts are already redacted):
   * front ends pass what they print through it — redactText for text, redactJson for JSON lines.
   */
  get redactor(): Redactor {
    return this.parts.redactor;
  }

  /** The settings the next turn runs with. */
  get settings(): ThreadSettingsView {
    const model = this.built.model;
    return {
      ...settingsView(this.settingsNow, { model, harness: this.built.harness.profile.id }),
      context_window: contextWindowFor(model, this.parts.config.model_context_window),
    };
  }

  /** The config the thread was loaded with (front ends read their own tables from it, e.g. [tui]). */
  get config(): RigConfig {
    return this.parts.config;
  }

  /** The name the thread was given (setName), recorded in its rollout; undefined until then. */
  get name(): string | undefined {
    return this.nameNow;
  }

  /**
   * Name the thread: recorded in the rollout (listings and pickers show it as the title) and
   * announced as `thread.name_updated`. One line, at most 200 characters.
   */
  setName(name: string): void {
    this.assertOpen();
    const clean = name.replace(/\s+/g, ' ').trim();
    if (clean === '') throw new Error('a thread name cannot be empty');
    if (clean.length > 200) throw new Error(`a thread name is at most 200 characters (this one has ${clean.length})`);
    this.thread.recorder.threadNamed?.(clean);
    this.nameNow = clean;
    this.thread.emitFor(null, { type: 'thread.name_updated', thread_name: clean });
  }

  /** The conversation as the model sees it next (compactions applied). Read-only. */
  get history(): readonly ConversationItem[] {
    return this.thread.history;
  }

  /** Cumulative token usage of the thread. */
  get usage(): TokenUsage {
    return this.thread.usage;
  }

  get isRunning(): boolean {
    return this.thread.isRunning;
  }

  get currentTurnId(): string | undefined {
    return this.thread.currentTurnId;
  }

  /** The thread's goal: read it, set it, clear it (thread/goal/*, `/goal`); changes are recorded and announced. */
  get goals(): GoalCapability {
    return this.thread.goals;
  }

  /** Start a turn. Throws if one is running (steer or interrupt it instead) or the thread is closed. */
  startTurn(input: UserInput, options: StartTurnOptions = {}): StartedTurn {
    this.assertOpen();
    return this.thread.startTurn(input, { ...(options.outputSchema ? { outputSchema: options.outputSchema } : {}), ...(options.frame ? { frame: options.frame } : {}), ...(options.context ? { context: options.context } : {}) });
  }

  /**
   * Add input to the running turn; it reaches the model with the turn's next request. With
   * `expectedTurnId`, refuses when another turn runs (the caller's view is stale). Returns the turn id.
   * Input the turn did not take (it failed or was interrupted first) is sent with the next turn,
   * unless taken back with retractSteer. With `steerId`, `steer.delivered {steer_id}` is emitted
   * when the input is handed to the model.
   */
  steer(input: UserInput, expectedTurnId?: string, options: { steerId?: string } = {}): string {
    this.assertOpen();
    return this.thread.steer(input, expectedTurnId, options.steerId);
  }

  /** Take back steered input (by its `steerId`) not handed to the model yet; false when it was. */
  retractSteer(steerId: string): boolean {
    return this.thread.retractSteer(steerId);
  }

  /**
   * Write file edits through the front end's client from now on (undefined: rig writes them
   * itself). Approval and sandbox checks stay rig's.
   */
  useClientFiles(files: ClientFileSystem | undefined): void {
    this.parts.resources.clientFiles = files;
  }

  /**
   * Run commands in the front end's client's terminals from now on (undefined: rig runs them). Only
   * commands that would run unsandboxed anyway go there (danger-full-access); the rest stay rig's.
   */
  useClientTerminals(terminals: ClientTerminals | undefined): void {
    this.parts.resources.clientTerminals = terminals;
  }

  /** Stop the running turn and the commands it waits on; resolves once its terminal event is out. */
  interrupt(): Promise<void> {
    return this.thread.interrupt();
  }

  /**
   * Answer an `approval.requested` event. With `deny`, `feedback` is what the person wants the
   * agent to do instead: the model receives it with the refusal. Throws for an unknown or already
   * answered id, and for feedback with any other decision. `content` answers an mcp_elicitation
   * request's form (with `approve`).
   */
  answerApproval(requestId: string, decision: ApprovalDecision, options: { feedback?: string; content?: Record<string, unknown> } = {}): void {
    this.thread.answerApproval(requestId, decision, options.feedback, options.content);
  }

  /** Compact the history now, as a turn of its own (turn.started ... turn.completed). */
  compact(): StartedTurn {
    this.assertOpen();
    return this.thread.startCompaction();
  }

  /**
   * Change model, reasoning effort, approval policy, sandbox or harness. Takes effect from the next
   * turn (a running turn finishes with what it started with); emits thread.settings_updated.
   */
  async updateSettings(update: SettingsUpdate): Promise<ThreadSettingsView> {
    this.assertOpen();
    const overrides = applySettingsUpdate(this.overrides, update);
    const settings = resolveThreadSettings(this.parts.config, this.settingsNow.cwd, overrides, this.parts.recorded);
    const built = await this.parts.rebuild(settings);
    this.overrides = overrides;
    this.settingsNow = settings;
    this.built = built;
    this.thread.reconfigure(built.runtime);
    const view = this.settings;
    this.thread.emitFor(null, { type: 'thread.settings_updated', settings: view });
    return view;
  }

  /**
   * Make `cwd` the thread's working directory now, even mid-turn (EnterWorktree / ExitWorktree):
   * the runtime is rebuilt for it, so the sandbox's writable roots, approvals and the prompt follow,
   * and later turns record it (a resume lands there). Emits thread.settings_updated.
   */
  async moveWorkspace(cwd: string): Promise<ThreadSettingsView> {
    this.assertOpen();
    const settings = { ...this.settingsNow, cwd };
    const built = await this.parts.rebuild(settings);
    this.settingsNow = settings;
    this.built = built;
    this.thread.relocate(cwd, built.runtime);
    const view = this.settings;
    this.thread.emitFor(null, { type: 'thread.settings_updated', settings: view });
    return view;
  }

  /**
   * Unload the thread: interrupt a running turn, kill every process and session it started (and
   * nothing else), close its rollout. Idempotent; the thread can be resumed again later.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.thread.interrupt();
      await this.parts.resources.close();
      this.parts.closeRecorder();
      this.thread.emitFor(null, { type: 'thread.closed' });
      this.parts.onClosed();
    })();
    return this.closing;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error(`thread ${this.id} is closed; resume it to continue`);
  }

  /** @internal the engine emits thread-level events (started, resumed, warnings) through here. */
  emitThreadEvent(event: EventEnvelope['event']): void {
    this.thread.emitFor(null, event);
  }

  /**
   * @internal the agents service asks this thread's front end on behalf of a child thread (the
   * request carries the child's path); the answer goes back to the child.
   */
  askOnBehalf(request: DistributiveOmit<ApprovalRequest, 'id'>): Promise<ApprovalAnswer> {
    return this.thread.requestApproval(request as Omit<ApprovalRequest, 'id'>, new AbortController().signal);
  }

  /** What this thread's turns changed, for undo and rewind (core/undo.ts). */
  get checkpoints(): ThreadCheckpoints | undefined {
    return this.parts.resources.checkpoints;
  }

  /** The thread's MCP servers, when any are configured (their states and tools: core/mcp-status.ts). */
  get mcp(): ThreadResources['mcp'] {
    return this.parts.resources.mcp;
  }

  /** @internal the thread's hooks, for the sub-agent runtime's SubagentStart / SubagentStop. */
  get hooks(): ThreadHooks | undefined {
    return this.parts.resources.hooks;
  }

  /** @internal */
  newItemId(): string {
    return this.thread.newItemId();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
