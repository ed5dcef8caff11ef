// Prints a resumed thread's history compactly: what the user asked, what the agent answered, the
// commands it ran (with exit codes) and the files it changed. Works from the neutral conversation
// items, so it renders any harness's tools: known shapes get a friendly line, others their name.
import type { ConversationItem, ToolOutput } from '../../protocol/index.js';
import { messageText } from '../../protocol/index.js';
import { looksLikeContextFragment } from '../../store/index.js';

export interface HistoryLine {
  kind: 'user' | 'assistant' | 'command' | 'file_change' | 'tool' | 'note';
  text: string;
}

const TEXT_PREVIEW_LINES = 12;
const INTERRUPTED_MARKER = '<turn_aborted>';

type CallItem = Extract<ConversationItem, { type: 'function_call' | 'custom_tool_call' }>;
type OutputItem = Extract<ConversationItem, { type: 'function_call_output' | 'custom_tool_call_output' }>;

function isTypedPrompt(item: ConversationItem): boolean {
  if (item.type !== 'message' || item.role !== 'user') return false;
  const text = messageText(item);
  return text.trim() !== '' && !text.trimStart().startsWith(INTERRUPTED_MARKER) && !looksLikeContextFragment(text);
}

/**
 * Where the last `turns` prompts begin, so a long thread prints only its recent part (the model
 * still gets all of it). Returns the index to slice from and how many prompts come before it.
 */
export function recentStart(history: readonly ConversationItem[], turns: number): { start: number; hiddenPrompts: number } {
  let seen = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    if (!isTypedPrompt(history[i]!)) continue;
    seen += 1;
    if (seen === turns) {
      let hiddenPrompts = 0;
      for (let j = 0; j < i; j++) if (isTypedPrompt(history[j]!)) hiddenPrompts += 1;
      return { start: i, hiddenPrompts };
    }
  }
  return { start: 0, hiddenPrompts: 0 };
}

/** The history as display lines, in order. Pure: the caller decides where they go. */
export function historyLines(history: readonly ConversationItem[]): HistoryLine[] {
  const outputs = new Map<string, OutputItem>();
  for (const item of history) {
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') outputs.set(item.call_id, item);
  }
  const lines: HistoryLine[] = [];
  for (const item of history) {
    switch (item.type) {
      case 'message': {
        const text = messageText(item);
        if (item.role === 'user') {
          if (text.trimStart().startsWith(INTERRUPTED_MARKER)) lines.push({ kind: 'note', text: '(turn interrupted)' });
          else if (text.trim() !== '' && !looksLikeContextFragment(text)) lines.push({ kind: 'user', text: preview(text) });
        } else if (item.role === 'assistant' && text.trim() !== '') {
          lines.push({ kind: 'assistant', text: preview(text) });
        }
        break;
      }
      case 'function_call':
      case 'custom_tool_call':
        lines.push(describeCall(item, outputs.get(item.call_id)));
        break;
      default:
        break;
    }
  }
  return lines;
}

export interface HistoryStyle {
  color: boolean;
}

export function formatHistoryLine(line: HistoryLine, style: HistoryStyle): string {
  const dim = (t: string) => (style.color ? `\x1b[2m${t}\x1b[22m` : t);
  const bold = (t: string) => (style.color ? `\x1b[1m${t}\x1b[22m` : t);
  switch (line.kind) {
    case 'user':
      return indent(line.text, bold('› '), '  ');
    case 'assistant':
      return indent(line.text, '• ', '  ');
    case 'command':
      return `${bold('$')} ${line.text}`;
    case 'file_change':
      return line.text;
    case 'tool':
    case 'note':
      return dim(line.text);
  }
}

function describeCall(call: CallItem, output: OutputItem | undefined): HistoryLine {
  const args = call.type === 'function_call' ? parseArgs(call.arguments) : undefined;
  const patch = call.type === 'custom_tool_call' ? call.input : typeof args?.['input'] === 'string' ? args['input'] : undefined;
  if (call.name === 'apply_patch' && patch !== undefined) {
    return { kind: 'file_change', text: patchSummary(patch) + resultSuffix(output, false) };
  }
  const command = commandOf(args);
  if (command !== undefined) return { kind: 'command', text: oneLine(command) + resultSuffix(output, true) };
  const file = args ? firstString(args, ['file_path', 'path', 'filePath', 'absolute_path']) : undefined;
  if (file !== undefined && /edit|write|replace|create|insert/i.test(call.name)) {
    return { kind: 'file_change', text: `M ${file} (${call.name})${resultSuffix(output, false)}` };
  }
  const detail = file ?? (call.type === 'custom_tool_call' ? oneLine(call.input) : oneLine(call.arguments));
  return { kind: 'tool', text: `${call.name} ${clip(detail, 80)}${resultSuffix(output, false)}` };
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

function patchSummary(patch: string): string {
  const entries: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (Add|Delete|Update) File: (.+)$/gm)) {
    entries.push(`${match[1] === 'Add' ? 'A' : match[1] === 'Delete' ? 'D' : 'M'} ${match[2]!.trim()}`);
  }
  return entries.length > 0 ? entries.join(', ') : 'apply_patch';
}

function outputText(output: ToolOutput): string {
  return typeof output === 'string' ? output : output.map((part) => ('text' in part ? part.text : '')).join('');
}

function resultSuffix(output: OutputItem | undefined, isCommand: boolean): string {
  if (!output) return '  (no result: the turn was cut off)';
  const text = outputText(output.output);
  if (isCommand) {
    const code = /Process exited with code (-?\d+)/.exec(text) ?? /^Exit code: (-?\d+)/m.exec(text);
    if (code) return `  → exit ${code[1]}`;
    if (/Process running with session ID/.test(text)) return '  → still running';
  }
  return output.is_error ? `  → failed: ${clip(oneLine(text), 60)}` : '';
}

function preview(text: string): string {
  const lines = text.trim().split('\n');
  if (lines.length <= TEXT_PREVIEW_LINES) return lines.join('\n');
  return [...lines.slice(0, TEXT_PREVIEW_LINES), `… (${lines.length - TEXT_PREVIEW_LINES} more lines)`].join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function indent(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? first : rest) + line)
    .join('\n');
}
