// What the TUI needs from a session, and nothing more: a few operations in, one stream of events
// out. The events are the protocol's `ThreadEvent`s; the few things the protocol does not carry
// yet are defined here (marked "not in protocol/ yet") so the engine adapter can fill them in or
// leave them out. Everything else the TUI does (rendering, the composer, queues, the pager) is
// its own business.
import type {
  ApprovalAnswer,
  ExecApprovalRequest,
  FileChangeApprovalRequest,
  FileChangeEntry,
  FileChangeItem,
  ThreadEvent,
  ThreadItem,
  UserInput,
} from '../../protocol/index.js';

/** A file change entry with its unified diff, when the engine has it (not in protocol/ yet). */
export interface FileChangeEntryWithDiff extends FileChangeEntry {
  /** Unified diff of this file (`---`/`+++` headers optional). */
  diff?: string;
}

export interface FileChangeItemWithDiff extends Omit<FileChangeItem, 'changes'> {
  changes: FileChangeEntryWithDiff[];
}

/** The protocol's items, with file changes that may carry diffs. */
export type SessionItem = Exclude<ThreadItem, FileChangeItem> | FileChangeItemWithDiff;

/** `T` with the fields `K` optional: the engine fills them in; the modal does without them. */
type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** What the modal shows beyond what it needs (not in protocol/ yet). */
interface ApprovalExtras {
  /** The sandbox the command would run under (read-only, workspace-write, ...). */
  sandbox?: string;
  /** For a file change: the unified diff that would be applied (else each change's own diff). */
  diff?: string;
}

/** An approval request as the modal needs it; the protocol's ApprovalRequest is one. */
export type SessionApprovalRequest =
  | (Optional<ExecApprovalRequest, 'command_text' | 'sandboxed' | 'retry_without_sandbox'> & ApprovalExtras)
  | (Optional<FileChangeApprovalRequest, 'changes' | 'sandboxed'> & ApprovalExtras);

type WithSessionItem<E> = E extends { item: ThreadItem } ? Omit<E, 'item'> & { item: SessionItem } : E;
type WithSessionApproval<E> = E extends { type: 'approval.requested' } ? { type: 'approval.requested'; request: SessionApprovalRequest } : E;

/** The protocol's events, widened to the richer items and approval requests above. */
export type SessionThreadEvent = WithSessionApproval<WithSessionItem<ThreadEvent>>;

/** What the status line shows; every field optional, later events update earlier ones (not in protocol/ yet). */
export interface SessionInfo {
  thread_id?: string;
  thread_name?: string;
  model?: string;
  harness?: string;
  reasoning_effort?: string;
  sandbox?: string;
  approval_policy?: string;
  cwd?: string;
  /** The model's context window in tokens, for "context left". */
  context_window?: number;
}

export interface SessionInfoEvent {
  type: 'session.info';
  info: SessionInfo;
}

/** A steering message was handed to the model (so it leaves the TUI's queue; not in protocol/ yet). */
export interface SteerDeliveredEvent {
  type: 'steer.delivered';
  steer_id: string;
}

export type SessionEvent = SessionThreadEvent | SessionInfoEvent | SteerDeliveredEvent;

/** The four answers to an approval; a denial may carry text for the model (the engine's ThreadHandle.answerApproval takes it). */
export type { ApprovalAnswer } from '../../protocol/index.js';

export interface SlashCommandSpec {
  /** Without the slash. */
  name: string;
  description: string;
  /** e.g. "[model] [effort]". */
  args?: string;
}

/** What a slash command answered: text for the transcript, or an error; `exit` ends the TUI. */
export interface CommandResult {
  text?: string;
  error?: string;
  exit?: boolean;
}

export interface SessionPort {
  /** The session's events, in order; the iteration ends when the session closes. */
  readonly events: AsyncIterable<SessionEvent>;
  /** Start a turn with this input. */
  submit(input: UserInput): Promise<void>;
  /** Add input to the running turn, delivered at its next tool boundary (then `steer.delivered`). */
  steer(steerId: string, input: UserInput): Promise<void>;
  /** Take back a steering message not delivered yet; false when it already was. */
  retractSteer(steerId: string): Promise<boolean>;
  /** Stop the running turn and kill its commands. */
  interrupt(): Promise<void>;
  answerApproval(requestId: string, answer: ApprovalAnswer): Promise<void>;
  /** Fork the thread just before this user message and send `input` there instead (Esc Esc). */
  editMessage(userMessageId: string, input: UserInput): Promise<void>;
  /** The session's slash commands (the TUI adds /help, /quit, /copy, /reflow itself). */
  commands(): readonly SlashCommandSpec[];
  runCommand(name: string, args: string): Promise<CommandResult>;
  /** End the session (interrupting a running turn and saving the thread). */
  close(): Promise<void>;
}
