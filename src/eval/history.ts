// A trial's conversation as comparable lines (from its rollout): messages, tool calls and the
// position of tool outputs, with ids dropped and the workspace path and dates masked. Tool output
// text is left out: it legitimately differs between runs (timings, chunk ids); what the agent
// does with it shows up in the calls that follow.
import { parseRollout } from '../core/rollout-files.js';
import { normalizeText } from './fingerprint.js';

export function historyLines(rolloutText: string, workspace?: string): string[] {
  const lines: string[] = [];
  for (const record of parseRollout(rolloutText).records) {
    if (record.type !== 'response_item') continue;
    const item = record.payload as unknown as Record<string, unknown>;
    const type = String(item['type']);
    if (type === 'message') {
      const content = Array.isArray(item['content']) ? (item['content'] as { text?: string }[]).map((part) => part.text ?? '').join('') : String(item['content'] ?? '');
      lines.push(`${String(item['role'])}: ${normalizeText(content, workspace)}`);
    } else if (type === 'function_call') {
      lines.push(`call ${String(item['name'])}(${normalizeText(String(item['arguments'] ?? ''), workspace)})`);
    } else if (type === 'custom_tool_call') {
      lines.push(`call ${String(item['name'])}<<${normalizeText(String(item['input'] ?? ''), workspace)}>>`);
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      lines.push('output');
    } else if (type === 'reasoning') {
      lines.push('reasoning');
    }
  }
  return lines;
}

export function describeHistoryChange(before: string[], after: string[]): string | undefined {
  const length = Math.max(before.length, after.length);
  for (let i = 0; i < length; i++) {
    if (before[i] === after[i]) continue;
    const show = (line: string | undefined) => (line === undefined ? '(nothing)' : JSON.stringify(line.length > 140 ? `${line.slice(0, 137)}...` : line));
    return `history item ${i + 1} differs: recorded ${show(before[i])}, replayed ${show(after[i])}`;
  }
  return undefined;
}
