// The shapes around the turn loop: what a thread samples and acts with (its runtime), how it is
// constructed, and what a turn gives back.
import type { ConversationItem, JsonSchema, ThreadGoal, TokenUsage, ToolDefinition, UserInput } from '../protocol/index.js';
import type { ModelClient, ModelRequest } from '../model/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AgentsCapability } from '../tools/agents/capability.js';
import type { CapabilitiesFactory, ToolCallGate, ToolResult, TurnServices } from '../tools/spec.js';
import type { ToolCall } from '../tools/router.js';
import type { ThreadRecorder, TurnContextRecord } from './recorder.js';
import type { Thread } from './thread.js';

/** What the thread samples and acts with; replaced as a whole when settings change. */
export interface ThreadRuntime {
  model: string;
  client: ModelClient;
  tools: ToolRegistry;
  instructions: string;
  capabilities: CapabilitiesFactory;
  /** The tool definitions to advertise this step; default: every registered tool. */
  advertisedTools?: (threadState: Map<string, unknown>) => ToolDefinition[];
  /** Fixed request fields (reasoning, temperature, extra body...). */
  requestDefaults?: Partial<ModelRequest>;
  /** Harness request shaping, applied last; must be pure. */
  shapeRequest?: (request: ModelRequest) => ModelRequest;
  /** Recorded with every turn (resume restores provider, policies and harness from it). */
  turnContext?: Partial<TurnContextRecord>;
  /**
   * What an interrupted turn leaves in the history for the model: a user-role `<turn_aborted>`
   * note (default), the same as a developer message (multi_agent_v2), or nothing
   * ([agents] interrupt_message = false).
   */
  interruptedMarker?: 'user' | 'developer' | 'none';
  /** Undefined: no bound on model requests per turn. */
  maxTurnSteps?: number;
  /**
   * Compaction before a step once the context reaches `limit` tokens (provider-reported usage
   * plus estimates of items added since). `compact` returns true when it replaced the history.
   */
  autoCompact?: { limit: number; compact: (thread: Thread) => Promise<boolean> };
  /** Called when a request failed because the context is too long; returns true if it compacted. */
  onContextOverflow?: (thread: Thread) => Promise<boolean>;
  /** Manual compaction (`/compact`, ThreadHandle.compact). */
  compact?: (thread: Thread) => Promise<TurnResult>;
  /** Sub-agents of this thread (the engine's agents service); absent: no sub-agent tools work. */
  agents?: AgentsCapability;
  /**
   * Set-up the first tool call would otherwise wait for (the sandbox probe), started once a
   * request is on the wire and the model is answering. Called at every step; must be idempotent.
   */
  warmUp?: () => void;
}

export interface ThreadOptions {
  id: string;
  cwd: string;
  runtime: ThreadRuntime;
  /** History restored from a rollout. */
  history?: ConversationItem[];
  /** Context items placed before the first user message of a new thread (AGENTS.md, environment). */
  initialContext?: ConversationItem[];
  recorder?: ThreadRecorder;
  /** The number of the first turn this load runs: turn ids stay unique across resumes. */
  firstTurn?: number;
  /** False when nobody can answer approvals (see TurnServices.canAskApproval). Default true. */
  canAskApproval?: boolean;
  /** Hooks, checkpoints and skills (core/turn-extensions.ts). */
  extensions?: ThreadExtensions;
  /** The goal restored from the rollout (resume, fork). */
  goal?: ThreadGoal;
}

/** What hooks, checkpoints and skills add to the turns of a thread. */
export interface ThreadExtensions {
  beginTurn(turnId: string, signal: AbortSignal): TurnExtension;
}

export interface PromptVerdict {
  items: ConversationItem[];
  blocked?: string;
}

/** One turn's share of them; every part is optional. */
export interface TurnExtension {
  /** Merged into the services the turn's tools get (the checkpoint recorder). */
  services?: Partial<TurnServices>;
  /** Before the prompt is recorded: context items to put in front of it, or why it is not sent. */
  beforePrompt?(input: UserInput): PromptVerdict | Promise<PromptVerdict>;
  /** Wraps every tool call (PreToolUse, PermissionRequest, PostToolUse). */
  callTool?(call: ToolCall, run: (call: ToolCall, gate?: ToolCallGate) => Promise<ToolResult>): Promise<ToolResult>;
  /** Set once a hook said `continue: false`: the turn ends after the current step. */
  stopReason?(): string | undefined;
  /** The model answered without tool calls: a prompt to continue with (Stop hooks), or undefined. */
  afterAnswer?(lastAgentMessage: string | undefined): Promise<string | undefined>;
  /** The turn is over (before its terminal event): checkpoints, Interrupt hooks, notify. */
  end?(result: TurnResult): Promise<void>;
}

export interface TurnOptions {
  outputSchema?: JsonSchema;
  /**
   * Called as the turn's body begins (after turn.started) and as it ends (before its terminal
   * event), so a front end can frame the turn with items of its own (review mode's entered and
   * exited items) in the right place of the stream.
   */
  frame?: TurnFrame;
  /**
   * Items the model gets just before this turn's input that are not the person's words (a
   * review's instructions and diff): in the history, not shown as a user message.
   */
  context?: ConversationItem[];
}

export interface TurnFrame {
  started?(turnId: string): void;
  finished?(turnId: string, result: TurnResult): void;
}

export interface TurnResult {
  status: 'completed' | 'failed' | 'interrupted';
  lastAgentMessage?: string;
  error?: string;
  usage: TokenUsage;
}

export interface StartedTurn {
  turnId: string;
  /** Settles when the turn has ended (its terminal event is emitted first). Never rejects. */
  done: Promise<TurnResult>;
}
