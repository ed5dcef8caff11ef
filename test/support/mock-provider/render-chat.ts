// A scripted turn as an OpenAI-compatible Chat Completions server streams it: bare `data:` lines,
// `reasoning_content` deltas (DeepSeek/Kimi/Qwen style), tool calls whose id and name come in the
// first chunk and whose arguments follow in pieces, a usage chunk with no choices, then [DONE].
import { sentArguments, splitDeltas, usageOf, type MockTurn, type RenderContext } from './script.js';

export function renderChat(turn: MockTurn, ctx: RenderContext): string[] {
  const frames: string[] = [];
  const id = `chatcmpl-mock${ctx.n}`;
  const size = turn.deltaSize ?? 8;
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null): void => {
    const body = {
      id,
      object: 'chat.completion.chunk',
      created: 1_764_000_000 + ctx.n,
      model: ctx.model,
      system_fingerprint: 'fp_mock',
      choices: [{ index: 0, delta, logprobs: null, finish_reason }],
    };
    frames.push(`data: ${JSON.stringify(body)}\n\n`);
  };
  chunk({ role: 'assistant', content: '' });
  if (turn.reasoning !== undefined) {
    for (const piece of splitDeltas(turn.reasoning, size)) chunk({ reasoning_content: piece });
  }
  if (turn.text !== undefined) {
    for (const piece of splitDeltas(turn.text, size)) chunk({ content: piece });
  }
  const calls = turn.toolCalls ?? [];
  calls.forEach((call, index) => {
    const callId = call.id ?? `call_${ctx.n}_${index}`;
    chunk({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of splitDeltas(sentArguments(turn, call, index), size)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  if (turn.streamError) {
    const error = { code: turn.streamError.code ?? null, message: turn.streamError.message, type: turn.streamError.type ?? 'server_error' };
    frames.push(`data: ${JSON.stringify({ error })}\n\n`);
    return frames;
  }
  chunk({}, turn.outputLimit ? 'length' : calls.length ? 'tool_calls' : 'stop');
  const u = usageOf(turn);
  const usage = {
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    total_tokens: u.input_tokens + u.output_tokens,
    prompt_tokens_details: { cached_tokens: u.cached_input_tokens },
    completion_tokens_details: { reasoning_tokens: u.reasoning_output_tokens },
  };
  frames.push(
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_764_000_000 + ctx.n, model: ctx.model, choices: [], usage })}\n\n`,
  );
  frames.push('data: [DONE]\n\n');
  return frames;
}

export function chatErrorBody(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}
