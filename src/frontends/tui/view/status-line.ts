// The status line: model, harness, effort, sandbox and approvals, context left, tokens used and
// the thread's name. On a narrow terminal the least important parts go first.
import type { TokenUsage } from '../../../protocol/index.js';
import type { Line, Span } from '../text/styled.js';
import { lineWidth } from '../text/styled.js';
import { truncateLine } from '../text/wrap.js';
import { theme } from './theme.js';

/** What the status line shows, gathered from the session's events; every field optional. */
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

export interface StatusInput {
  info: SessionInfo;
  /** Usage of the last request (what is in the context now) and in total. */
  last?: TokenUsage;
  total?: TokenUsage;
}

export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 100_000) return `${(count / 1000).toFixed(1)}k`;
  if (count < 1_000_000) return `${Math.round(count / 1000)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

export function contextLeftPercent(window: number | undefined, last: TokenUsage | undefined): number | undefined {
  if (!window || !last) return undefined;
  const used = last.input_tokens + last.output_tokens;
  return Math.max(0, Math.min(100, Math.round(100 - (used / window) * 100)));
}

export function renderStatusLine(input: StatusInput, width: number): Line {
  const { info } = input;
  // Parts in order of importance; each is kept only if it still fits.
  const parts: { rank: number; spans: Span[] }[] = [];
  if (info.model) parts.push({ rank: 0, spans: [{ text: info.model, style: theme.bold }, ...(info.reasoning_effort ? [{ text: ` ${info.reasoning_effort}`, style: theme.dim }] : [])] });
  const left = contextLeftPercent(info.context_window, input.last);
  if (left !== undefined) parts.push({ rank: 1, spans: [{ text: `${left}% context left`, style: left < 15 ? theme.warning : theme.dim }] });
  if (info.sandbox || info.approval_policy) parts.push({ rank: 2, spans: [{ text: [info.sandbox, info.approval_policy].filter(Boolean).join(' · '), style: theme.dim }] });
  if (info.harness) parts.push({ rank: 4, spans: [{ text: info.harness, style: theme.dim }] });
  if (input.total) parts.push({ rank: 5, spans: [{ text: `${formatTokens(input.total.input_tokens + input.total.output_tokens)} tokens`, style: theme.dim }] });
  // The name says which thread this is: it outranks the harness and the token count.
  if (info.thread_name) parts.push({ rank: 3, spans: [{ text: info.thread_name, style: theme.accent }] });

  const separator: Span = { text: ' · ', style: theme.dim };
  const kept = new Set<number>();
  let used = 0;
  for (const part of [...parts].sort((a, b) => a.rank - b.rank)) {
    const cost = lineWidth(part.spans) + (kept.size > 0 ? 3 : 0);
    if (used + cost > width) continue;
    kept.add(part.rank);
    used += cost;
  }
  const line: Line = [];
  for (const part of parts) {
    if (!kept.has(part.rank)) continue;
    if (line.length > 0) line.push(separator);
    line.push(...part.spans);
  }
  return truncateLine(line, width);
}
