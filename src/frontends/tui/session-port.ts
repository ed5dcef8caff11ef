// What the TUI needs from a session, and nothing more: a few operations in, one stream of events
// out. The events are exactly the protocol's `ThreadEvent`s (settings, names and steer deliveries
// included), so the engine adapter (engine-port.ts) forwards what the engine emits; the scripted
// demo port and the tests' fake port play the same events. Everything else the TUI does
// (rendering, the composer, queues, the pager) is its own business.
import type { ApprovalAnswer, ThreadEvent, ThreadItem, UserInput } from '../../protocol/index.js';

export type SessionEvent = ThreadEvent;

/** The four answers to an approval; a denial may carry text for the model (the engine's ThreadHandle.answerApproval takes it). */
export type { ApprovalAnswer };

export interface SlashCommandSpec {
  /** Without the slash. */
  name: string;
  description: string;
  /** e.g. "[model] [effort]". */
  args?: string;
}

/**
 * What a slash command answered: Markdown for the transcript, items to show there (a diff's file
 * changes), or an error; `exit` ends the TUI.
 */
export interface CommandResult {
  text?: string;
  items?: ThreadItem[];
  error?: string;
  exit?: boolean;
  /** The command needs a stored thread chosen: the TUI opens the picker, then runs `/<pick> ID`. */
  pick?: 'resume' | 'fork';
  /** A message to send as the user's (/init's request to the model). */
  send?: UserInput;
  /** /rewind with no turn named: the turns to choose from; the TUI asks, then runs `/rewind TURN MODE`. */
  rewind?: RewindTurn[];
  /** Text for the composer (a rewound turn's prompt, to edit and send again). */
  compose?: string;
}

/** What rewinding to the state before a turn would change. */
export interface RewindTurn {
  turnId: string;
  /** "turn 3". */
  label: string;
  /** Its first message. */
  prompt: string;
  /** The files it changed itself. */
  files: string[];
  /** Its file changes were undone already. */
  undone?: boolean;
  /** Restoring files: what would be put back (this turn's and every later one's changes). */
  restore: string[];
  /** Changed since by someone else: reported, not overwritten. */
  conflicts: string[];
  /** Too large when the turn ran, so not kept. */
  unrestorable: string[];
  /** Rewinding the conversation: how many turns the continued thread leaves out (this one and later). */
  turnsDropped: number;
}

export type RewindMode = 'files' | 'conversation' | 'both';

/** A stored thread as the picker lists it. */
export interface ThreadListing {
  id: string;
  /** The thread's name, else its first prompt. */
  title: string;
  cwd: string;
  /** Epoch milliseconds of its last write. */
  updatedAt: number;
  model?: string;
}

/** Stored threads, for the picker (`rig resume` with no id, `/resume`, `/fork`). */
export interface ThreadBrowser {
  /** The directory "this directory" means. */
  readonly cwd: string;
  /** Newest first; only those started in `cwd` unless `all`. */
  list(options: { all: boolean }): Promise<ThreadListing[]>;
  /** Everything said in the thread (prompts and answers), for searching by text. */
  text(id: string): Promise<string>;
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
  /** Stored threads for the picker; absent when the session has none to offer. */
  readonly threads?: ThreadBrowser;
  /** End the session (interrupting a running turn and saving the thread). */
  close(): Promise<void>;
}
