// rig's thread items as ACP tool calls: a kind (execute, edit, read, search, fetch, think, other),
// a title a person can read, the files touched as locations, and content (command output as text,
// file changes as diffs of old and new text).
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { applyPatch } from 'diff';
import type { ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind } from '@agentclientprotocol/sdk';
import type { ApprovalRequest, FileChangeEntry, ItemStatus, ThreadItem } from '../../protocol/index.js';

export type ToolItem = Extract<ThreadItem, { type: 'command_execution' | 'file_change' | 'file_tool' | 'mcp_tool_call' | 'tool_call' | 'web_search' }>;

export function isToolItem(item: ThreadItem): item is ToolItem {
  return ['command_execution', 'file_change', 'file_tool', 'mcp_tool_call', 'tool_call', 'web_search'].includes(item.type);
}

function status(value: ItemStatus | undefined): ToolCallStatus {
  if (value === 'completed') return 'completed';
  if (value === 'failed' || value === 'declined') return 'failed';
  return 'in_progress';
}

function kindOf(item: ToolItem): ToolKind {
  switch (item.type) {
    case 'command_execution':
      return 'execute';
    case 'file_change':
      return item.changes.length > 0 && item.changes.every((change) => change.kind === 'delete') ? 'delete' : 'edit';
    case 'file_tool':
      return item.action === 'read' ? 'read' : 'search';
    case 'web_search':
      return 'fetch';
    default:
      return 'other';
  }
}

function titleOf(item: ToolItem): string {
  switch (item.type) {
    case 'command_execution':
      return item.command;
    case 'file_change':
      return `Edit ${item.changes.map((change) => change.path).join(', ')}`;
    case 'file_tool':
      return item.summary || `${item.tool} ${item.target}`;
    case 'mcp_tool_call':
      return `${item.server}: ${item.tool}`;
    case 'tool_call':
      return item.tool;
    case 'web_search':
      return `Search the web: ${item.query}`;
  }
}

function text(value: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: value } };
}

/**
 * A change as old and new text. The new text comes from applying the change's diff to the old
 * (read now, so call this before the change is applied); without a diff, only the path is known.
 */
export function changeDiff(change: Pick<FileChangeEntry, 'path' | 'kind' | 'diff'>, cwd: string): ToolCallContent | undefined {
  const path = absolute(change.path, cwd);
  let old: string | null = null;
  try {
    old = change.kind === 'add' ? null : readFileSync(path, 'utf8');
  } catch {
    old = null;
  }
  if (change.kind === 'delete') return { type: 'diff', path, oldText: old, newText: '' };
  if (!change.diff) return undefined;
  const applied = applyPatch(old ?? '', change.diff);
  if (applied === false) return undefined;
  return { type: 'diff', path, oldText: old, newText: applied };
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function locationsOf(item: ToolItem, cwd: string): ToolCallLocation[] {
  if (item.type === 'file_change') return item.changes.map((change) => ({ path: absolute(change.path, cwd) }));
  if (item.type === 'file_tool' && item.target) return [{ path: absolute(item.target, cwd) }];
  return [];
}

function outputOf(item: ToolItem): ToolCallContent[] {
  switch (item.type) {
    case 'command_execution':
      return item.aggregated_output ? [text(item.aggregated_output)] : [];
    case 'file_tool':
      return item.error ? [text(item.error.message)] : [];
    case 'mcp_tool_call':
      return item.error ? [text(item.error.message)] : item.result ? [text(JSON.stringify(item.result.content))] : [];
    case 'tool_call':
      return item.output ? [text(item.output)] : [];
    case 'file_change':
      return item.error ? [text(item.error.message)] : [];
    default:
      return [];
  }
}

function rawInput(item: ToolItem): unknown {
  switch (item.type) {
    case 'command_execution':
      return { command: item.command };
    case 'file_change':
      return { changes: item.changes.map(({ path, kind }) => ({ path, kind })) };
    case 'web_search':
      return { query: item.query };
    default:
      return item.arguments;
  }
}

/** The tool call an item opens with. `diffs` are the file changes' diffs, computed before they apply. */
export function toolCallStart(item: ToolItem, cwd: string, diffs: ToolCallContent[] = []): ToolCall {
  return {
    toolCallId: item.id,
    title: titleOf(item),
    kind: kindOf(item),
    status: item.type === 'web_search' ? 'completed' : status('status' in item ? item.status : undefined),
    locations: locationsOf(item, cwd),
    content: item.type === 'file_change' ? diffs : outputOf(item),
    rawInput: rawInput(item),
  };
}

/** The update that finishes an item's tool call. */
export function toolCallEnd(item: ToolItem, cwd: string, diffs: ToolCallContent[] = []) {
  const end = status('status' in item ? item.status : 'completed');
  const content = item.type === 'file_change' ? [...diffs, ...outputOf(item)] : outputOf(item);
  return {
    toolCallId: item.id,
    status: end,
    content,
    locations: locationsOf(item, cwd),
    ...(item.type === 'command_execution' ? { rawOutput: { exit_code: item.exit_code, status: item.status } } : {}),
  };
}

/** The tool call a permission request is about, as the item it will become. */
export function pendingToolCall(request: Exclude<ApprovalRequest, { kind: 'user_input' }>, cwd: string): ToolCall {
  if (request.kind === 'exec') {
    return { toolCallId: request.item_id, title: request.command_text, kind: 'execute', status: 'pending', rawInput: { command: request.command, cwd: request.cwd }, locations: [], content: [] };
  }
  if (request.kind === 'mcp_tool_call') {
    return { toolCallId: request.item_id, title: `${request.server}: ${request.tool}`, kind: 'other', status: 'pending', rawInput: request.arguments, locations: [], content: [] };
  }
  if (request.kind === 'network') {
    return { toolCallId: request.item_id ?? request.id, title: `Fetch ${request.url}`, kind: 'fetch', status: 'pending', rawInput: { url: request.url, purpose: request.purpose }, locations: [], content: [] };
  }
  if (request.kind === 'mcp_elicitation') {
    // Confirmations are asked by AcpSession.elicit, the rest declined; this is only the fallback view.
    return { toolCallId: request.item_id ?? request.id, title: request.message, kind: 'other', status: 'pending', locations: [], content: [] };
  }
  const diffs = request.changes.map((change) => changeDiff(change, cwd)).filter((diff): diff is ToolCallContent => diff !== undefined);
  return {
    toolCallId: request.item_id,
    title: `Edit ${request.paths.join(', ')}`,
    kind: 'edit',
    status: 'pending',
    locations: request.changes.map((change) => ({ path: absolute(change.path, cwd) })),
    content: diffs,
    rawInput: { changes: request.changes.map(({ path, kind }) => ({ path, kind })) },
  };
}
