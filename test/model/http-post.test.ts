// The model request's own HTTP client (node:http instead of fetch): what fetch did for free must
// still happen — compressed bodies undone, aborts ending the stream, header names case-blind.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync, brotliCompressSync, createGzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpPost } from '../../src/model/transport/http-post.js';
import { MODEL_REQUEST_SENT_CHANNEL } from '../../src/model/transport/request-sent.js';
import { baseRequest, clientFor, collect, fakeClock, textOf } from './helpers.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sse = (events: object[]) => events.map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
const answer = (text: string) =>
  sse([
    { type: 'response.created', response: { id: 'resp_1' } },
    { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: text },
    {
      type: 'response.output_item.done',
      output_index: 0,
      item: { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text }] },
    },
    { type: 'response.completed', response: { id: 'resp_1', usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } },
  ]);

describe('the model POST over node:http', () => {
  it('sends the body with its length and reads a streamed answer', async () => {
    let seen: { headers: http.IncomingHttpHeaders; body: string } | undefined;
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen = { headers: req.headers, body };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(answer('hello'));
      });
    });
    const events = await collect((await clientFor(url, 'responses', {}, fakeClock())).stream(baseRequest()));
    expect(textOf(events)).toBe('hello');
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(seen?.body ?? '')));
    expect(JSON.parse(seen?.body ?? '{}')).toMatchObject({ stream: true });
  });

  it('undoes gzip on a stream a server compressed although nobody asked', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.end(answer('zipped'));
    });
    const events = await collect((await clientFor(url, 'responses', {}, fakeClock())).stream(baseRequest()));
    expect(textOf(events)).toBe('zipped');
  });

  it('reads a brotli-compressed error body into the error message', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(brotliCompressSync(JSON.stringify({ error: { message: 'model not found: nope' } })));
    });
    const events = await collect((await clientFor(url, 'responses', {}, fakeClock())).stream(baseRequest()));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { message: expect.stringContaining('model not found: nope') } });
  });

  it('answers header lookups case-blind and joins repeated headers', async () => {
    const url = await serve((_req, res) => {
      res.setHeader('X-Request-Id', 'abc');
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.end(gzipSync('ok'));
    });
    const response = await httpPost(url, { headers: {}, body: '{}' });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-request-id')).toBe('abc');
    expect(response.headers.get('X-REQUEST-ID')).toBe('abc');
    expect(response.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(response.headers.get('missing')).toBeNull();
  });

  it('an interrupt mid-stream ends the turn as aborted and closes the connection', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse([{ type: 'response.created', response: { id: 'resp_1' } }]));
      streaming();
      req.socket.on('close', closed);
    });
    const controller = new AbortController();
    const client = await clientFor(url, 'responses', {}, fakeClock());
    const collecting = collect(client.stream(baseRequest(), controller.signal));
    await started;
    controller.abort();
    const events = await collecting;
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'aborted' } });
    await connectionClosed;
  });

  it('an abort before the answer, or before the request, refuses it as fetch would', async () => {
    let requests = 0;
    const url = await serve((req) => {
      requests++;
      req.resume();
    });
    const waiting = new AbortController();
    const pending = httpPost(url, { headers: {}, body: '{}', signal: waiting.signal });
    await until(() => requests === 1);
    waiting.abort(new Error('interrupted'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', cause: { message: 'interrupted' } });
    const before = new AbortController();
    before.abort();
    await expect(httpPost(url, { headers: {}, body: '{}', signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reuses one connection for the requests of a turn', async () => {
    let connections = 0;
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // The body ends a moment after the terminal event, as a real server's may.
        res.write(answer('again'));
        setTimeout(() => res.end(), 20);
      });
    });
    servers[0]!.on('connection', () => (connections += 1));
    const client = await clientFor(url, 'responses', {}, fakeClock());
    for (let i = 0; i < 3; i++) {
      expect(textOf(await collect(client.stream(baseRequest())))).toBe('again');
      // A tool runs between two requests of a turn; by then the body has ended and the socket is free.
      await until(() => Object.keys(http.globalAgent.freeSockets).length > 0);
    }
    expect(connections).toBe(1);
  });

  it('a body that goes on after the terminal event does not hold the turn, and its connection is closed', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const url = await serve((req, res) => {
      req.socket.on('close', closed);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(answer('early'));
      // ...and never ends the body.
    });
    const events = await collect((await clientFor(url, 'responses', {}, fakeClock())).stream(baseRequest()));
    expect(textOf(events)).toBe('early');
    expect(events.at(-1)).toMatchObject({ type: 'completed' });
    await connectionClosed;
  });

  it('refuses a URL that is neither http nor https with the scheme named', async () => {
    await expect(httpPost('ftp://127.0.0.1/v1', { headers: {}, body: '' })).rejects.toThrow(/unsupported protocol ftp: .*use http:\/\/ or https:\/\//);
  });

  it('says "request sent" once the whole body is out and before the answer, while the model is still working', async () => {
    const order: string[] = [];
    let release: (() => void) | undefined;
    const url = await serve((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => {
        order.push(`server has ${bytes} bytes`);
        // The model "thinks" until the test has seen the notice.
        release = () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(answer('late'));
        };
      });
    });
    const onSent = (message: unknown) => {
      order.push(`sent ${String(message)}`);
    };
    subscribe(MODEL_REQUEST_SENT_CHANNEL, onSent);
    try {
      const body = JSON.stringify({ stream: true, input: 'x'.repeat(200_000) });
      const response = httpPost(`${url}/responses`, { headers: { 'content-type': 'application/json' }, body });
      await until(() => order.length === 2 && release !== undefined);
      expect(order.sort()).toEqual([`sent ${url}/responses`, `server has ${Buffer.byteLength(body)} bytes`].sort());
      release!();
      const answered = await response;
      expect(await answered.text()).toContain('late');
      expect(order.filter((line) => line.startsWith('sent'))).toHaveLength(1);
    } finally {
      unsubscribe(MODEL_REQUEST_SENT_CHANNEL, onSent);
    }
  });
});
