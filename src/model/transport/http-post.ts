// The model request's POST over node:http / node:https instead of the global fetch().
//
// Node's fetch lives in a bundled undici that is compiled on its first use: ~25 ms on this
// project's 2-core machine, paid between "the request is built" and "the request is sent", i.e.
// on every `rig exec`'s time to first token. node:http is already part of the running process.
// Like fetch in Node 20, this ignores proxy variables and speaks HTTP/1.1 with keep-alive.
import { channel } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { JsonChunks } from './json-chunks.js';
import { MODEL_REQUEST_SENT_CHANNEL } from './request-sent.js';

const requestSent = channel(MODEL_REQUEST_SENT_CHANNEL);

/** The part of a fetch() Response the model stream reads. */
export interface HttpResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: HeaderLookup;
  /**
   * The body, decompressed. A reader that stops early (the stream's terminal event came before
   * the body's end) releases the connection: it is kept for the next request if the rest of the
   * body arrives within a short grace, else closed.
   */
  readonly body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}

export interface HeaderLookup {
  get(name: string): string | null;
}

export interface HttpPostInit {
  headers: Record<string, string>;
  /** In pieces (json-chunks.ts) for model requests, so no request holds the history in one string. */
  body: string | JsonChunks;
  signal?: AbortSignal;
}

export type HttpPost = (url: string, init: HttpPostInit) => Promise<HttpResponse>;

export const httpPost: HttpPost = async (url, init) => {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  if (!secure && target.protocol !== 'http:') throw new TypeError(`unsupported protocol ${target.protocol} in ${url} (use http:// or https://)`);
  const client = secure ? await import('node:https') : await import('node:http');
  const chunks = typeof init.body === 'string' ? [init.body] : init.body.chunks;
  const byteLength = typeof init.body === 'string' ? Buffer.byteLength(init.body, 'utf8') : init.body.byteLength;
  const headers: Record<string, string> = { accept: '*/*', ...init.headers, 'content-length': String(byteLength) };
  const message = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = client.request(target, { method: 'POST', headers }, resolve);
    request.once('error', reject);
    if (init.signal) abortOnSignal(request, init.signal);
    request.once('finish', () => {
      if (requestSent.hasSubscribers) requestSent.publish(url);
    });
    // Corked, the pieces leave in one writev with the headers instead of a packet each.
    request.cork();
    for (const chunk of chunks) request.write(chunk, 'utf8');
    request.end();
    process.nextTick(() => request.uncork());
  });
  const body = bodyReader(message, await decoded(message));
  return {
    ok: message.statusCode !== undefined && message.statusCode >= 200 && message.statusCode < 300,
    status: message.statusCode ?? 0,
    headers: headerLookup(message.headers),
    body,
    text: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(Buffer.from(chunk));
      return Buffer.concat(chunks).toString('utf8');
    },
  };
};

/**
 * Ends the request (and its answer) when `signal` aborts, as http.request's `signal` option does,
 * with the same kind of error. The option goes through Node's stream abort helpers, which load
 * and compile on a process's first request: ~1 ms on the way to every `rig exec`'s first request.
 */
function abortOnSignal(request: ClientRequest, signal: AbortSignal): void {
  const abort = (): void => {
    request.destroy(Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' }));
  };
  if (signal.aborted) {
    abort();
    return;
  }
  signal.addEventListener('abort', abort, { once: true });
  request.once('close', () => signal.removeEventListener('abort', abort));
}

function headerLookup(headers: IncomingHttpHeaders): HeaderLookup {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** How long a released body may take to end before its connection is closed instead of reused. */
const RELEASE_GRACE_MS = 1_000;
/** Chunks buffered ahead of the reader before the socket is paused. */
const HIGH_WATER_CHUNKS = 64;

/**
 * Reads `stream` (the message, or its decompressor) chunk by chunk. Unlike a Readable's own async
 * iterator, stopping early does not destroy the socket: a model stream ends at its terminal event,
 * usually a few bytes before the HTTP body does, and destroying it there cost a new connection
 * (for https, a TLS handshake) on every model request of a turn.
 */
function bodyReader(message: IncomingMessage, stream: Readable): AsyncIterable<Uint8Array> {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: Error | undefined;
  let released = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  stream.on('data', (chunk: Buffer) => {
    if (released) return;
    queue.push(chunk);
    if (queue.length >= HIGH_WATER_CHUNKS) stream.pause();
    notify();
  });
  stream.once('end', () => {
    ended = true;
    notify();
  });
  stream.once('error', (error) => {
    failure = error;
    notify();
  });
  // A socket reset is reported on the message; the decompressor may never hear of it.
  if (stream !== message) {
    message.once('error', (error) => {
      failure ??= error;
      notify();
    });
  }
  message.once('close', () => {
    if (!message.complete) failure ??= new Error('the connection closed before the response body ended');
    notify();
  });
  const release = () => {
    if (released) return;
    released = true;
    queue.length = 0;
    notify();
    if (ended || failure) return;
    stream.resume();
    const timer = setTimeout(() => {
      message.destroy();
      stream.destroy();
    }, RELEASE_GRACE_MS);
    timer.unref();
    stream.once('end', () => clearTimeout(timer));
    stream.once('error', () => clearTimeout(timer));
  };
  const iterator: AsyncIterator<Uint8Array> = {
    async next() {
      for (;;) {
        if (released) return { done: true, value: undefined };
        const chunk = queue.shift();
        if (chunk) {
          if (queue.length < HIGH_WATER_CHUNKS / 2 && stream.isPaused()) stream.resume();
          return { done: false, value: chunk };
        }
        if (failure) throw failure;
        if (ended) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return() {
      release();
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/** We ask for no encoding, but a server may compress anyway; fetch() would have undone it. */
async function decoded(message: IncomingMessage): Promise<Readable> {
  const encoding = (message.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return message;
  const zlib = await import('node:zlib');
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return message;
  message.once('error', (error) => decoder.destroy(error));
  decoder.once('close', () => message.destroy());
  return message.pipe(decoder);
}
