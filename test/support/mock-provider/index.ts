// Loopback mock model provider: a real HTTP server on 127.0.0.1 (random port) speaking the three
// wires byte-faithfully, so tests exercise the real client (and `rig exec` children) end to end.
//
// How to script it:
//
//   const mock = await startMockProvider();
//   mock.enqueue(
//     { reasoning: 'think', toolCalls: [{ name: 'shell', arguments: { command: ['ls'] } }] },
//     { status: 429, headers: { 'retry-after': '2' } },        // a fault: answered with HTTP 429
//     { text: 'done', usage: { input_tokens: 20, output_tokens: 3 } },
//   );
//   // point a provider at mock.url (".../v1"): POST /v1/responses, /v1/chat/completions and
//   // /v1/messages are all served (with or without the /v1 prefix), each in its own wire format.
//   const first = await mock.waitForRequest(1);   // resolves when request #1 has arrived
//   expect(first.body.model).toBe('m');
//   await mock.close();
//
// Each request consumes the next turn (MockTurn in script.ts). Faults: `status` (HTTP error with
// the wire's error JSON, or `body`), `cutAfterEvents: n` (connection destroyed after n events),
// `idleAfterEvents: n` (silence after n events), `malformedJson` (an unparseable event first),
// `streamError` (response.failed / Anthropic error event / error chunk), `onlyDone`,
// `garbageEvents: n`, `json200`, `noHeaders`, `closeBeforeHeaders`, `outputLimit` (see script.ts).
// Timing: `delayMs` before the answer, `eventDelayMs` between its events.
// GET /v1/models answers a model list (a reachability check spends no tokens there). With no turn
// left the mock answers HTTP 400 "mock provider has no scripted turn left (request #n)".
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatErrorBody, renderChat } from './render-chat.js';
import { messagesErrorBody, renderMessages } from './render-messages.js';
import { renderResponses, responsesErrorBody } from './render-responses.js';
import type { MockRequest, MockTurn, MockWire } from './script.js';

export type { MockRequest, MockSearchHit, MockToolCall, MockTurn, MockUsage, MockWebSearch, MockWire } from './script.js';

export interface MockProvider {
  /** Base URL including /v1, e.g. http://127.0.0.1:43123/v1. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: MockRequest[];
  /** A turn may be a function of the request it answers (e.g. to echo a session id back). */
  enqueue(...turns: (MockTurn | MockTurnFn)[]): void;
  /** Turns not consumed yet. */
  remaining(): number;
  /** What GET /v1/models answers from now on (default 200 with a one-model list). */
  setModelsAnswer(status: number, body?: unknown): void;
  /** Resolves with request #n (1-based) once it has arrived; rejects after timeoutMs. */
  waitForRequest(n: number, timeoutMs?: number): Promise<MockRequest>;
  close(): Promise<void>;
}

function wireOf(path: string): MockWire | undefined {
  if (/(^|\/)responses$/.test(path)) return 'responses';
  if (/(^|\/)chat\/completions$/.test(path)) return 'chat';
  if (/(^|\/)messages$/.test(path)) return 'messages';
  return undefined;
}

function errorBody(wire: MockWire, status: number, message: string): unknown {
  if (wire === 'messages') return messagesErrorBody(status, message);
  if (wire === 'chat') return chatErrorBody(status, message);
  return responsesErrorBody(status, message);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

export type MockTurnFn = (request: MockRequest) => MockTurn;

/** `port`: listen there instead of on a random free port (scripts/eval-mock.mjs; tests leave it out). */
export async function startMockProvider(options: { port?: number } = {}): Promise<MockProvider> {
  const queue: (MockTurn | MockTurnFn)[] = [];
  const requests: MockRequest[] = [];
  const waiters: { n: number; resolve: (r: MockRequest) => void }[] = [];
  let modelsAnswer: { status: number; body: unknown } = { status: 200, body: { object: 'list', data: [{ id: 'mock-model', object: 'model', owned_by: 'mock' }] } };

  const record = (request: MockRequest): number => {
    requests.push(request);
    for (const waiter of [...waiters]) {
      const found = requests[waiter.n - 1];
      if (found) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(found);
      }
    }
    return requests.length;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAt = performance.now();
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // keep the raw text for assertions
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const wire = wireOf(url.pathname);
      if (req.method === 'GET' && /(^|\/)models$/.test(url.pathname)) {
        record({ method: 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body, receivedAt });
        sendJson(res, modelsAnswer.status, modelsAnswer.body);
        return;
      }
      const n = record({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers,
        body,
        ...(wire ? { wire } : {}),
        receivedAt,
      });
      if (!wire || req.method !== 'POST') {
        sendJson(res, 404, { error: { message: `mock provider: no route for ${req.method} ${url.pathname}` } });
        return;
      }
      const next = queue.shift();
      const turn = typeof next === 'function' ? next(requests[n - 1]!) : next;
      if (!turn) {
        sendJson(res, 400, errorBody(wire, 400, `mock provider has no scripted turn left (request #${n})`));
        return;
      }
      if (turn.delayMs) setTimeout(() => answer(turn, wire, n, body, res), turn.delayMs);
      else answer(turn, wire, n, body, res);
    });
  });

  function answer(turn: MockTurn, wire: MockWire, n: number, body: unknown, res: http.ServerResponse): void {
    if (turn.noHeaders) return; // the socket stays open until the client gives up or close()
    if (turn.closeBeforeHeaders) {
      res.socket?.destroy();
      return;
    }
    if (turn.status !== undefined && turn.status !== 200) {
      const headers = { ...(turn.contentType ? { 'content-type': turn.contentType } : {}), ...turn.headers };
      sendJson(res, turn.status, turn.body ?? errorBody(wire, turn.status, turn.message ?? 'mock error'), headers);
      return;
    }
    if (turn.json200 !== undefined) {
      sendJson(res, 200, turn.json200, turn.headers);
      return;
    }
    const model = typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : 'mock-model';
    const ctx = { n, model };
    let frames = wire === 'responses' ? renderResponses(turn, ctx) : wire === 'chat' ? renderChat(turn, ctx) : renderMessages(turn, ctx);
    if (turn.onlyDone) frames = ['data: [DONE]\n\n'];
    if (turn.garbageEvents !== undefined) frames = Array.from({ length: turn.garbageEvents }, () => 'data: {not json\n\n');
    if (turn.malformedJson) frames = [wire === 'chat' ? 'data: {not json\n\n' : 'event: mystery\ndata: {not json\n\n', ...frames];
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...turn.headers,
    });
    const limit = turn.cutAfterEvents ?? turn.idleAfterEvents;
    const sent = limit === undefined ? frames : frames.slice(0, limit);
    const finish = (): void => {
      if (turn.cutAfterEvents !== undefined) {
        // Let the written events reach the client, then drop the connection mid-stream.
        res.socket?.end(() => res.socket?.destroy());
        return;
      }
      if (turn.idleAfterEvents !== undefined) return; // stays open until the client gives up or close()
      res.end();
    };
    if (!turn.eventDelayMs) {
      for (const frame of sent) res.write(frame);
      finish();
      return;
    }
    const delay = turn.eventDelayMs;
    const writeFrom = (i: number): void => {
      if (res.destroyed) return;
      if (i === sent.length) return finish();
      res.write(sent[i]!);
      setTimeout(() => writeFrom(i + 1), delay);
    };
    writeFrom(0);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...turns) => void queue.push(...turns),
    remaining: () => queue.length,
    setModelsAnswer: (status, body = { error: { message: `mock models endpoint: HTTP ${status}` } }) => void (modelsAnswer = { status, body }),
    waitForRequest(n, timeoutMs = 10_000) {
      const found = requests[n - 1];
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.findIndex((w) => w.resolve === done), 1);
          reject(new Error(`mock provider: request #${n} did not arrive within ${timeoutMs} ms (got ${requests.length})`));
        }, timeoutMs);
        const done = (r: MockRequest): void => {
          clearTimeout(timer);
          resolve(r);
        };
        waiters.push({ n, resolve: done });
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
