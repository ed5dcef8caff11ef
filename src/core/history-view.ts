// What a stored thread looks like to a person: its turns as display items (what the user asked,
// what the agent answered, the commands it ran and the files it changed). Works from the neutral
// conversation items, so it reads any harness's tools: known shapes become command and file items,
// others a generic tool_call. Serves resume printouts, readThread and every front end.
import type {
  CommandExecutionItem,
  ConversationItem,
  FileChangeEntry,
  ThreadItem,
  ToolCallItem,
  ToolOutput,
} from '../protocol/index.js';
import { messageText } from '../protocol/index.js';
import { looksLikeContextFragment, type RolloutRecord } from '../store/index.js';

export type HistoryTurnStatus = 'completed' | 'failed' | 'interrupted' | 'in_progress';

export interface HistoryTurn {
  /** The turn id recorded in the rollout; undefined when projected from bare history. */
  id?: string;
  status: HistoryTurnStatus;
  error?: string;
  items: ThreadItem[];
}

const INTERRUPTED_MARKER = '<turn_aborted>';

type CallItem = Extract<ConversationItem, { type: 'function_call' | 'custom_tool_call' }>;
type OutputItem = Extract<ConversationItem, { type: 'function_call_output' | 'custom_tool_call_output' }>;

function isInterruptionNote(text: string): boolean {
  return text.trimStart().startsWith(INTERRUPTED_MARKER);
}

/** A prompt the user typed (not injected context, not the interruption note). */
export function isTypedPrompt(item: ConversationItem): boolean {
  if (item.type !== 'message' || item.role !== 'user') return false;
  const text = messageText(item);
  return text.trim() !== '' && !isInterruptionNote(text) && !looksLikeContextFragment(text);
}

/** Display items of a run of conversation items, in order (outputs are looked up by call id). */
export function projectItems(history: readonly ConversationItem[], outputs = outputsOf(history)): ThreadItem[] {
  const items: ThreadItem[] = [];
  let n = 0;
  const id = () => `history_${n++}`;
  for (const item of history) {
    switch (item.type) {
      case 'message': {
        const text = messageText(item);
        if (item.role === 'user' && isTypedPrompt(item)) items.push({ id: id(), type: 'user_message', text });
        else if (item.role === 'assistant' && text.trim() !== '') items.push({ id: id(), type: 'agent_message', text });
        break;
      }
      case 'reasoning': {
        const text = item.summary.map((part) => part.text).filter((t) => t.trim() !== '').join('\n');
        if (text !== '') items.push({ id: id(), type: 'reasoning', text });
        break;
      }
      case 'function_call':
      case 'custom_tool_call':
        items.push(projectCall(id(), item, outputs.get(item.call_id)));
        break;
      default:
        break;
    }
  }
  return items;
}

function outputsOf(history: readonly ConversationItem[]): Map<string, OutputItem> {
  const outputs = new Map<string, OutputItem>();
  for (const item of history) {
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') outputs.set(item.call_id, item);
  }
  return outputs;
}

/**
 * Turns of bare history (no rollout at hand): a typed prompt opens a turn, the interruption note
 * closes one as interrupted.
 */
export function projectConversation(history: readonly ConversationItem[]): HistoryTurn[] {
  const outputs = outputsOf(history);
  const turns: HistoryTurn[] = [];
  let current: ConversationItem[] | undefined;
  let interrupted = false;
  const close = () => {
    if (current) turns.push({ status: interrupted ? 'interrupted' : 'completed', items: projectItems(current, outputs) });
    current = undefined;
    interrupted = false;
  };
  for (const item of history) {
    if (isTypedPrompt(item)) {
      close();
      current = [item];
      continue;
    }
    if (item.type === 'message' && item.role === 'user' && isInterruptionNote(messageText(item))) {
      interrupted = true;
      continue;
    }
    current?.push(item);
  }
  close();
  return turns.filter((turn) => turn.items.length > 0);
}

const END_STATUS: Record<string, HistoryTurnStatus> = { turn_complete: 'completed', turn_failed: 'failed', turn_aborted: 'interrupted' };

/**
 * Turns of a rollout as recorded: each turn_context opens one, its end event gives the status. Items
 * from before a compaction stay visible: this is what happened, not what the model sees next.
 */
export function projectRollout(records: readonly RolloutRecord[]): HistoryTurn[] {
  const all: ConversationItem[] = [];
  for (const record of records) if (record.type === 'response_item') all.push(record.payload);
  const outputs = outputsOf(all);
  const turns: HistoryTurn[] = [];
  let current: { id: string; items: ConversationItem[]; status: HistoryTurnStatus; error?: string } | undefined;
  const close = () => {
    if (!current) return;
    const items = projectItems(current.items, outputs);
    turns.push({ id: current.id, status: current.status, ...(current.error ? { error: current.error } : {}), items });
    current = undefined;
  };
  for (const record of records) {
    if (record.type === 'turn_context') {
      close();
      current = { id: record.payload.turn_id ?? `turn_${turns.length}`, items: [], status: 'in_progress' };
    } else if (record.type === 'response_item') {
      if (current) current.items.push(record.payload);
    } else if (record.type === 'compacted' && current) {
      current.items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: record.payload.message }] });
    } else if (record.type === 'event_msg' && current) {
      const payload = record.payload as { type: string; turn_id?: string; error?: string };
      const status = END_STATUS[payload.type];
      if (status && (payload.turn_id === undefined || payload.turn_id === current.id)) {
        current.status = status;
        if (payload.error) current.error = payload.error;
        close();
      }
    }
  }
  close();
  return turns;
}

function projectCall(id: string, call: CallItem, output: OutputItem | undefined): ThreadItem {
  const args = call.type === 'function_call' ? parseArgs(call.arguments) : undefined;
  const patch = call.type === 'custom_tool_call' ? call.input : typeof args?.['input'] === 'string' ? args['input'] : undefined;
  const text = output ? outputText(output.output) : undefined;
  if (call.name === 'apply_patch' && patch !== undefined) {
    return { id, type: 'file_change', changes: patchChanges(patch), status: output && !output.is_error ? 'completed' : 'failed' };
  }
  const command = commandOf(args);
  if (command !== undefined) return commandItem(id, command, output, text);
  const file = args ? firstString(args, ['file_path', 'path', 'filePath', 'absolute_path']) : undefined;
  if (file !== undefined && /edit|write|replace|create|insert/i.test(call.name)) {
    return { id, type: 'file_change', changes: [{ path: file, kind: 'update' }], status: output && !output.is_error ? 'completed' : 'failed' };
  }
  const item: ToolCallItem = {
    id,
    type: 'tool_call',
    tool: call.name,
    arguments: file ?? (call.type === 'custom_tool_call' ? call.input : call.arguments),
    status: !output ? 'in_progress' : output.is_error ? 'failed' : 'completed',
    ...(text !== undefined ? { output: text } : {}),
  };
  return item;
}

/**
 * A command's outcome from the tool output text: the exit code when the output states one, still
 * running when it names a session, and no output at all when the turn was cut off before it
 * returned (status failed, exit code null, empty output).
 */
function commandItem(id: string, command: string, output: OutputItem | undefined, text: string | undefined): CommandExecutionItem {
  const base = { id, type: 'command_execution' as const, command };
  if (!output || text === undefined) return { ...base, aggregated_output: '', exit_code: null, status: 'failed' };
  const code = /Process exited with code (-?\d+)/.exec(text) ?? /^Exit code: (-?\d+)/m.exec(text);
  const shown = commandOutput(text);
  if (code) {
    const exit = Number(code[1]);
    return { ...base, aggregated_output: shown, exit_code: exit, status: exit === 0 ? 'completed' : 'failed' };
  }
  if (/Process running with session ID/.test(text)) return { ...base, aggregated_output: shown, exit_code: null, status: 'in_progress' };
  return { ...base, aggregated_output: shown, exit_code: null, status: output.is_error ? 'failed' : 'completed' };
}

/** Header lines exec_command, write_stdin and shell put before a command's output for the model. */
const FRAMING_LINE = /^(Chunk ID: |Wall time: |Process exited with code |Process running with session ID |Original token count: |Exit code: |Total output lines: |Note: session \d+ was closed|command timed out after )/;

/**
 * What the command printed, as a live command item carries it: the framing the model was sent
 * (chunk id, wall time, exit code, token count, "Output:") is taken off when the text has it.
 */
function commandOutput(text: string): string {
  const lines = text.split('\n');
  const marker = lines.indexOf('Output:');
  if (marker < 0 || !lines.slice(0, marker).every((line) => FRAMING_LINE.test(line))) return text;
  return lines.slice(marker + 1).join('\n');
}

function parseArgs(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** exec_command {cmd}, shell {command: argv}, Bash {command: string}; `bash -lc X` shows X. */
function commandOf(args: Record<string, unknown> | undefined): string | undefined {
  if (!args) return undefined;
  const value = args['cmd'] ?? args['command'];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) {
    const argv = value as string[];
    if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]!;
    return argv.join(' ');
  }
  return undefined;
}

function firstString(args: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) if (typeof args[key] === 'string') return args[key] as string;
  return undefined;
}

function patchChanges(patch: string): FileChangeEntry[] {
  const changes: FileChangeEntry[] = [];
  for (const match of patch.matchAll(/^\*\*\* (Add|Delete|Update) File: (.+)$/gm)) {
    changes.push({ path: match[2]!.trim(), kind: match[1] === 'Add' ? 'add' : match[1] === 'Delete' ? 'delete' : 'update' });
  }
  return changes;
}

function outputText(output: ToolOutput): string {
  return typeof output === 'string' ? output : output.map((part) => ('text' in part ? part.text : '')).join('');
}
