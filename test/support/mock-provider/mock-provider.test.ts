// The mock itself: raw SSE framing per wire, routing, recording, and use from a child process.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from './index.js';

const run = promisify(execFile);
let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());

async function post(path: string, body: unknown, base = mock.url): Promise<Response> {
  return fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('mock provider', () => {
  it('frames Responses events as event:/data: pairs with sequence numbers', async () => {
    mock.enqueue({ text: 'hi' });
    const text = await (await post('/responses', { model: 'm' })).text();
    const first = text.split('\n\n')[0];
    expect(first).toBe(
      'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_mock1","object":"response","created_at":1764000001,"status":"in_progress","model":"m","output":[],"usage":null}}',
    );
    expect(text.trimEnd().split('\n\n').at(-1)).toMatch(/^event: response\.completed\ndata: /);
  });

  it('frames Chat chunks as bare data: lines ending with [DONE], also without the /v1 prefix', async () => {
    mock.enqueue({ text: 'hi' });
    const root = mock.url.replace(/\/v1$/, '');
    const response = await post('/chat/completions', { model: 'm' }, root);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const frames = (await response.text()).trimEnd().split('\n\n');
    expect(frames.every((f) => f.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
  });

  it('frames Anthropic events with event names and a ping', async () => {
    mock.enqueue({ text: 'hi' });
    const names = (await (await post('/messages', { model: 'm' })).text())
      .trimEnd()
      .split('\n\n')
      .map((f) => f.split('\n')[0]);
    expect(names).toEqual([
      'event: message_start',
      'event: ping',
      'event: content_block_start',
      'event: content_block_delta',
      'event: content_block_stop',
      'event: message_delta',
      'event: message_stop',
    ]);
  });

  it('answers a turn with delayMs that much later, as a model thinking', async () => {
    mock.enqueue({ text: 'slow', delayMs: 120 }, { text: 'fast' });
    const slowStart = performance.now();
    const slow = await (await post('/responses', { model: 'm' })).text();
    const slowMs = performance.now() - slowStart;
    const fastStart = performance.now();
    await (await post('/responses', { model: 'm' })).text();
    const fastMs = performance.now() - fastStart;
    expect(slow).toContain('"delta":"slow"');
    expect(slowMs).toBeGreaterThanOrEqual(115);
    expect(fastMs).toBeLessThan(slowMs);
  });

  it('spaces the events of a turn with eventDelayMs, as a model producing tokens', async () => {
    mock.enqueue({ text: 'abcdefgh', deltaSize: 4, eventDelayMs: 40 });
    const response = await post('/chat/completions', { model: 'm', stream: true });
    const reader = response.body!.getReader();
    const arrivals: { at: number; text: string }[] = [];
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arrivals.push({ at: performance.now(), text: decoder.decode(value) });
    }
    const body = arrivals.map((a) => a.text).join('');
    expect(body).toContain('"content":"abcd"');
    expect(body).toContain('"content":"efgh"');
    const deltas = arrivals.filter((a) => /"content":"(abcd|efgh)"/.test(a.text));
    // Each delta came in a read of its own, the second at least one delay after the first.
    expect(deltas).toHaveLength(2);
    expect(deltas[1]!.at - deltas[0]!.at).toBeGreaterThanOrEqual(35);
  });

  it('records requests and says clearly when the script ran out', async () => {
    const before = mock.requests.length;
    const response = await post('/responses?x=1', { model: 'm', input: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: `mock provider has no scripted turn left (request #${before + 1})` } });
    const recorded = await mock.waitForRequest(before + 1);
    expect(recorded).toMatchObject({ method: 'POST', path: '/v1/responses', query: { x: '1' }, body: { model: 'm', input: [] }, wire: 'responses' });
    expect((await post('/embeddings', {})).status).toBe(404);
  });

  it('waitForRequest resolves when a later request arrives', async () => {
    const n = mock.requests.length + 1;
    const waiting = mock.waitForRequest(n);
    mock.enqueue({ text: 'later' });
    await post('/chat/completions', { model: 'late' });
    await expect(waiting).resolves.toMatchObject({ body: { model: 'late' } });
  });

  it('serves a child process (as `rig exec` children will use it)', async () => {
    mock.enqueue({ text: 'from child' });
    const script = `const r = await fetch(process.argv[1] + '/chat/completions', { method: 'POST', body: '{"model":"c"}' }); process.stdout.write(await r.text());`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, mock.url]);
    expect(stdout).toContain('"content":"from chi"');
    expect(stdout.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});
