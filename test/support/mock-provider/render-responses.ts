// A scripted turn as the OpenAI Responses API streams it: `event: <type>` + `data: <json>`, with
// sequence numbers and the item lifecycle (added -> deltas -> done) of the real API.
import { searchQuery, argumentsText, sentArguments, splitDeltas, usageOf, type MockTurn, type RenderContext } from './script.js';

export function renderResponses(turn: MockTurn, ctx: RenderContext): string[] {
  let seq = 0;
  const frames: string[] = [];
  const emit = (type: string, fields: Record<string, unknown>): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`);
  };
  const size = turn.deltaSize ?? 8;
  const responseId = `resp_mock${ctx.n}`;
  const base = (status: string, output: unknown[]): Record<string, unknown> => ({
    id: responseId,
    object: 'response',
    created_at: 1_764_000_000 + ctx.n,
    status,
    model: ctx.model,
    output,
    usage: null,
  });
  emit('response.created', { response: base('in_progress', []) });
  emit('response.in_progress', { response: base('in_progress', []) });

  const output: Record<string, unknown>[] = [];
  if (turn.reasoning !== undefined) {
    const item_id = `rs_mock${ctx.n}`;
    const output_index = output.length;
    emit('response.output_item.added', { output_index, item: { id: item_id, type: 'reasoning', summary: [] } });
    emit('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } });
    for (const delta of splitDeltas(turn.reasoning, size)) {
      emit('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta });
    }
    emit('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text: turn.reasoning });
    emit('response.reasoning_summary_part.done', {
      item_id,
      output_index,
      summary_index: 0,
      part: { type: 'summary_text', text: turn.reasoning },
    });
    const item = {
      id: item_id,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: turn.reasoning }],
      encrypted_content: turn.signature ?? `enc_mock${ctx.n}`,
    };
    emit('response.output_item.done', { output_index, item });
    output.push(item);
  }
  (turn.webSearches ?? []).map(searchQuery).forEach((query, i) => {
    const item_id = `ws_mock${ctx.n}_${i}`;
    const output_index = output.length;
    emit('response.output_item.added', { output_index, item: { id: item_id, type: 'web_search_call', status: 'in_progress' } });
    emit('response.web_search_call.in_progress', { item_id, output_index });
    emit('response.web_search_call.searching', { item_id, output_index });
    emit('response.web_search_call.completed', { item_id, output_index });
    const item = { id: item_id, type: 'web_search_call', status: 'completed', action: { type: 'search', query } };
    emit('response.output_item.done', { output_index, item });
    output.push(item);
  });
  if (turn.text !== undefined) {
    const item_id = `msg_mock${ctx.n}`;
    const output_index = output.length;
    const started = { id: item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    emit('response.output_item.added', { output_index, item: started });
    emit('response.content_part.added', { item_id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of splitDeltas(turn.text, size)) {
      emit('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] });
    }
    emit('response.output_text.done', { item_id, output_index, content_index: 0, text: turn.text, logprobs: [] });
    const part = { type: 'output_text', text: turn.text, annotations: [] };
    emit('response.content_part.done', { item_id, output_index, content_index: 0, part });
    const item = { ...started, status: turn.outputLimit ? 'incomplete' : 'completed', content: [part] };
    emit('response.output_item.done', { output_index, item });
    output.push(item);
  }
  (turn.toolCalls ?? []).forEach((call, i) => {
    const output_index = output.length;
    const call_id = call.id ?? `call_${ctx.n}_${i}`;
    if (call.kind === 'custom') {
      const item_id = `ctc_mock${ctx.n}_${i}`;
      const input = call.input ?? '';
      const started = { id: item_id, type: 'custom_tool_call', status: 'in_progress', call_id, name: call.name, input: '' };
      emit('response.output_item.added', { output_index, item: started });
      for (const delta of splitDeltas(input, size)) emit('response.custom_tool_call_input.delta', { item_id, output_index, delta });
      emit('response.custom_tool_call_input.done', { item_id, output_index, input });
      const item = { ...started, status: 'completed', input };
      emit('response.output_item.done', { output_index, item });
      output.push(item);
      return;
    }
    const item_id = `fc_mock${ctx.n}_${i}`;
    const args = sentArguments(turn, call, i);
    const cut = args.length < argumentsText(call).length;
    const started = { id: item_id, type: 'function_call', status: 'in_progress', arguments: '', call_id, name: call.name };
    emit('response.output_item.added', { output_index, item: started });
    for (const delta of splitDeltas(args, size)) emit('response.function_call_arguments.delta', { item_id, output_index, delta });
    if (!cut) emit('response.function_call_arguments.done', { item_id, output_index, arguments: args });
    const item = { ...started, status: cut ? 'incomplete' : 'completed', arguments: args };
    emit('response.output_item.done', { output_index, item });
    output.push(item);
  });

  if (turn.streamError) {
    emit('response.failed', {
      response: { ...base('failed', output), error: { code: turn.streamError.code ?? 'server_error', message: turn.streamError.message } },
    });
    return frames;
  }
  const u = usageOf(turn);
  const usage = {
    input_tokens: u.input_tokens,
    input_tokens_details: { cached_tokens: u.cached_input_tokens },
    output_tokens: u.output_tokens,
    output_tokens_details: { reasoning_tokens: u.reasoning_output_tokens },
    total_tokens: u.input_tokens + u.output_tokens,
  };
  if (turn.outputLimit) {
    emit('response.incomplete', {
      response: { ...base('incomplete', output), incomplete_details: { reason: 'max_output_tokens' }, usage },
    });
    return frames;
  }
  emit('response.completed', {
    response: {
      ...base('completed', output),
      usage: {
        input_tokens: u.input_tokens,
        input_tokens_details: { cached_tokens: u.cached_input_tokens },
        output_tokens: u.output_tokens,
        output_tokens_details: { reasoning_tokens: u.reasoning_output_tokens },
        total_tokens: u.input_tokens + u.output_tokens,
      },
    },
  });
  return frames;
}

export function responsesErrorBody(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: status === 429 ? 'rate_limit_exceeded' : null } };
}
