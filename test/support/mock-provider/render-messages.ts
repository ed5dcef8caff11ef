// A scripted turn as the Anthropic Messages API streams it: `event:` + `data:` pairs, message_start,
// a ping, content blocks (thinking with signature_delta, text, tool_use with input_json_delta),
// message_delta with the stop reason and output usage, message_stop. The server's own searches
// follow the order of Anthropic's web search documentation (Streaming): a server_tool_use block
// whose input streams as input_json_delta, then a web_search_tool_result block that arrives whole
// in its content_block_start, then text whose citations come as citations_delta.
import { sentArguments, splitDeltas, usageOf, type MockSearchHit, type MockTurn, type MockWebSearch, type RenderContext } from './script.js';

function searchParts(search: MockWebSearch, n: number, i: number): { query: string; hits: MockSearchHit[]; error?: string } {
  if (typeof search !== 'string') return { query: search.query, hits: search.results ?? [], ...(search.error ? { error: search.error } : {}) };
  return { query: search, hits: [{ title: `About ${search}`, url: `https://example.com/mock${n}/${i}`, page_age: '1 day ago' }] };
}

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
  let firstHit: { hit: MockSearchHit; encrypted_index: string } | undefined;
  (turn.webSearches ?? []).forEach((search, i) => {
    const id = `srvtoolu_mock${ctx.n}_${i}`;
    const { query, hits, error } = searchParts(search, ctx.n, i);
    emit('content_block_start', { index, content_block: { type: 'server_tool_use', id, name: 'web_search', input: {} } });
    for (const partial_json of splitDeltas(JSON.stringify({ query }), size)) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    emit('content_block_stop', { index });
    index += 1;
    const content = error
      ? { type: 'web_search_tool_result_error', error_code: error }
      : hits.map((hit, h) => ({ type: 'web_search_result', title: hit.title, url: hit.url, encrypted_content: `enc_mock${ctx.n}_${i}_${h}`, page_age: hit.page_age ?? null }));
    if (!error && hits[0]) firstHit ??= { hit: hits[0], encrypted_index: `idx_mock${ctx.n}_${i}_0` };
    emit('content_block_start', { index, content_block: { type: 'web_search_tool_result', tool_use_id: id, content } });
    emit('content_block_stop', { index });
    index += 1;
  });
  if (turn.text !== undefined) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    if (turn.cite && firstHit) {
      const { hit, encrypted_index } = firstHit;
      const citation = { type: 'web_search_result_location', cited_text: turn.text.slice(0, 40), url: hit.url, title: hit.title, encrypted_index };
      emit('content_block_delta', { index, delta: { type: 'citations_delta', citation } });
    }
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
    usage: {
      output_tokens: u.output_tokens,
      ...(turn.webSearches?.length ? { server_tool_use: { web_search_requests: turn.webSearches.length } } : {}),
    },
  });
  emit('message_stop', {});
  return frames;
}

export function messagesErrorBody(status: number, message: string): unknown {
  const type =
    status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : status === 401 ? 'authentication_error' : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
