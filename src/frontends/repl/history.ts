// Prints a thread's history compactly: what the user asked, what the agent answered, the commands it
// ran (with exit codes) and the files it changed. The turns and their display items come from the
// engine's projection (core/history-view.ts); this file only decides how they look on a terminal.
import type { HistoryTurn } from '../../core/history-view.js';
import type { ThreadItem } from '../../protocol/index.js';

export interface HistoryLine {
  kind: 'user' | 'assistant' | 'command' | 'file_change' | 'tool' | 'note';
  text: string;
}

const TEXT_PREVIEW_LINES = 12;

/** The last `turns` turns, and how many came before them. */
export function recentTurns(all: readonly HistoryTurn[], turns: number): { shown: HistoryTurn[]; hidden: number } {
  if (!Number.isFinite(turns) || all.length <= turns) return { shown: [...all], hidden: 0 };
  return { shown: all.slice(all.length - turns), hidden: all.length - turns };
}

/** The turns as display lines, in order. Pure: the caller decides where they go. */
export function historyLines(turns: readonly HistoryTurn[]): HistoryLine[] {
  const lines: HistoryLine[] = [];
  for (const turn of turns) {
    for (const item of turn.items) {
      const line = itemLine(item);
      if (line) lines.push(line);
    }
    if (turn.status === 'interrupted') lines.push({ kind: 'note', text: '(turn interrupted)' });
  }
  return lines;
}

function itemLine(item: ThreadItem): HistoryLine | undefined {
  switch (item.type) {
    case 'user_message':
      return { kind: 'user', text: preview(item.text) };
    case 'agent_message':
      return { kind: 'assistant', text: preview(item.text) };
    case 'command_execution':
      return { kind: 'command', text: oneLine(item.command) + commandSuffix(item) };
    case 'file_change': {
      const text = item.changes.map((change) => `${change.kind === 'add' ? 'A' : change.kind === 'delete' ? 'D' : 'M'} ${change.path}`).join(', ');
      return { kind: 'file_change', text: (text || 'apply_patch') + (item.status === 'failed' ? '  → failed' : '') };
    }
    case 'tool_call': {
      const failed = item.status === 'failed' ? `  → failed: ${clip(oneLine(item.output ?? ''), 60)}` : item.status === 'in_progress' ? '  (no result: the turn was cut off)' : '';
      return { kind: 'tool', text: `${item.tool} ${clip(oneLine(item.arguments), 80)}${failed}` };
    }
    default:
      return undefined;
  }
}

function commandSuffix(item: Extract<ThreadItem, { type: 'command_execution' }>): string {
  if (item.exit_code !== null) return `  → exit ${item.exit_code}`;
  if (item.status === 'in_progress') return '  → still running';
  // No output at all: the turn was cut off before the command returned (see history-view.ts).
  if (item.aggregated_output === '') return '  (no result: the turn was cut off)';
  return item.status === 'failed' ? `  → failed: ${clip(oneLine(item.aggregated_output), 60)}` : '';
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
