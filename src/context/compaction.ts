// Local compaction (reference/context-and-state.md §3): the engine asks the model for a summary
// with SUMMARY_PROMPT, then replaces the history with buildCompactedHistory(). Prompt texts are ours.
import { userText, type ConversationItem, type MessageItem } from '../protocol/index.js';
import { isContextualUserMessage, userMessageText } from './contextual.js';
import { estimateItemTokens, estimateTextTokens } from './tokens.js';

export const COMPACT_USER_MESSAGE_BUDGET = 20_000;

export const SUMMARY_PROMPT = `Pause the task. The conversation is about to be shortened, and the only record of the work so far will be the summary you write now. Another assistant with no access to this conversation will pick it up from your summary and the user's recent messages.

Write that summary. Cover:
- The goal: what the user asked for, including constraints and preferences they stated.
- Progress: what has been done, which files were created or changed and how, and what was verified (tests, builds, commands and their results).
- Decisions: approaches chosen or rejected, and why.
- Open work: what remains, the next concrete steps, and anything blocked or uncertain.
- Facts worth keeping verbatim: paths, identifiers, commands, error messages, versions, URLs.

Be concise and structured (short headings and bullet points). Do not call tools. Reply with the summary only.`;

export const SUMMARY_PREFIX = `[Context summary] Earlier parts of this conversation were condensed to stay within the context window. The summary below was written by an assistant that saw the full conversation; treat it as an accurate record of the work so far, build on it rather than redoing finished steps, and check the workspace if a detail matters.`;

export const NO_SUMMARY = '(no summary available)';

/** Shown to the user after each compaction. */
export const COMPACTION_WARNING =
  'The conversation was compacted into a summary. Long threads and repeated compactions make the model less accurate; consider starting a new thread when you change tasks.';

export function summaryMessageText(summary: string): string {
  const body = summary.trim() === '' ? NO_SUMMARY : summary.trim();
  return `${SUMMARY_PREFIX}\n${body}`;
}

export function isSummaryMessage(item: ConversationItem): boolean {
  return item.type === 'message' && item.role === 'user' && userMessageText(item).startsWith(SUMMARY_PREFIX);
}

/** Messages the user actually wrote (context fragments and earlier summaries excluded). */
export function realUserMessages(items: readonly ConversationItem[]): MessageItem[] {
  const out: MessageItem[] = [];
  for (const item of items) {
    if (item.type !== 'message' || item.role !== 'user') continue;
    if (isContextualUserMessage(item) || isSummaryMessage(item)) continue;
    out.push(item);
  }
  return out;
}

/** Keeps the head and tail of `text` within about `maxTokens`, marking the cut. */
export function truncateMiddle(text: string, maxTokens: number): string {
  const total = estimateTextTokens(text);
  if (total <= maxTokens) return text;
  const charsPerToken = text.length / Math.max(1, total);
  const omitted = total - maxTokens;
  const marker = `\n…[${omitted} tokens truncated]…\n`;
  const build = (keepChars: number): string => {
    const head = Math.ceil(keepChars / 2);
    const tail = keepChars - head;
    return text.slice(0, head) + marker + (tail > 0 ? text.slice(text.length - tail) : '');
  };
  let keepChars = Math.max(0, Math.floor(maxTokens * charsPerToken) - marker.length);
  let out = build(keepChars);
  // Cuts land mid-word and the marker costs tokens: shrink until the estimate fits.
  for (let attempt = 0; attempt < 6 && keepChars > 0; attempt++) {
    const tokens = estimateTextTokens(out);
    if (tokens <= maxTokens) break;
    keepChars = Math.max(0, Math.floor(keepChars * (maxTokens / tokens)) - 8);
    out = build(keepChars);
  }
  return out;
}

/** Below this remainder an older message is dropped rather than truncated to a stub. */
const MIN_TRUNCATED_TOKENS = 64;

export interface BuildCompactedHistoryOptions {
  /** The history being compacted (the summary request and reply excluded). */
  items: readonly ConversationItem[];
  /** The model's summary; empty gives "(no summary available)". */
  summary: string;
  /** Token budget for kept user messages (default 20,000). */
  maxUserTokens?: number;
}

/**
 * The history after compaction: recent user messages in chronological order, then the summary.
 * Everything kept fits the budget: older messages are taken newest first while they fit, and the
 * one that overflows is middle-truncated to the remainder. The last request is kept too, but
 * middle-truncated when it alone exceeds the budget, so a huge prompt cannot keep the history
 * above the window and make every step compact again.
 */
export function buildCompactedHistory(options: BuildCompactedHistoryOptions): ConversationItem[] {
  const budget = options.maxUserTokens ?? COMPACT_USER_MESSAGE_BUDGET;
  const users = realUserMessages(options.items);
  const kept: MessageItem[] = [];
  const last = users.at(-1);
  if (last) {
    const lastCost = estimateItemTokens(last);
    kept.push(lastCost <= budget ? last : userText(truncateMiddle(userMessageText(last), Math.max(MIN_TRUNCATED_TOKENS, budget - 8))));
    let remaining = budget - Math.min(lastCost, budget);
    for (let i = users.length - 2; i >= 0 && remaining > 0; i--) {
      const item = users[i]!;
      const cost = estimateItemTokens(item);
      if (cost <= remaining) {
        kept.push(item);
        remaining -= cost;
        continue;
      }
      if (remaining >= MIN_TRUNCATED_TOKENS) {
        kept.push(userText(truncateMiddle(userMessageText(item), remaining - 8)));
      }
      break;
    }
  }
  kept.reverse();
  return [...kept, userText(summaryMessageText(options.summary))];
}

/** The compaction request's input: the history followed by the summary prompt. */
export function summaryRequestInput(items: readonly ConversationItem[], prompt: string = SUMMARY_PROMPT): ConversationItem[] {
  return [...items, userText(prompt)];
}

/**
 * Mid-turn compaction continues the same turn, so the initial context (instructions,
 * environment) goes back in just before the last real user message.
 */
export function injectBeforeLastUserMessage(
  history: readonly ConversationItem[],
  items: readonly ConversationItem[],
): ConversationItem[] {
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    if (item.type === 'message' && item.role === 'user' && !isContextualUserMessage(item) && !isSummaryMessage(item)) {
      return [...history.slice(0, i), ...items, ...history.slice(i)];
    }
  }
  return [...items, ...history];
}
