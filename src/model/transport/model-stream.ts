// One sampling request end to end: POST, retry what is worth retrying, read SSE through the wire's
// parser, and always finish with exactly one `completed` or `error` event.
//
// Two retry budgets, as in Codex: `requestMaxRetries` for failures before the stream starts
// (connection errors, 408/409/429/5xx) and `streamMaxRetries` for streams that break or go
// silent. A broken stream is only retried while `request.mayRetryStream()` allows it: once a tool
// call from this response has started running, replaying the response would run it twice.
import type { ModelError, ModelEvent } from '../../protocol/index.js';
import type { ModelRequest } from '../types.js';
import { classifyHttpError, connectionFailure, type ErrorContext } from './http-errors.js';
import { backoffDelayMs, MAX_ADVISED_DELAY_MS, type RetryClock } from './retry.js';
import { IdleTimeoutError, readSse } from './sse.js';
import { useBaselineWasmCompiler } from './wasm-baseline.js';
import { WireStreamError, type AttemptFailure, type WireAdapter } from './wire-adapter.js';

export const STREAM_FAILURE_PREFIX = 'stream disconnected before completion: ';

export interface TransportConfig {
  providerId: string;
  envKey?: string;
  /** Full endpoint URL including query parameters. */
  url: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  requestMaxRetries: number;
  streamMaxRetries: number;
  streamIdleTimeoutMs: number;
  clock: RetryClock;
}

type AttemptOutcome = { done: true } | { done: false; failure: AttemptFailure; layer: 'request' | 'stream' };

export async function* runModelStream(
  config: TransportConfig,
  adapter: WireAdapter,
  request: ModelRequest,
  signal?: AbortSignal,
): AsyncGenerator<ModelEvent> {
  let body: string;
  try {
    body = JSON.stringify(adapter.buildBody(request));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    yield { type: 'error', error: { kind: 'bad_request', message: `could not build the ${adapter.wire} request: ${reason}` } };
    return;
  }
  const headers = { ...config.headers };
  // Lower-cased so a harness header replaces a provider header instead of doubling it.
  for (const [name, value] of Object.entries(request.extraHeaders ?? {})) headers[name.toLowerCase()] = value;
  const retries = { request: 0, stream: 0 };
  for (;;) {
    if (signal?.aborted) {
      yield abortedEvent();
      return;
    }
    let outcome: AttemptOutcome | undefined;
    // The attempt is a generator so events reach the caller as they arrive.
    for await (const item of attempt(config, adapter, request, body, headers, signal)) {
      if ('type' in item) yield item;
      else outcome = item;
    }
    if (outcome?.done) return;
    if (!outcome) {
      yield { type: 'error', error: { kind: 'stream', message: `${STREAM_FAILURE_PREFIX}the stream ended without a result` } };
      return;
    }
    const { failure, layer } = outcome;
    if (failure.kind === 'aborted') {
      yield abortedEvent();
      return;
    }
    const max = layer === 'request' ? config.requestMaxRetries : config.streamMaxRetries;
    const waitTooLong = failure.delayMs !== undefined && failure.delayMs > MAX_ADVISED_DELAY_MS;
    const allowed =
      failure.retryable &&
      !waitTooLong &&
      retries[layer] < max &&
      (layer === 'request' || request.mayRetryStream?.() !== false);
    if (!allowed) {
      const error = finalError(failure, layer);
      if (failure.retryable && waitTooLong) {
        error.message += ` (the provider asks to wait ${Math.ceil((failure.delayMs ?? 0) / 1000)} s before retrying)`;
      }
      yield { type: 'error', error };
      return;
    }
    retries[layer] += 1;
    const delay = failure.delayMs ?? backoffDelayMs(retries[layer], config.clock.random);
    yield { type: 'retry', attempt: retries[layer], max_attempts: max, delay_ms: delay, reason: failure.message };
    try {
      await config.clock.sleep(delay, signal);
    } catch {
      yield abortedEvent();
      return;
    }
  }
}

async function* attempt(
  config: TransportConfig,
  adapter: WireAdapter,
  request: ModelRequest,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): AsyncGenerator<ModelEvent | AttemptOutcome> {
  const ctx: ErrorContext = {
    providerId: config.providerId,
    url: config.url.split('?')[0] ?? config.url,
    now: config.clock.now(),
    ...(config.envKey ? { envKey: config.envKey } : {}),
  };
  let response: Response;
  useBaselineWasmCompiler();
  try {
    response = await config.fetch(config.url, { method: 'POST', headers, body, ...(signal ? { signal } : {}) });
  } catch (error) {
    yield failed(signal?.aborted ? abortedFailure() : connectionFailure(error, ctx), 'request');
    return;
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    yield failed(classifyHttpError(response.status, response.headers, text, ctx), 'request');
    return;
  }
  const parser = adapter.createParser(request);
  let started = false;
  const emit = function* (events: ModelEvent[]): Generator<ModelEvent> {
    for (const event of events) {
      if (!started && event.type !== 'created') yield { type: 'created' };
      started = true;
      yield event;
    }
  };
  try {
    try {
      for await (const message of readSse(response.body, config.streamIdleTimeoutMs)) {
        const events = parser.push(message);
        yield* emit(events);
        if (events.some((e) => e.type === 'completed')) {
          yield { done: true };
          return;
        }
      }
    } catch (error) {
      if (error instanceof IdleTimeoutError || error instanceof WireStreamError) throw error;
      if (signal?.aborted) throw error;
      // A socket reset mid-body is judged like an early end: the parser knows what was missing.
    }
    yield* emit(parser.end());
    yield { done: true };
  } catch (error) {
    if (signal?.aborted) yield failed(abortedFailure(), 'stream');
    else if (error instanceof WireStreamError) yield failed(error.failure, 'stream');
    else if (error instanceof IdleTimeoutError) {
      yield failed({ kind: 'stream', retryable: true, message: error.message }, 'stream');
    } else {
      const message = error instanceof Error ? error.message : String(error);
      yield failed({ kind: 'stream', retryable: true, message }, 'stream');
    }
  }
}

function failed(failure: AttemptFailure, layer: 'request' | 'stream'): AttemptOutcome {
  return { done: false, failure, layer };
}

function abortedFailure(): AttemptFailure {
  return { kind: 'aborted', retryable: false, message: 'request aborted' };
}

function abortedEvent(): ModelEvent {
  return { type: 'error', error: { kind: 'aborted', message: 'request aborted' } };
}

function finalError(failure: AttemptFailure, layer: 'request' | 'stream'): ModelError {
  const message = layer === 'stream' ? STREAM_FAILURE_PREFIX + failure.message : failure.message;
  return { kind: failure.kind, message, ...(failure.status !== undefined ? { status: failure.status } : {}) };
}
