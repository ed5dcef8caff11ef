// Where the last lowering of a thread's history stopped being able to change, so the next request
// lowers only what came after it.
//
// Chat Completions and Anthropic Messages lower the history by folding it: consecutive items merge
// into one message (an assistant's text and tool calls; a run of tool results). Every request of a
// thread folds the same items again plus a few new ones, and re-encoded every message: on a
// 1,000-step Chat Completions soak the step overhead grew from 14 to 24 ms and private memory to
// 40 MB, against 14 ms and 29 MB on the Responses wire, which lowers and encodes each item once.
//
// A wire records, after each fold, the messages no later item can change ("settled": followed by
// a message that closed them) and how many items made them. The next request whose history starts
// with those same items (the same objects: history items never change once appended) and whose
// settings the fold reads are the same resumes after them; anything else folds from the start.
// Settled messages are marked stableJson, so their JSON is encoded once too. A wire must never
// change a settled message afterwards, nor hand one out to be changed (the prompt-caching marker
// on the last block is set on a message that is not settled).
import { stableJson } from '../transport/json-chunks.js';
import type { ConversationItem } from './shared-types.js';

interface Memo {
  settings: readonly unknown[];
  items: readonly ConversationItem[];
  messages: readonly object[];
}

// Keyed by the history's first item: one memo per thread (a fork that shares its parent's items
// shares the memo, and the item check sends it back to folding from the start when they part).
const memos = new WeakMap<ConversationItem, Memo>();

export interface ResumedFold<M> {
  /** Index of the first item still to fold. */
  from: number;
  /** The settled messages of the items before `from`: a fresh array the fold may push onto. */
  messages: M[];
  /** How many messages came from the memo (already marked stableJson). */
  reused: number;
}

function sameSettings(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}

/** Where a fold of `input` can start, given the `settings` it reads (compared with Object.is). */
export function resumeFold<M extends object>(input: readonly ConversationItem[], settings: readonly unknown[]): ResumedFold<M> {
  const first = input[0];
  const memo = first === undefined ? undefined : memos.get(first);
  // At least one item past the memo: a wire may finish the last message it builds (Messages marks
  // its last block for prompt caching), and that must never be a settled one.
  if (!memo || memo.items.length >= input.length || !sameSettings(memo.settings, settings)) return { from: 0, messages: [], reused: 0 };
  for (let i = 1; i < memo.items.length; i++) if (memo.items[i] !== input[i]) return { from: 0, messages: [], reused: 0 };
  return { from: memo.items.length, messages: memo.messages.slice() as M[], reused: memo.messages.length };
}

/**
 * Records that `input[0, consumed)` folds to `messages[0, settled)`, none of which a later item can
 * change. The first `reused` of them came from the memo and were marked already.
 */
export function rememberFold(input: readonly ConversationItem[], settings: readonly unknown[], consumed: number, messages: readonly object[], settled: number, reused: number): void {
  const first = input[0];
  if (first === undefined || consumed === 0) return;
  for (let i = reused; i < settled; i++) stableJson(messages[i]!);
  memos.set(first, { settings, items: input.slice(0, consumed), messages: messages.slice(0, settled) });
}
