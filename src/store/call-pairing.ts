// Every wire rejects a history whose tool calls and outputs do not pair up: a call without an
// output (the process was killed in between), an output without its call (the call's line was
// corrupt and skipped on load), or the same call id twice (two writers interleaved, before
// threads had a lock). This repairs a loaded history so a damaged thread stays resumable.
import type { ConversationItem } from '../protocol/index.js';

export const ABORTED_CALL_OUTPUT = 'aborted: the session ended before this call returned; check the state before relying on it';

type Call = Extract<ConversationItem, { type: 'function_call' | 'custom_tool_call' }>;
type Output = Extract<ConversationItem, { type: 'function_call_output' | 'custom_tool_call_output' }>;

function isCall(item: ConversationItem): item is Call {
  return item.type === 'function_call' || item.type === 'custom_tool_call';
}

function isOutput(item: ConversationItem): item is Output {
  return item.type === 'function_call_output' || item.type === 'custom_tool_call_output';
}

export interface PairingRepair {
  history: ConversationItem[];
  /** What was changed, one line each (empty when the history was already well-formed). */
  repairs: string[];
}

/**
 * Pure: returns a history where each call id has exactly one call followed (before the next
 * message) by exactly one output. Duplicate calls and outputs are dropped (the first is kept),
 * outputs whose call is missing are dropped, and calls left without an output get an "aborted"
 * one after the step's other calls and outputs, as the wires expect.
 */
export function repairCallPairing(history: readonly ConversationItem[]): PairingRepair {
  const repairs: string[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  // First pass: which calls exist, and which have an output after them.
  for (const item of history) {
    if (isCall(item)) calls.add(item.call_id);
    else if (isOutput(item) && calls.has(item.call_id)) answered.add(item.call_id);
  }
  const out: ConversationItem[] = [];
  const seenCalls = new Set<string>();
  const seenOutputs = new Set<string>();
  let pending: ConversationItem[] = [];
  const flush = (): void => {
    out.push(...pending);
    pending = [];
  };
  for (const item of history) {
    if (item.type === 'message') flush();
    if (isCall(item)) {
      if (seenCalls.has(item.call_id)) {
        repairs.push(`dropped a second call with id ${item.call_id}`);
        continue;
      }
      seenCalls.add(item.call_id);
      out.push(item);
      if (!answered.has(item.call_id)) {
        repairs.push(`answered call ${item.call_id}, which has no output, as aborted`);
        const type = item.type === 'function_call' ? 'function_call_output' : 'custom_tool_call_output';
        pending.push({ type, call_id: item.call_id, output: ABORTED_CALL_OUTPUT, is_error: true } as Output);
      }
      continue;
    }
    if (isOutput(item)) {
      if (!seenCalls.has(item.call_id)) {
        repairs.push(`dropped an output for call ${item.call_id}, whose call is missing`);
        continue;
      }
      if (seenOutputs.has(item.call_id)) {
        repairs.push(`dropped a second output for call ${item.call_id}`);
        continue;
      }
      seenOutputs.add(item.call_id);
    }
    out.push(item);
  }
  flush();
  return { history: out, repairs };
}
