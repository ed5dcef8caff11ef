// Thread items: what happened in a thread, in the shape of Codex's `exec --json` items
// (reference/exec-and-protocol.md A.2), so Codex SDK clients read them unchanged.
import type { UserInputItem } from './user-input.js';

export type ItemStatus = 'in_progress' | 'completed' | 'failed' | 'declined';

export interface UserMessageItem {
  id: string;
  type: 'user_message';
  text: string;
  images?: string[];
}

export interface AgentMessageItem {
  id: string;
  type: 'agent_message';
  text: string;
}

export interface ReasoningThreadItem {
  id: string;
  type: 'reasoning';
  text: string;
}

export interface CommandExecutionItem {
  id: string;
  type: 'command_execution';
  command: string;
  aggregated_output: string;
  exit_code: number | null;
  status: ItemStatus;
}

export type FileChangeKind = 'add' | 'delete' | 'update';

export interface FileChangeEntry {
  path: string;
  kind: FileChangeKind;
  /** rig: the change as a unified diff (bounded), for people reading the run; not in `--json`. */
  diff?: string;
}

export interface FileChangeItem {
  id: string;
  type: 'file_change';
  changes: FileChangeEntry[];
  status: Exclude<ItemStatus, 'declined'>;
  /** rig: why a failed change was not made (as the model was told); not in `--json`. */
  error?: { message: string };
}

export interface McpToolCallItem {
  id: string;
  type: 'mcp_tool_call';
  server: string;
  tool: string;
  arguments: unknown;
  result: { content: unknown[]; structured_content: unknown } | null;
  error: { message: string } | null;
  status: Exclude<ItemStatus, 'declined'>;
  /** rig: the model's call id (rollouts pair the item with the call by it); not in `--json`. */
  call_id?: string;
  /** rig: how long the call took, approval time excluded; not in `--json`. */
  duration_ms?: number;
}

export interface WebSearchItem {
  id: string;
  type: 'web_search';
  query: string;
}

/**
 * rig: a harness tool that reads or searches files without a shell (Claude Code's Read, Grep,
 * Glob, LS and the other harnesses' equivalents). `rig exec --json` shows it as an mcp_tool_call
 * of server "rig", a type Codex SDK clients know.
 */
export interface FileToolItem {
  id: string;
  type: 'file_tool';
  /** The tool name the model called (e.g. "Read"). */
  tool: string;
  action: 'read' | 'search' | 'list';
  /** The path read or listed, or the pattern searched for. */
  target: string;
  /** Where a search looked, when the call named a place. */
  scope?: string;
  arguments: unknown;
  /** One line about the result, e.g. "120 lines". */
  summary: string;
  status: Exclude<ItemStatus, 'declined'>;
  error: { message: string } | null;
}

export interface TodoEntry {
  text: string;
  completed: boolean;
}

export interface TodoListItem {
  id: string;
  type: 'todo_list';
  items: TodoEntry[];
}

/** The history was replaced by a summary (rig shows it; Codex's app server calls it contextCompaction). */
export interface ContextCompactionItem {
  id: string;
  type: 'context_compaction';
  summary: string;
}

/**
 * A harness tool that is neither a command nor a file change (Read, Grep, web_fetch, ...), as the
 * history projection shows it. rig's own type: `rig exec --json` does not print it.
 */
export interface ToolCallItem {
  id: string;
  type: 'tool_call';
  tool: string;
  /** The call's arguments as the model sent them (or the file they name). */
  arguments: string;
  output?: string;
  status: Exclude<ItemStatus, 'declined'>;
}

/** One child's state as a collab_agent_tool_call item reports it. */
export interface CollabAgentState {
  status: 'pending_init' | 'running' | 'interrupted' | 'completed' | 'errored' | 'shutdown' | 'not_found';
  message?: string | null;
}

/**
 * A sub-agent tool call (Codex's collab tool call): which thread asked, which child threads it
 * concerns, and their states. Child activity itself arrives in the children's own envelopes.
 */
export interface CollabAgentToolCallItem {
  id: string;
  type: 'collab_agent_tool_call';
  /** The tool the model called (spawn_agent, wait_agent, Agent, task, ...). */
  tool: string;
  sender_thread_id: string;
  receiver_thread_ids: string[];
  /** The children's task paths, in the order of receiver_thread_ids. */
  agent_paths?: string[];
  prompt: string | null;
  agents_states: Record<string, CollabAgentState>;
  status: Exclude<ItemStatus, 'declined'>;
}

export interface ErrorThreadItem {
  id: string;
  type: 'error';
  message: string;
}

export type ThreadItem =
  | UserMessageItem
  | AgentMessageItem
  | ReasoningThreadItem
  | CommandExecutionItem
  | FileChangeItem
  | McpToolCallItem
  | WebSearchItem
  | FileToolItem
  | TodoListItem
  | ContextCompactionItem
  | ToolCallItem
  | CollabAgentToolCallItem
  | UserInputItem
  | ErrorThreadItem;

export type ThreadItemType = ThreadItem['type'];
