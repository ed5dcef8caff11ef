// Local compaction: ask the model for a handoff summary, then replace the history with the recent
// user messages and the summary. Used on /compact, before a turn when the context passes the
// auto-compact limit, and when a request fails because the context is too long.
import type { RigConfig } from '../config/index.js';
import type { ConversationItem, TokenUsage } from '../protocol/index.js';
import { addUsage, messageText } from '../protocol/index.js';
import {
  COMPACTION_WARNING,
  COMPACT_USER_MESSAGE_BUDGET,
  SUMMARY_PROMPT,
  buildCompactedHistory,
  isContextualUserMessage,
  summaryRequestInput,
} from '../context/index.js';
import type { Thread, TurnResult } from './thread.js';

export interface CompactionOptions {
  config: Pick<RigConfig, 'compact_prompt'>;
  model: string;
  /** Budget for kept user messages (default 20,000 tokens; smaller for small context windows). */
  maxUserTokens?: number;
}

/** The kept-messages budget: 20,000 tokens, but never more than half the compaction limit. */
export function userMessageBudget(autoCompactTokenLimit: number): number {
  return Math.min(COMPACT_USER_MESSAGE_BUDGET, Math.floor(autoCompactTokenLimit / 2));
}

/** Oldest items dropped, one per retry, when even the summary request does not fit. */
const MAX_OVERFLOW_DROPS = 32;

async function requestSummary(thread: Thread, history: ConversationItem[], prompt: string): Promise<{ summary: string; usage?: TokenUsage } | { error: string }> {
  let items = history;
  for (let attempt = 0; attempt <= MAX_OVERFLOW_DROPS; attempt++) {
    const request = thread.buildRequest({ input: summaryRequestInput(items, prompt) });
    let summary = '';
    let usage: TokenUsage | undefined;
    let error: { kind: string; message: string } | undefined;
    for await (const event of thread.client.stream(request)) {
      if (event.type === 'item_done' && event.item.type === 'message' && event.item.role === 'assistant') {
        summary = messageText(event.item);
      } else if (event.type === 'retry') {
        summary = '';
      } else if (event.type === 'error') {
        error = event.error;
      } else if (event.type === 'completed') {
        usage = event.usage;
      }
    }
    if (!error) return { summary, ...(usage ? { usage } : {}) };
    if (error.kind !== 'context_length' || items.length <= 1) return { error: error.message };
    items = items.slice(1);
  }
  return { error: 'the conversation is too long to summarise even after dropping its oldest items' };
}

/** Compacts the thread's history in place. Emits a context_compaction item and a warning. */
export async function compactThread(thread: Thread, options: CompactionOptions): Promise<TurnResult> {
  const history = [...thread.history];
  const prompt = options.config.compact_prompt ?? SUMMARY_PROMPT;
  const result = await requestSummary(thread, history, prompt);
  if ('error' in result) {
    return { status: 'failed', error: `compaction failed: ${result.error}`, usage: thread.usage };
  }
  // The opening context (AGENTS.md, environment) stays in front so the model keeps its bearings.
  const context = history.filter((item) => item.type === 'message' && (item.role === 'developer' || isContextualUserMessage(item)));
  const replacement = [...context, ...buildCompactedHistory({ items: history, summary: result.summary, ...(options.maxUserTokens ? { maxUserTokens: options.maxUserTokens } : {}) })];
  // The summary request is paid for like any other: it counts in the thread's usage.
  if (result.usage) thread.usage = addUsage(thread.usage, result.usage);
  thread.replaceHistory(replacement, result.summary);
  thread.emit({ type: 'item.completed', item: { id: thread.newItemId(), type: 'context_compaction', summary: result.summary } });
  thread.emit({ type: 'item.completed', item: { id: thread.newItemId(), type: 'error', message: COMPACTION_WARNING } });
  return { status: 'completed', lastAgentMessage: result.summary, usage: thread.usage };
}
