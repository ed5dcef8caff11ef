// The shapes of the hooks room: configured handlers, per-event inputs, run summaries for the event
// stream (`hook/started`, `hook/completed`, as Codex's app server names them) and the combined
// outcome an engine acts on.
import type { HookRunSummary } from '../protocol/hooks.js';
import type { ProcessScope } from '../exec/index.js';
import type { HookEventName } from './events.js';

/** Where a handler was configured. Project handlers need a trusted project and a confirmed hash. */
export type HookScope = 'user' | 'project' | 'session';

/** One configured command handler, after validation. */
export interface HookDefinition {
  /** Codex's trust key: `<source file>:<event label>:<group index>:<handler index>`. */
  key: string;
  event: HookEventName;
  /** Undefined for events that ignore matchers (and for match-all groups). */
  matcher?: string;
  command: string;
  timeoutSec: number;
  /** Fire-and-forget: never awaited, cannot block or rewrite. */
  async: boolean;
  statusMessage?: string;
  sourcePath: string;
  scope: HookScope;
  /** sha256 of the handler's normalized identity: what a confirmation vouches for. */
  hash: string;
  groupIndex: number;
  handlerIndex: number;
  /** Position across every source, in load order: the order results are reported and combined in. */
  displayOrder: number;
}

export type { HookEntryKind, HookOutputEntry, HookRunStatus, HookRunSummary } from '../protocol/hooks.js';
/**
 * Items for the event stream: `hook/started` before a handler runs, `hook/completed` after. The
 * integrator moves these into protocol/ with the engine's event envelope.
 */
export interface HookStartedItem {
  type: 'hook/started';
  threadId: string;
  turnId: string | null;
  run: HookRunSummary;
}

export interface HookCompletedItem {
  type: 'hook/completed';
  threadId: string;
  turnId: string | null;
  run: HookRunSummary;
}

export type HookStreamItem = HookStartedItem | HookCompletedItem;

// ---- per-event inputs (the event-specific stdin fields, snake_case as hooks read them) ----

export interface ToolHookInput {
  /** The `tool_name` hooks see (see hookToolIdentity). */
  tool_name: string;
  /** Further names matchers may select this call by; not written to stdin. */
  matcher_aliases?: string[];
  tool_input: unknown;
}

export interface HookInputs {
  SessionStart: { source: 'startup' | 'resume' | 'clear' | 'compact' };
  UserPromptSubmit: { prompt: string };
  PreToolUse: ToolHookInput & { tool_use_id: string };
  PermissionRequest: ToolHookInput;
  PostToolUse: ToolHookInput & { tool_use_id: string; tool_response: unknown };
  PreCompact: { trigger: 'manual' | 'auto'; custom_instructions?: string };
  PostCompact: { trigger: 'manual' | 'auto' };
  SubagentStart: { agent_id: string; agent_type: string };
  SubagentStop: {
    agent_id: string;
    agent_type: string;
    agent_transcript_path: string | null;
    last_assistant_message: string | null;
    stop_hook_active: boolean;
  };
  Stop: { stop_hook_active: boolean; last_assistant_message: string | null };
  Interrupt: Record<string, never>;
  SessionEnd: { reason: string };
}

/** What the engine passes about the session, common to every event. */
export interface HookContext {
  /** The active handlers (see loadHooks: trusted, enabled, confirmed). */
  handlers: readonly HookDefinition[];
  sessionId: string;
  /** Absent only for SessionStart, which runs before the first turn. */
  turnId?: string;
  cwd: string;
  transcriptPath?: string | null;
  model: string;
  /** Claude Code's vocabulary: default | acceptEdits | plan | dontAsk | bypassPermissions. */
  permissionMode: string;
  /** Set for events raised inside a sub-agent. */
  agentId?: string;
  agentType?: string;
  /** CLAUDE_PROJECT_DIR / RIG_PROJECT_DIR for the handlers (default: cwd). */
  projectDir?: string;
  /** Base environment of the handlers (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Shell the command runs in (default: $SHELL, else /bin/sh), as `<shell> -lc <command>`. */
  shell?: string;
  /** Receives `hook/started` and `hook/completed` for every run, async ones included. */
  onItem?: (item: HookStreamItem) => void;
  /** Context an async handler produced, for the engine to add at the next turn. */
  onAsyncContext?: (event: HookEventName, text: string) => void;
  /** Aborting kills running handlers (their runs complete as failed). */
  signal?: AbortSignal;
  /** Who owns the handlers' processes (the thread's scope); default: rig's process-wide scope. */
  scope?: ProcessScope;
}

export type PermissionVerdict = { behavior: 'allow' } | { behavior: 'deny'; message: string };

/** Every handler's result for one event, combined the way Codex combines them. */
export interface HookOutcome {
  event: HookEventName;
  /** Completed runs of the synchronous handlers, in configured order. */
  runs: HookRunSummary[];
  /**
   * PreToolUse: the call must not run (reason for the model in `reason`). UserPromptSubmit: the
   * prompt is not sent. PermissionRequest: see `permission`.
   */
  blocked: boolean;
  reason?: string;
  /** `continue: false`: the turn (or SessionStart: the session) stops; `stopReason` for the user. */
  stop: boolean;
  stopReason?: string;
  /** Text for the model's context, in configured order. */
  additionalContexts: string[];
  /** PreToolUse / PermissionRequest: replacement tool input (the last handler to finish wins). */
  updatedInput?: unknown;
  /** PreToolUse `permissionDecision` (deny > ask > allow): allow skips the approval prompt, ask forces it. */
  permissionDecision?: 'allow' | 'ask' | 'deny';
  /** PermissionRequest: the hooks' answer to the approval (any deny wins, else an allow), or none. */
  permission?: PermissionVerdict;
  /** PostToolUse: text given to the model with the tool result (block reasons, exit-2 stderr). */
  feedback?: string;
  /** Stop / SubagentStop: continuation prompts; the agent keeps going with them. */
  continuation: string[];
  /** `systemMessage`s, shown to the user as warnings. */
  systemMessages: string[];
}
