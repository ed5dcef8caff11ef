// The one reply a capture's loopback server gives: a short final message, streamed (or not) the
// way each wire does it, so the original sees a finished turn and exits. Written from the wire
// formats rig's own adapters parse (src/model/wires/*).
import type { WireApi } from '../../model/types.js';

export const CAPTURE_REPLY = 'Done.';

const USAGE = { input: 10, output: 2 };

function sse(frames: { event?: string; data: unknown }[]): string {
  return frames
    .map((frame) => `${frame.event ? `event: ${frame.event}\n` : ''}data: ${typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)}\n\n`)
    .join('');
}

function responsesReply(model: string, n: number): { stream: string; json: unknown } {
  const id = `resp_capture${n}`;
  const message = { id: `msg_capture${n}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: CAPTURE_REPLY, annotations: [] }] };
  const usage = { input_tokens: USAGE.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: USAGE.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: USAGE.input + USAGE.output };
  const response = (status: string, output: unknown[], withUsage: boolean) => ({
    id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model, output, usage: withUsage ? usage : null,
  });
  let seq = 0;
  const event = (type: string, fields: Record<string, unknown>) => ({ event: type, data: { type, sequence_number: seq++, ...fields } });
  const stream = sse([
    event('response.created', { response: response('in_progress', [], false) }),
    event('response.in_progress', { response: response('in_progress', [], false) }),
    event('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }),
    event('response.content_part.added', { item_id: message.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
    event('response.output_text.delta', { item_id: message.id, output_index: 0, content_index: 0, delta: CAPTURE_REPLY, logprobs: [] }),
    event('response.output_text.done', { item_id: message.id, output_index: 0, content_index: 0, text: CAPTURE_REPLY, logprobs: [] }),
    event('response.content_part.done', { item_id: message.id, output_index: 0, content_index: 0, part: message.content[0] }),
    event('response.output_item.done', { output_index: 0, item: message }),
    event('response.completed', { response: response('completed', [message], true) }),
  ]);
  return { stream, json: response('completed', [message], true) };
}

function chatReply(model: string, n: number): { stream: string; json: unknown } {
  const id = `chatcmpl-capture${n}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finish: string | null, usage?: unknown) => ({
    id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}),
  });
  const usage = { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output };
  const stream = sse([
    { data: chunk({ role: 'assistant', content: '' }, null) },
    { data: chunk({ content: CAPTURE_REPLY }, null) },
    { data: chunk({}, 'stop') },
    { data: { id, object: 'chat.completion.chunk', created, model, choices: [], usage } },
    { data: '[DONE]' },
  ]);
  const json = { id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content: CAPTURE_REPLY }, finish_reason: 'stop' }], usage };
  return { stream, json };
}

function messagesReply(model: string, n: number): { stream: string; json: unknown } {
  const id = `msg_capture${n}`;
  const start = { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: USAGE.input, output_tokens: 1 } };
  const stream = sse([
    { event: 'message_start', data: { type: 'message_start', message: start } },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: CAPTURE_REPLY } } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: USAGE.output } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
  const json = { ...start, content: [{ type: 'text', text: CAPTURE_REPLY }], stop_reason: 'end_turn', usage: { input_tokens: USAGE.input, output_tokens: USAGE.output } };
  return { stream, json };
}

/** The wire a request path speaks, from its endpoint. */
export function wireOfPath(path: string): WireApi | undefined {
  const bare = path.split('?')[0] ?? '';
  if (bare.endsWith('/responses')) return 'responses';
  if (bare.endsWith('/chat/completions')) return 'chat';
  if (bare.endsWith('/messages')) return 'messages';
  return undefined;
}

/** The reply body for request number `n` on `wire`: SSE text when streaming, else JSON. */
export function captureReply(wire: WireApi, model: string, n: number, stream: boolean): { contentType: string; body: string } {
  const reply = wire === 'responses' ? responsesReply(model, n) : wire === 'chat' ? chatReply(model, n) : messagesReply(model, n);
  return stream ? { contentType: 'text/event-stream', body: reply.stream } : { contentType: 'application/json', body: JSON.stringify(reply.json) };
}
