// A loaded thread as every front end drives it: turns, steering, interrupts, approvals, settings,
// compaction, its one event stream, and close. The engine creates handles (startThread,
// resumeThread, forkThread); a handle owns the thread's processes, sessions, approval cache and
// rollout writer, and closing it releases exactly those.
import type {
  ApprovalDecision,
  ConversationItem,
  EventEnvelope,
  JsonSchema,
  SettingsUpdate,
  ThreadSettingsView,
  TokenUsage,
  UserInput,
} from '../protocol/index.js';
import type { RigConfig } from '../config/index.js';
import type { Redactor } from '../store/index.js';
import type { EnvelopeListener } from './event-hub.js';
import type { StartedTurn, Thread } from './thread.js';
import { applySettingsUpdate, resolveThreadSettings, settingsView, type RecordedSettings, type ThreadOverrides } from './thread-settings.js';
import type { BuiltRuntime, ThreadResources } from './thread-runtime.js';
import type { ThreadSettings } from './thread-settings.js';
import type { ThreadCheckpoints } from './checkpointing.js';

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

  constructor(private readonly parts: ThreadHandleParts) {
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
    return settingsView(this.settingsNow, { model: this.built.model, harness: this.built.harness.profile.id });
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

  /** Start a turn. Throws if one is running (steer or interrupt it instead) or the thread is closed. */
  startTurn(input: UserInput, options: StartTurnOptions = {}): StartedTurn {
    this.assertOpen();
    return this.thread.startTurn(input, options.outputSchema ? { outputSchema: options.outputSchema } : {});
  }

  /**
   * Add input to the running turn; it reaches the model with the turn's next request. With
   * `expectedTurnId`, refuses when another turn runs (the caller's view is stale). Returns the turn id.
   * Input that arrives after the turn's last model request is sent with the next turn instead.
   */
  steer(input: UserInput, expectedTurnId?: string): string {
    this.assertOpen();
    return this.thread.steer(input, expectedTurnId);
  }

  /** Stop the running turn and the commands it waits on; resolves once its terminal event is out. */
  interrupt(): Promise<void> {
    return this.thread.interrupt();
  }

  /**
   * Answer an `approval.requested` event. With `deny`, `feedback` is what the person wants the
   * agent to do instead: the model receives it with the refusal. Throws for an unknown or already
   * answered id, and for feedback with any other decision.
   */
  answerApproval(requestId: string, decision: ApprovalDecision, options: { feedback?: string } = {}): void {
    this.thread.answerApproval(requestId, decision, options.feedback);
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

  /** What this thread's turns changed, for undo and rewind (core/undo.ts). */
  get checkpoints(): ThreadCheckpoints | undefined {
    return this.parts.resources.checkpoints;
  }

  /** @internal */
  newItemId(): string {
    return this.thread.newItemId();
  }
}
