// A scripted turn as the Anthropic Messages API streams it: `event:` + `data:` pairs, message_start,
// a ping, content blocks (thinking with signature_delta, text, tool_use with input_json_delta),
// message_delta with the stop reason and output usage, message_stop.
import { sentArguments, splitDeltas, usageOf, type MockTurn, type RenderContext } from './script.js';

export function renderMessages(turn: MockTurn, ctx: RenderContext): string[] {
  const frames: string[] = [];
  const emit = (type: string, fields: Record<string, unknown>): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`);
  };
  const size = turn.deltaSize ?? 8;
  const u = usageOf(turn);
  emit('message_start', {
    message: {
      id: `msg_mock${ctx.n}`,
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: u.input_tokens - u.cached_input_tokens - u.cache_write_input_tokens,
        cache_creation_input_tokens: u.cache_write_input_tokens,
        cache_read_input_tokens: u.cached_input_tokens,
        output_tokens: 1,
      },
    },
  });
  emit('ping', {});
  let index = 0;
  if (turn.reasoning !== undefined) {
    emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const thinking of splitDeltas(turn.reasoning, size)) emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } });
    emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: turn.signature ?? `sig_mock${ctx.n}` } });
    emit('content_block_stop', { index });
    index += 1;
  }
  if (turn.text !== undefined) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const text of splitDeltas(turn.text, size)) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    emit('content_block_stop', { index });
    index += 1;
  }
  const calls = turn.toolCalls ?? [];
  calls.forEach((call, i) => {
    const id = call.id ?? `toolu_mock${ctx.n}_${i}`;
    emit('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } });
    emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const partial_json of splitDeltas(sentArguments(turn, call, i), size)) {
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    emit('content_block_stop', { index });
    index += 1;
  });
  if (turn.streamError) {
    emit('error', { error: { type: turn.streamError.type ?? 'overloaded_error', message: turn.streamError.message } });
    return frames;
  }
  emit('message_delta', {
    delta: { stop_reason: turn.outputLimit ? 'max_tokens' : calls.length ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: u.output_tokens },
  });
  emit('message_stop', {});
  return frames;
}

export function messagesErrorBody(status: number, message: string): unknown {
  const type =
    status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : status === 401 ? 'authentication_error' : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
