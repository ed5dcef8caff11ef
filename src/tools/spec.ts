// A tool is data (name, description, schema, kind, parallel safety) plus a handler. Handlers reach
// the engine only through the capabilities in ToolContext, so every harness's tools share one
// orchestrator (sandbox, approvals, exec policy) and one file-change engine.
import type {
  ApprovalAnswer,
  ApprovalRequest,
  ContentPart,
  FileEdit,
  ThreadEvent,
  JsonSchema,
  ThreadItem,
  TodoEntry,
  ToolDefinition,
  ToolOutput,
} from '../protocol/index.js';
import type { AgentsCapability } from './agents/capability.js';
import type { TimersCapability } from './timers/capability.js';
import type { GoalCapability } from './goals/capability.js';
import type { FileChange } from '../checkpoints/index.js';
import type { SkillMetadata } from '../skills/index.js';
import type { WebFetchResult, SearchResult } from '../web/index.js';
import type { WorktreeCapability } from './worktree/capability.js';
import type { UserInputOutcome, UserInputQuestionRequest } from './orchestrator/user-input.js';

export interface ToolResult {
  output: ToolOutput;
  /** False when the call failed; rendered as an error where the wire has the notion. */
  success: boolean;
}

export interface ExecRequest {
  /** Shell command text (run as `shell -c`), or an argv when `argv` is set. */
  command: string;
  argv?: string[];
  cwd: string;
  timeoutMs?: number;
  /** Shell binary for `command` (default: the user's shell). */
  shell?: string;
  /** Allocate a pseudo-terminal. */
  tty?: boolean;
  /** Run `command` in a login shell (`-lc`); unset = the exec layer's default. */
  login?: boolean;
  /** How long to wait before returning with the process still running (unified exec). */
  yieldTimeMs?: number;
  /** The model asked to run outside the sandbox, with this justification. */
  escalation?: { justification?: string; prefixRule?: string[] };
  /** Text for the command_execution item (defaults to `command`). */
  displayCommand?: string;
  /**
   * What the policy judges and a person approves instead of the argv that runs: a driver script
   * whose effect is to type text into a shell (Terminus 2's tmux keystrokes) is judged by that text.
   */
  judgedArgv?: string[];
  /**
   * A background job: the command's checkpoint window stays open until it exits (or the turn ends),
   * so its writes belong to the turn that started it.
   */
  background?: boolean;
}

export interface ExecOutcome {
  /** null while still running (session kept) or when killed by a signal without a code. */
  exitCode: number | null;
  /** Interleaved stdout+stderr as captured (head+tail bounded). */
  output: string;
  /** Total bytes the process printed (before any capture bound). */
  totalBytes: number;
  wallTimeMs: number;
  timedOut: boolean;
  /** Set when the process is still running as a session the model can poll. */
  sessionId?: number;
  /** Sessions closed to stay within the live-session limit. */
  prunedSessionIds?: number[];
  /** Set when the orchestrator refused (policy, approval denied, sandbox unavailable). */
  declined?: string;
}

export type { FileEdit } from '../protocol/index.js';

export interface FileChangeOutcome {
  ok: boolean;
  /** Human/model-readable summary, or the error. */
  message: string;
}

/** One call of a configured MCP server's tool, as the model asked for it. */
export interface McpCallRequest {
  server: string;
  /** The server's own name of the tool (not the model-visible one). */
  tool: string;
  arguments: Record<string, unknown>;
  /** The model-visible tool name the call came in under. */
  modelName?: string;
  callId?: string;
  /** Send structured content in place of the content blocks (Codex's serialization; the native harness). */
  structuredFirst?: boolean;
}

export interface ToolCapabilities {
  /** Run a command through the orchestrator (exec policy -> approval -> sandbox -> run). */
  exec(request: ExecRequest): Promise<ExecOutcome>;
  /** Write to / poll a running unified-exec session. */
  writeStdin(sessionId: number, chars: string, yieldTimeMs: number): Promise<ExecOutcome>;
  /** Apply a change set through the one file-change engine (writable-root check, atomic, item). */
  applyChanges(edits: FileEdit[]): Promise<FileChangeOutcome>;
  /** Replace the plan/todo list. */
  updatePlan(items: TodoEntry[], explanation?: string): void;
  /** Attach an image to the next request. */
  attachImage(part: Extract<ContentPart, { type: 'input_image' }>): void;
  /**
   * The thread's workspace file access for reads: a file's text as the front end's client holds it
   * (an editor's unsaved buffer), or undefined when rig reads the disk itself (no such client, a
   * path outside the workspace, a client that could not read it).
   */
  readClientText?(absolutePath: string): Promise<string | undefined>;
  /** May this path be written under the current sandbox policy? (resolves symlinks and ..) */
  canWrite(absolutePath: string): boolean;
  /** Sub-agents (child threads of the same engine); absent where the engine offers none. */
  agents?: AgentsCapability;
  /** Call an MCP tool through the orchestrator (approval mode and annotations -> approval -> call); absent without MCP servers. */
  callMcp?(request: McpCallRequest): Promise<ToolResult>;
  /** Fetch a URL as readable text, through the orchestrator (network setting, approval policy). */
  fetchUrl?(request: FetchRequest): Promise<FetchOutcome>;
  /**
   * Search the web: the configured backend through the orchestrator, or on the Messages wire a side
   * request to the provider with its server search; absent when neither is there (the web_search
   * tools are then left out of the request).
   */
  webSearch?(query: string, options?: SearchOptions): Promise<SearchOutcome>;
  /**
   * A background job's new output, waiting up to `waitMs` (no minimum) or until `until` matches;
   * an interrupt ends the wait but not the job (unlike writeStdin).
   */
  readSession?(sessionId: number, options: { waitMs: number; until?: RegExp }): Promise<ExecOutcome>;
  /** Kill one unified-exec session (a background job) with its process group; false when unknown. */
  closeSession?(sessionId: number): Promise<boolean>;
  /**
   * Put the model's questions to the person and wait for the answers; the outcome says when nobody
   * can answer. Absent where the engine offers no front end at all.
   */
  askUser?(request: UserInputQuestionRequest): Promise<UserInputOutcome>;
  /** The skills of this thread, in the order the model saw them listed. */
  skills?(): readonly SkillMetadata[];
  /** Git worktree sessions of this thread (EnterWorktree / ExitWorktree); absent where the engine offers none. */
  worktree?: WorktreeCapability;
  /** The thread's scheduled prompts (cron jobs, wake-ups); absent where the session cannot keep timers. */
  timers?: TimersCapability;
  /** The thread's goal (the goal tools); absent outside a thread. */
  goals?: GoalCapability;
}

export interface FetchRequest {
  url: string;
  /** Upper bound of the text given back (characters). */
  maxChars?: number;
  /** Give the page's text without converting HTML (opencode's `format: "html"`). */
  raw?: boolean;
  timeoutMs?: number;
}

export type FetchOutcome = { ok: true; page: WebFetchResult } | { ok: false; message: string };
export interface SearchOptions {
  maxResults?: number;
  /** Only / never these domains; a backend ignores them (the tool filters what comes back). */
  allowedDomains?: string[];
  blockedDomains?: string[];
}

/**
 * What the provider's search said, in its order: the model's text, and the links each search
 * found (Claude Code's WebSearch result lists both, in the order they came).
 */
export type SearchAnswerPart = { text: string } | { links: { title: string; url: string }[] } | { error: string };

export type SearchOutcome = { ok: true; results: SearchResult[]; answer?: SearchAnswerPart[] } | { ok: false; message: string };

export interface ToolContext {
  cwd: string;
  threadId: string;
  signal: AbortSignal;
  caps: ToolCapabilities;
  /** Per-thread state that tools keep between calls (read-sets, counters). Never process-wide. */
  threadState: Map<string, unknown>;
  /** Emit a thread item (started/updated/completed) for front ends. */
  emitItem(phase: 'started' | 'updated' | 'completed', item: ThreadItem): void;
  newItemId(): string;
  /** The model's id of the call being handled (items that record it pair with the call by it). */
  callId?: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  kind: 'function' | 'custom';
  /** JSON schema of the arguments (function tools). */
  parameters?: JsonSchema;
  /** Grammar of the input (custom tools). */
  format?: Extract<ToolDefinition, { kind: 'custom' }>['format'];
  /** Calls of a parallel-safe tool in one step may run concurrently. */
  parallelSafe: boolean;
  /** Extra per-tool fields sent with the definition (a harness profile's `extras`). */
  extras?: Record<string, unknown>;
  /**
   * Its calls run shell commands (caps.exec). Once such a call starts streaming, the turn gets
   * ready for commands (TurnCheckpointing.prepareForCommands) while the model writes the arguments.
   */
  runsCommands?: boolean;
  /**
   * Function tools receive the parsed JSON arguments; custom tools receive the raw input string.
   * Validation errors are returned as failed results, never thrown.
   */
  handle(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export function toDefinition(spec: ToolSpec): ToolDefinition {
  const extras = spec.extras && Object.keys(spec.extras).length > 0 ? { extras: spec.extras } : {};
  if (spec.kind === 'custom') {
    return { kind: 'custom', name: spec.name, description: spec.description, format: spec.format, ...extras };
  }
  return {
    kind: 'function',
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters ?? { type: 'object', properties: {} },
    strict: false,
    ...extras,
  };
}

/** What the engine gives the orchestrator for one turn. */
export interface TurnServices {
  cwd: string;
  threadId: string;
  signal: AbortSignal;
  emit(event: ThreadEvent): void;
  newItemId(): string;
  /** Ask the user (through the engine's event stream); resolves with their answer. */
  askApproval(request: DistributiveOmit<ApprovalRequest, 'id'>): Promise<ApprovalAnswer>;
  /**
   * False when the front end has nobody to ask (`rig exec`, a headless client): the orchestrator
   * then declines what would need a person, saying which policy wanted one and how to allow it.
   */
  canAskApproval: boolean;
  /** The turn's checkpoints: what its commands and change sets wrote, for undo. */
  checkpoint?: TurnCheckpointing;
  /** Set per tool call when hooks decide about its approval (PreToolUse, PermissionRequest). */
  callGate?: ToolCallGate;
}

/** Where a turn's file changes are recorded (core/checkpointing.ts). */
export interface TurnCheckpointing {
  /** Before a shell command runs: opens a window over the workspace. */
  beginCommand(): Promise<CommandCheckpoint>;
  /**
   * A call that will run a command has started streaming: open what beginCommand needs now (the
   * workspace tracker, a scan of every file on its first use in a thread), not when the command is ready to run.
   */
  prepareForCommands?(): void;
  /** The files an in-process change set wrote, as they were before and after. */
  recordFiles(changes: FileChange[]): void;
}

export interface CommandCheckpoint {
  /** The command ended: record what it wrote. Idempotent; the turn's end closes windows left open. */
  end(): Promise<void>;
}

export type PermissionVerdict = { behavior: 'allow' } | { behavior: 'deny'; message: string };

/** What hooks decided about one call's approval. */
export interface ToolCallGate {
  /** PreToolUse `permissionDecision`: allow skips the prompt (never a forbidden rule or the sandbox); ask forces it. */
  permissionDecision?: 'allow' | 'ask';
  /** PermissionRequest hooks, run before a person is asked; undefined = ask as usual. */
  permissionRequest?(question: DistributiveOmit<ApprovalRequest, 'id'>): Promise<PermissionVerdict | undefined>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Builds the command/file capabilities for a turn; plan and images are kept by the thread. */
export type CapabilitiesFactory = (
  services: TurnServices,
) => Omit<ToolCapabilities, 'updatePlan' | 'attachImage' | 'agents'>;
