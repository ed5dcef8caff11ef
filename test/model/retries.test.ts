// Retry policy and user-facing failure messages, against real loopback HTTP with an instant clock.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelEvent } from '../../src/protocol/index.js';
import { createModelClient } from '../../src/model/create-client.js';
import { ModelSetupError } from '../../src/model/errors.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { baseRequest, clientFor, collect, fakeClock, mockProviderInfo, textOf, type FakeClock } from './helpers.js';

const retries = (events: ModelEvent[]) => events.filter((e) => e.type === 'retry');
const afterLastRetry = (events: ModelEvent[]) => events.slice(events.findLastIndex((e) => e.type === 'retry') + 1);

let mock: MockProvider;
let clock: FakeClock;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.requests.length = 0;
  expect(mock.remaining()).toBe(0);
  clock = fakeClock();
});

describe('HTTP-level retries', () => {
  it('honours Retry-After on 429', async () => {
    mock.enqueue({ status: 429, headers: { 'retry-after': '2' }, message: 'Rate limit reached' }, { text: 'ok' });
    const events = await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(baseRequest()));
    expect(retries(events)).toEqual([
      { type: 'retry', attempt: 1, max_attempts: 4, delay_ms: 2000, reason: "provider 'mock' returned HTTP 429: Rate limit reached" },
    ]);
    expect(clock.delays).toEqual([2000]);
    expect(textOf(events)).toBe('ok');
    expect(events.at(-1)).toMatchObject({ type: 'completed' });
  });

  it('honours retry-after-ms', async () => {
    mock.enqueue({ status: 429, headers: { 'retry-after-ms': '1500' } }, { text: 'ok' });
    await collect((await clientFor(mock.url, 'chat', {}, clock)).stream(baseRequest()));
    expect(clock.delays).toEqual([1500]);
  });

  it('honours a "try again in 2s" hint in the error body', async () => {
    mock.enqueue(
      { status: 429, body: { error: { message: 'Rate limit reached for gpt-x. Please try again in 2s.', code: 'rate_limit_exceeded' } } },
      { text: 'ok' },
    );
    await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(baseRequest()));
    expect(clock.delays).toEqual([2000]);
  });

  it('retries 500 with exponential backoff, then succeeds', async () => {
    mock.enqueue({ status: 500 }, { status: 503 }, { text: 'recovered' });
    const events = await collect((await clientFor(mock.url, 'messages', {}, clock)).stream(baseRequest()));
    expect(clock.delays).toEqual([200, 400]);
    expect(retries(events).map((e) => e.type === 'retry' && e.attempt)).toEqual([1, 2]);
    expect(textOf(afterLastRetry(events))).toBe('recovered');
    expect(mock.requests).toHaveLength(3);
  });

  it('gives up after request_max_retries with the provider message', async () => {
    mock.enqueue({ status: 500, message: 'upstream exploded' }, { status: 500, message: 'upstream exploded' }, { status: 500, message: 'upstream exploded' });
    const events = await collect((await clientFor(mock.url, 'chat', { request_max_retries: 2 }, clock)).stream(baseRequest()));
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: { kind: 'server', status: 500, message: "provider 'mock' returned HTTP 500: upstream exploded" },
    });
    expect(clock.delays).toEqual([200, 400]);
    expect(mock.requests).toHaveLength(3);
  });

  it('does not sit out a Retry-After longer than five minutes', async () => {
    mock.enqueue({ status: 429, headers: { 'retry-after': '3600' }, message: 'Daily limit reached' });
    const events = await collect((await clientFor(mock.url, 'chat', {}, clock)).stream(baseRequest()));
    expect(events).toEqual([
      {
        type: 'error',
        error: {
          kind: 'rate_limit',
          status: 429,
          message: "provider 'mock' returned HTTP 429: Daily limit reached (the provider asks to wait 3600 s before retrying)",
        },
      },
    ]);
  });

  it('does not retry a 400 and shows the provider message', async () => {
    mock.enqueue({ status: 400, message: "Invalid schema for function 'shell': missing items" });
    const events = await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(baseRequest()));
    expect(events).toEqual([
      {
        type: 'error',
        error: { kind: 'bad_request', status: 400, message: "provider 'mock' returned HTTP 400: Invalid schema for function 'shell': missing items" },
      },
    ]);
    expect(mock.requests).toHaveLength(1);
  });

  it('names the key variable on 401', async () => {
    mock.enqueue({ status: 401, message: 'invalid x-api-key' });
    const events = await collect((await clientFor(mock.url, 'messages', {}, clock)).stream(baseRequest()));
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: { kind: 'auth', status: 401, message: "provider 'mock' returned HTTP 401: invalid x-api-key. Check MOCK_API_KEY." },
    });
  });

  it('reports context-length 400s from chat and messages as context_length', async () => {
    mock.enqueue(
      { status: 400, message: "This model's maximum context length is 131072 tokens. However, you requested 200000 tokens." },
      { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' },
    );
    const chat = await collect((await clientFor(mock.url, 'chat', {}, clock)).stream(baseRequest()));
    const messages = await collect((await clientFor(mock.url, 'messages', {}, clock)).stream(baseRequest()));
    expect(chat.at(-1)).toMatchObject({ type: 'error', error: { kind: 'context_length', status: 400 } });
    expect(messages.at(-1)).toEqual({
      type: 'error',
      error: { kind: 'context_length', status: 400, message: "provider 'mock' returned HTTP 400: prompt is too long: 210000 tokens > 200000 maximum" },
    });
  });

  it('explains an unreachable base URL in one line', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const base = `http://127.0.0.1:${closedPort}/v1`;
    const events = await collect((await clientFor(base, 'responses', { request_max_retries: 1 }, clock)).stream(baseRequest()));
    const reason = `cannot reach ${base}/responses: connect ECONNREFUSED (check base_url of provider 'mock')`;
    expect(events).toEqual([
      { type: 'retry', attempt: 1, max_attempts: 1, delay_ms: 200, reason },
      { type: 'error', error: { kind: 'connection', message: reason } },
    ]);
  });
});

describe('stream-level retries', () => {
  it('retries a stream cut mid-way and tells the caller to discard the partial output', async () => {
    mock.enqueue({ text: 'partial answer that breaks', cutAfterEvents: 6 }, { text: 'whole answer' });
    const events = await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(baseRequest()));
    expect(textOf(events.slice(0, events.findIndex((e) => e.type === 'retry')))).not.toBe('');
    expect(retries(events)).toEqual([
      { type: 'retry', attempt: 1, max_attempts: 5, delay_ms: 200, reason: 'stream closed before response.completed' },
    ]);
    const rest = afterLastRetry(events);
    expect(rest[0]).toMatchObject({ type: 'created' });
    expect(textOf(rest)).toBe('whole answer');
    expect(rest.at(-1)).toMatchObject({ type: 'completed' });
  });

  it.each(['chat', 'messages'] as const)('%s: gives up after stream_max_retries with the Codex prefix', async (wire) => {
    mock.enqueue({ text: 'abcdefghijklmnopqrstuvwxyz', cutAfterEvents: 3 }, { text: 'abcdefghijklmnopqrstuvwxyz', cutAfterEvents: 3 });
    const events = await collect((await clientFor(mock.url, wire, { stream_max_retries: 1 }, clock)).stream(baseRequest()));
    const reason = wire === 'chat' ? 'stream closed before finish_reason' : 'stream closed before message_stop';
    expect(events.at(-1)).toEqual({ type: 'error', error: { kind: 'stream', message: `stream disconnected before completion: ${reason}` } });
    expect(retries(events)).toHaveLength(1);
  });

  it('retries a stream that goes silent for stream_idle_timeout_ms', async () => {
    mock.enqueue({ text: 'stalls', idleAfterEvents: 2 }, { text: 'after idle' });
    const events = await collect((await clientFor(mock.url, 'chat', { stream_idle_timeout_ms: 150 }, clock)).stream(baseRequest()));
    expect(retries(events)).toEqual([
      { type: 'retry', attempt: 1, max_attempts: 5, delay_ms: 200, reason: 'idle timeout waiting for SSE' },
    ]);
    expect(textOf(afterLastRetry(events))).toBe('after idle');
  });

  it('never retries once a tool call from the response has started running', async () => {
    mock.enqueue({ toolCalls: [{ name: 'shell', arguments: { command: ['rm', '-rf', 'build'] } }], cutAfterEvents: 6 });
    const request = baseRequest({ mayRetryStream: () => false });
    const events = await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(request));
    expect(retries(events)).toEqual([]);
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: { kind: 'stream', message: 'stream disconnected before completion: stream closed before response.completed' },
    });
    expect(events.some((e) => e.type === 'tool_call_started')).toBe(true);
    expect(mock.requests).toHaveLength(1);
  });

  it('retries a generic response.failed but not context_length_exceeded', async () => {
    mock.enqueue({ streamError: { code: 'server_error', message: 'An error occurred while processing your request.' } }, { text: 'ok' });
    const ok = await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(baseRequest()));
    expect(retries(ok)).toHaveLength(1);
    expect(ok.at(-1)).toMatchObject({ type: 'completed' });

    mock.enqueue({ streamError: { code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' } });
    const failed = await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(baseRequest()));
    expect(retries(failed)).toEqual([]);
    expect(failed.at(-1)).toEqual({
      type: 'error',
      error: { kind: 'context_length', message: 'stream disconnected before completion: Your input exceeds the context window of this model.' },
    });
  });

  it('waits as long as an in-stream rate_limit_exceeded message asks', async () => {
    mock.enqueue({ streamError: { code: 'rate_limit_exceeded', message: 'Rate limit reached. Please try again in 1.2s.' } }, { text: 'ok' });
    const events = await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(baseRequest()));
    expect(clock.delays).toEqual([1200]);
    expect(events.at(-1)).toMatchObject({ type: 'completed' });
  });

  it('does not retry a 429 that means the quota is used up', async () => {
    mock.enqueue({ status: 429, body: { error: { message: 'You exceeded your current quota.', code: 'insufficient_quota' } } });
    const events = await collect((await clientFor(mock.url, 'responses', {}, clock)).stream(baseRequest()));
    expect(events).toEqual([
      { type: 'error', error: { kind: 'quota', status: 429, message: "provider 'mock' returned HTTP 429: You exceeded your current quota." } },
    ]);
  });

  it('retries an Anthropic overloaded_error event', async () => {
    mock.enqueue({ streamError: { type: 'overloaded_error', message: 'Overloaded' } }, { text: 'ok' });
    const events = await collect((await clientFor(mock.url, 'messages', {}, clock)).stream(baseRequest()));
    expect(retries(events)).toMatchObject([{ reason: 'overloaded_error: Overloaded' }]);
    expect(events.at(-1)).toMatchObject({ type: 'completed' });
  });

  it('ends with an aborted error when the caller aborts a silent stream', async () => {
    mock.enqueue({ text: 'never finishes', idleAfterEvents: 2 });
    const controller = new AbortController();
    const client = await clientFor(mock.url, 'responses', {}, clock);
    const events: ModelEvent[] = [];
    for await (const event of client.stream(baseRequest(), controller.signal)) {
      events.push(event);
      if (event.type === 'created') controller.abort();
    }
    expect(events.at(-1)).toEqual({ type: 'error', error: { kind: 'aborted', message: 'request aborted' } });
  });
});

describe('setup errors', () => {
  it('names the variable to export when the key is missing', async () => {
    await expect(createModelClient(mockProviderInfo(mock.url, 'chat'), { env: {} })).rejects.toThrow(
      new ModelSetupError('MOCK_API_KEY is not set. Export it, or pick another provider with --provider / model_provider.'),
    );
  });
});
