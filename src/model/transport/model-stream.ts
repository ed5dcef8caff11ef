// One sampling request end to end: POST, retry what is worth retrying, read SSE through the wire's
// parser, and always finish with exactly one `completed` or `error` event.
//
// Two retry budgets, as in Codex: `requestMaxRetries` for failures before the stream starts
// (connection errors, 408/409/429/5xx) and `streamMaxRetries` for streams that break or go
// silent. A broken stream is only retried while `request.mayRetryStream()` allows it: once a tool
// call from this response has started running, replaying the response would run it twice.
import type { ModelError, ModelEvent } from '../../protocol/index.js';
import type { ModelRequest } from '../types.js';
import { classifyHttpError, connectionFailure, firstBytes, headersTimeout, notAStream, type ErrorContext } from './http-errors.js';
import { backoffDelayMs, MAX_ADVISED_DELAY_MS, type RetryClock } from './retry.js';
import type { HttpPost, HttpResponse } from './http-post.js';
import { IdleTimeoutError, readSse } from './sse.js';
import { toJsonChunks, type JsonChunks } from './json-chunks.js';
import { parseJsonData, WireStreamError, type AttemptFailure, type WireAdapter } from './wire-adapter.js';
import { displayUrl, scrubSecrets } from '../url.js';

export const STREAM_FAILURE_PREFIX = 'stream disconnected before completion: ';

export interface TransportConfig {
  providerId: string;
  envKey?: string;
  /** Full endpoint URL including query parameters. */
  url: string;
  /** Values no message may contain (key, header values, base_url password): replaced by ***. */
  secrets?: readonly string[];
  headers: Record<string, string>;
  post: HttpPost;
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
  let body: JsonChunks;
  try {
    body = toJsonChunks(adapter.buildBody(request));
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
      else outcome = { ...item, ...(item.done ? {} : { failure: scrubFailure(item.failure, config.secrets ?? []) }) } as AttemptOutcome;
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
      const error = finalError(failure, layer, config.providerId);
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
  body: JsonChunks,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): AsyncGenerator<ModelEvent | AttemptOutcome> {
  const target = urlFacts(config.url);
  const ctx: ErrorContext = {
    providerId: config.providerId,
    url: target.display,
    now: config.clock.now(),
    idleTimeoutMs: config.streamIdleTimeoutMs,
    ...(config.envKey ? { envKey: config.envKey } : {}),
  };
  const reserved = target.reservedHost;
  if (reserved) {
    // RFC 6761: names under .invalid never resolve; no lookup is needed to know it.
    yield failed(connectionFailure({ cause: { code: 'ENOTFOUND', hostname: reserved } }, ctx), 'request');
    return;
  }
  let response: HttpResponse;
  // The idle timeout also covers the wait for response headers: a server that accepts the request
  // and never answers must not hang the turn.
  const headerWait = new AbortController();
  const fetchSignal = signal ? AbortSignal.any([signal, headerWait.signal]) : headerWait.signal;
  const timer = config.streamIdleTimeoutMs > 0 ? setTimeout(() => headerWait.abort(), config.streamIdleTimeoutMs) : undefined;
  try {
    response = await config.post(config.url, { headers, body, signal: fetchSignal });
  } catch (error) {
    if (signal?.aborted) yield failed(abortedFailure(), 'request');
    else if (headerWait.signal.aborted) yield failed(headersTimeout(ctx), 'stream');
    else yield failed(connectionFailure(error, ctx), 'request');
    return;
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    yield failed(classifyHttpError(response.status, response.headers, text, ctx), 'request');
    return;
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (/json|html/i.test(contentType) && !/event-stream/i.test(contentType)) {
    // A server that ignored `stream: true`, or is not this API: another attempt gets the same.
    const text = await response.text().catch(() => '');
    yield failed(notAStream(contentType, text, ctx), 'request');
    return;
  }
  const parser = adapter.createParser(request);
  const seen: StreamObservation = { head: '', parsed: 0, unparsed: 0 };
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
      for await (const message of readSse(response.body, config.streamIdleTimeoutMs, seen)) {
        const json = parseJsonData(message.data);
        if (json !== undefined) seen.parsed += 1;
        else if (message.data.trim() !== '[DONE]') {
          seen.unparsed += 1;
          seen.firstUnparsed ??= message.data;
        }
        const events = parser.push(message, json);
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
    try {
      yield* emit(parser.end());
    } catch (error) {
      if (error instanceof WireStreamError) throw new WireStreamError(explainEarlyEnd(error.failure, seen, adapter.wire));
      throw error;
    }
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

/** What a stream delivered, so an early end can say what arrived instead of what was expected. */
interface StreamObservation {
  /** The first characters of the body. */
  head: string;
  parsed: number;
  unparsed: number;
  firstUnparsed?: string;
}

/**
 * A stream that ended before its terminal event. When nothing this wire understands arrived, the
 * server is not speaking it (wrong base_url or wire_api): say what came, and do not retry.
 */
function explainEarlyEnd(failure: AttemptFailure, seen: StreamObservation, wire: string): AttemptFailure {
  if (seen.parsed === 0 && seen.unparsed > 0) {
    return {
      kind: 'bad_request',
      retryable: false,
      final: true,
      message:
        `the provider sent ${seen.unparsed} event${seen.unparsed === 1 ? '' : 's'} whose data is not JSON ` +
        `(the first: ${firstBytes(seen.firstUnparsed ?? '')}) and nothing the ${wire} wire understands: check base_url and wire_api`,
    };
  }
  if (seen.parsed === 0 && seen.head.trim() !== '') {
    return {
      kind: 'bad_request',
      retryable: false,
      final: true,
      message: `the provider's reply is not a ${wire} event stream (the body starts: ${firstBytes(seen.head)}): check base_url and wire_api`,
    };
  }
  if (seen.unparsed > 0) {
    const what = `${seen.unparsed} event${seen.unparsed === 1 ? ' was' : 's were'} not valid JSON, the first: ${firstBytes(seen.firstUnparsed ?? '')}`;
    return { ...failure, message: `${failure.message} (${what})` };
  }
  return failure;
}

interface UrlFacts {
  url: string;
  display: string;
  reservedHost: string | undefined;
}

// Every request of a thread goes to the same URL: parsed once, not twice per request (~45 us a
// step, most of it URL's setters reparsing for the display form).
let lastUrl: UrlFacts | undefined;

function urlFacts(url: string): UrlFacts {
  if (lastUrl?.url !== url) lastUrl = { url, display: displayUrl(url), reservedHost: reservedInvalidHost(url) };
  return lastUrl;
}

/** The host of `url` when it lies under the reserved top-level domain `.invalid`. */
function reservedInvalidHost(url: string): string | undefined {
  try {
    const host = new URL(url).hostname;
    return /(^|\.)invalid\.?$/i.test(host) ? host : undefined;
  } catch {
    return undefined;
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

function scrubFailure(failure: AttemptFailure, secrets: readonly string[]): AttemptFailure {
  return secrets.length === 0 ? failure : { ...failure, message: scrubSecrets(failure.message, secrets) };
}

function finalError(failure: AttemptFailure, layer: 'request' | 'stream', providerId: string): ModelError {
  const message = failure.reported
    ? `provider '${providerId}' reported an error in the stream: ${failure.message}`
    : layer === 'stream' && !failure.final
      ? STREAM_FAILURE_PREFIX + failure.message
      : failure.message;
  return { kind: failure.kind, message, ...(failure.status !== undefined ? { status: failure.status } : {}) };
}
