// Chat Completions and Anthropic Messages resume the history's fold where the thread's last request
// left it settled (src/model/wires/history-memo.ts). Whatever the history, every request must be
// byte for byte what a fold from the start gives: a fresh copy of the same items has no memo.
import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../src/protocol/index.js';
import type { ModelRequest } from '../../src/model/types.js';
import { buildChatBody } from '../../src/model/wires/chat.js';
import { buildMessagesBody } from '../../src/model/wires/messages.js';
import { jsonChunksText, toJsonChunks } from '../../src/model/transport/json-chunks.js';
import { baseRequest } from './helpers.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

/** One agent step after another: calls (some in parallel), results (one with an image), text, reasoning. */
function steps(count: number): ConversationItem[][] {
  const out: ConversationItem[][] = [];
  for (let i = 0; i < count; i++) {
    const step: ConversationItem[] = [];
    if (i % 5 === 1) step.push({ type: 'reasoning', summary: [{ type: 'summary_text', text: `thinking ${i}` }], signature: `sig${i}` });
    if (i % 4 === 2) step.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `looking at ${i}` }] });
    step.push({ type: 'function_call', call_id: `c${i}`, name: 'shell', arguments: JSON.stringify({ cmd: `cat f${i}` }) });
    if (i % 3 === 0) step.push({ type: 'custom_tool_call', call_id: `p${i}`, name: 'apply_patch', input: `*** Begin Patch\n*** End Patch ${i}` });
    step.push({ type: 'function_call_output', call_id: `c${i}`, output: i % 7 === 3 ? [{ type: 'input_text', text: `shot ${i}` }, { type: 'input_image', image_url: PNG }] : `out ${i}\n`.repeat(3) });
    if (i % 3 === 0) step.push({ type: 'custom_tool_call_output', call_id: `p${i}`, output: 'Done!' });
    if (i % 6 === 5) step.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `also do ${i}` }] });
    out.push(step);
  }
  return out;
}

const wires = {
  chat: (request: ModelRequest) => buildChatBody(request),
  messages: (request: ModelRequest) => buildMessagesBody(request),
};

function sent(build: (request: ModelRequest) => Record<string, unknown>, request: ModelRequest): string {
  return jsonChunksText(toJsonChunks(build(request)));
}

/** The same request over fresh copies of its items: nothing remembered applies to them. */
function fromScratch(build: (request: ModelRequest) => Record<string, unknown>, request: ModelRequest): string {
  return sent(build, { ...request, input: structuredClone(request.input) });
}

describe.each(Object.entries(wires))('%s: a growing history', (_wire, build) => {
  it('every request is what folding from the start gives, step after step', () => {
    const history: ConversationItem[] = [...baseRequest().input];
    for (const step of steps(40)) {
      history.push(...step);
      const request = baseRequest({ input: [...history] });
      expect(sent(build, request)).toBe(fromScratch(build, request));
    }
  });

  it('the same request twice, then a retry after the answer was dropped, stays right', () => {
    const history: ConversationItem[] = [...baseRequest().input, ...steps(6).flat()];
    const request = baseRequest({ input: [...history] });
    const first = sent(build, request);
    expect(sent(build, request)).toBe(first);
    expect(sent(build, baseRequest({ input: history.slice(0, -2) }))).toBe(fromScratch(build, baseRequest({ input: history.slice(0, -2) })));
    expect(sent(build, request)).toBe(first);
  });

  it('an earlier item replaced (compaction, an edited history) or new instructions: folded again from the start', () => {
    const history: ConversationItem[] = [...baseRequest().input, ...steps(8).flat()];
    sent(build, baseRequest({ input: [...history] }));
    const compacted = [history[0]!, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'summary of the work so far' }] } as ConversationItem, ...history.slice(-3)];
    expect(sent(build, baseRequest({ input: compacted }))).toBe(fromScratch(build, baseRequest({ input: compacted })));
    const edited = [...history];
    edited[3] = { type: 'function_call_output', call_id: 'c0', output: 'changed' };
    expect(sent(build, baseRequest({ input: edited }))).toBe(fromScratch(build, baseRequest({ input: edited })));
    const otherPrompt = baseRequest({ input: [...history], instructions: 'Another prompt.' });
    expect(sent(build, otherPrompt)).toBe(fromScratch(build, otherPrompt));
  });
});

it('messages: the prompt-caching marker is only ever on the last block, never left on an earlier one', () => {
  const history: ConversationItem[] = [...baseRequest().input];
  for (const step of steps(12)) {
    history.push(...step);
    const body = JSON.parse(sent(wires.messages, baseRequest({ input: [...history] }))) as { messages: { content: { cache_control?: unknown }[] }[] };
    const marked = body.messages.flatMap((message, m) => message.content.flatMap((block, b) => (block.cache_control ? [`${m}.${b}`] : [])));
    const last = body.messages.length - 1;
    expect(marked).toEqual([`${last}.${body.messages[last]!.content.length - 1}`]);
  }
});

it('chat and messages over the same history do not mix their memos', () => {
  const history: ConversationItem[] = [...baseRequest().input, ...steps(5).flat()];
  const request = baseRequest({ input: [...history] });
  for (let i = 0; i < 3; i++) {
    expect(sent(wires.chat, request)).toBe(fromScratch(wires.chat, request));
    expect(sent(wires.messages, request)).toBe(fromScratch(wires.messages, request));
  }
});
