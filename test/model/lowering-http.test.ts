// buildBody() must equal what stream() POSTs, with the wire's headers, checked at the mock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { clientFor, collect } from './helpers.js';
import { history } from './lowering-fixture.js';

describe.each(['responses', 'chat', 'messages'] as const)('%s: buildBody equals what stream sends', (wire) => {
  let mock: MockProvider;
  beforeAll(async () => {
    mock = await startMockProvider();
  });
  afterAll(() => mock.close());

  it('posts exactly buildBody(request) with the wire headers', async () => {
    mock.enqueue({ text: 'ok' });
    const client = await clientFor(mock.url, wire, { http_headers: { 'X-Extra': 'yes' }, query_params: { 'api-version': '7' } });
    await collect(client.stream({ ...history, sessionId: 'sess-1', extraHeaders: { 'x-harness': 'h1' } }));
    const request = await mock.waitForRequest(1);
    expect(request.body).toEqual(JSON.parse(JSON.stringify(client.buildBody(history))));
    expect(request.path).toBe({ responses: '/v1/responses', chat: '/v1/chat/completions', messages: '/v1/messages' }[wire]);
    expect(request.query).toEqual({ 'api-version': '7' });
    expect(request.headers['x-extra']).toBe('yes');
    expect(request.headers['x-harness']).toBe('h1');
    expect(request.headers.originator).toBe('rig');
    expect(request.headers.accept).toBe('text/event-stream');
    if (wire === 'messages') {
      expect(request.headers['x-api-key']).toBe('sk-test-key');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(request.headers.authorization).toBeUndefined();
    } else {
      expect(request.headers.authorization).toBe('Bearer sk-test-key');
      expect(request.headers['x-api-key']).toBeUndefined();
    }
    expect(request.headers['session-id']).toBe(wire === 'responses' ? 'sess-1' : undefined);
  });
});
