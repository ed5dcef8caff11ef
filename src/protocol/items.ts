// Thread items: what happened in a thread, in the shape of Codex's `exec --json` items
// (reference/exec-and-protocol.md A.2), so Codex SDK clients read them unchanged.

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
}

export interface FileChangeItem {
  id: string;
  type: 'file_change';
  changes: FileChangeEntry[];
  status: Exclude<ItemStatus, 'declined'>;
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
}

export interface WebSearchItem {
  id: string;
  type: 'web_search';
  query: string;
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
  | TodoListItem
  | ContextCompactionItem
  | ToolCallItem
  | ErrorThreadItem;

export type ThreadItemType = ThreadItem['type'];
