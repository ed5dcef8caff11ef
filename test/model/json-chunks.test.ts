// Request bodies go out in pieces (src/model/transport/json-chunks.ts): the pieces together must be
// exactly what JSON.stringify writes, and no piece may hold more than one large item.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { httpPost } from '../../src/model/transport/http-post.js';
import { jsonChunksText, stableJson, toJsonChunks } from '../../src/model/transport/json-chunks.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

describe('toJsonChunks', () => {
  it('writes what JSON.stringify writes, for any JSON value and any request-shaped object', () => {
    const field = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.array(fc.oneof(fc.jsonValue(), fc.constant(undefined))));
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), field)), (value) => {
        const expected = JSON.stringify(value);
        const body = toJsonChunks(value);
        expect(jsonChunksText(body)).toBe(expected);
        expect(body.byteLength).toBe(Buffer.byteLength(expected, 'utf8'));
      }),
      { numRuns: 500 },
    );
  });

  it('follows toJSON and leaves out fields JSON has no form for, as JSON.stringify does', () => {
    const value = { when: new Date(0), skip: undefined, fn: () => 1, list: [undefined, () => 2, new Date(1)], nested: { a: undefined } };
    expect(jsonChunksText(toJsonChunks(value))).toBe(JSON.stringify(value));
    expect(jsonChunksText(toJsonChunks([1, 'two', { three: 3 }]))).toBe('[1,"two",{"three":3}]');
  });

  it('splits a long history at items, with no piece near V8\'s large-object size unless one item is that big', () => {
    const item = (i: number) => ({ type: 'function_call_output', call_id: `call_${i}`, output: `ü line ${i} `.repeat(90) });
    const body = { model: 'm', input: Array.from({ length: 400 }, (_, i) => item(i)), tools: [{ type: 'function', name: 't' }], stream: true };
    const chunks = toJsonChunks(body);
    expect(jsonChunksText(chunks)).toBe(JSON.stringify(body));
    expect(chunks.chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks.chunks) expect(chunk.length).toBeLessThanOrEqual(32 * 1024 * 3);
    const huge = { input: [{ output: 'x'.repeat(100_000) }] };
    expect(toJsonChunks(huge).chunks.some((chunk) => chunk.length > 100_000)).toBe(true);
    expect(jsonChunksText(toJsonChunks(huge))).toBe(JSON.stringify(huge));
  });

  it('encodes an item marked stable once, and writes the same bytes on every later request', () => {
    const items = Array.from({ length: 5 }, (_, i) => stableJson({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `naïve ${i}` }] }));
    const first = toJsonChunks({ input: items.slice(0, 3), stream: true });
    const second = toJsonChunks({ input: items, stream: true });
    expect(jsonChunksText(first)).toBe(JSON.stringify({ input: items.slice(0, 3), stream: true }));
    expect(jsonChunksText(second)).toBe(JSON.stringify({ input: items, stream: true }));
    expect(second.byteLength).toBe(Buffer.byteLength(JSON.stringify({ input: items, stream: true })));
    const bytes = (body: typeof first) => body.chunks.filter((chunk): chunk is Buffer => typeof chunk !== 'string');
    // Item 1 was in the middle both times: the very same Buffer went out again.
    expect(bytes(second)[1]).toBe(bytes(first)[1]);
    // Item 2 was last in the first body (a view without the comma), in the middle in the second.
    expect(bytes(first)[2]!.buffer).toBe(bytes(second)[2]!.buffer);
    expect(bytes(second)).toHaveLength(5);
  });

  it('keeps each stable item in memory of its own, not in a slice of a shared Buffer pool', () => {
    // A pooled slice kept for the thread's life would keep its whole 8 kB pool alive.
    const items = Array.from({ length: 20 }, (_, i) => stableJson({ type: 'function_call_output', call_id: `c${i}`, output: 'x'.repeat(300) }));
    const body = toJsonChunks({ input: items });
    const kept = body.chunks.filter((chunk): chunk is Buffer => typeof chunk !== 'string');
    expect(kept).toHaveLength(20);
    // Each one's memory is its JSON and the comma after it (the last item is a view without it).
    kept.forEach((chunk, i) => expect(chunk.buffer.byteLength).toBe(JSON.stringify(items[i]).length + 1));
  });

  it('joins runs of 32 stable items into one piece: a long history goes out in a few writes, in the same bytes', () => {
    const items = Array.from({ length: 200 }, (_, i) => stableJson({ type: 'function_call_output', call_id: `c${i}`, output: `ü out ${i} `.repeat(20) }));
    for (let n = 1; n <= items.length; n += 7) {
      const value = { model: 'm', input: items.slice(0, n), stream: true };
      expect(jsonChunksText(toJsonChunks(value))).toBe(JSON.stringify(value));
    }
    const whole = { model: 'm', input: items, stream: true };
    const body = toJsonChunks(whole);
    expect(jsonChunksText(body)).toBe(JSON.stringify(whole));
    expect(body.byteLength).toBe(Buffer.byteLength(JSON.stringify(whole)));
    // 6 blocks of 32, the 8 items after them one by one, and the text around them.
    expect(body.chunks.length).toBeLessThanOrEqual(6 + 8 + 4);
    // A block is the only copy of its items' bytes: each item's cached bytes are a view of it.
    const blockPieces = body.chunks.filter((chunk): chunk is Buffer => typeof chunk !== 'string' && chunk.length > 4_000);
    expect(blockPieces).toHaveLength(6);
    const again = toJsonChunks(whole).chunks.filter((chunk): chunk is Buffer => typeof chunk !== 'string' && chunk.length > 4_000);
    again.forEach((piece, i) => expect(piece).toBe(blockPieces[i]));
  });

  it('a history changed in the middle (an item dropped, one replaced) is written right, and blocked anew', () => {
    const items = Array.from({ length: 100 }, (_, i) => stableJson({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `m${i}` }] }));
    toJsonChunks({ input: items });
    toJsonChunks({ input: items });
    const changed = [...items.slice(0, 10), ...items.slice(11, 50), stableJson({ type: 'message', role: 'user', content: [] }), ...items.slice(51)];
    for (let round = 0; round < 3; round++) expect(jsonChunksText(toJsonChunks({ input: changed }))).toBe(JSON.stringify({ input: changed }));
    expect(jsonChunksText(toJsonChunks({ input: items }))).toBe(JSON.stringify({ input: items }));
    expect(jsonChunksText(toJsonChunks({ input: items.slice(40) }))).toBe(JSON.stringify({ input: items.slice(40) }));
  });

  it('refuses a body that has no JSON form', () => {
    expect(() => toJsonChunks(undefined)).toThrow(/not JSON/);
  });
});

describe('a chunked body over node:http', () => {
  it('arrives whole, with the content-length of its UTF-8 bytes', async () => {
    let received: { length: string | undefined; text: string } | undefined;
    const server = http.createServer((request, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        received = { length: request.headers['content-length'], text: Buffer.concat(parts).toString('utf8') };
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    servers.push(server);
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const body = { input: Array.from({ length: 300 }, (_, i) => ({ text: `日本語 ${i} `.repeat(50) })), stream: true };
    const response = await httpPost(url, { headers: { 'content-type': 'application/json' }, body: toJsonChunks(body) });
    expect(await response.text()).toBe('ok');
    expect(received?.text).toBe(JSON.stringify(body));
    expect(received?.length).toBe(String(Buffer.byteLength(JSON.stringify(body), 'utf8')));
  });
});
