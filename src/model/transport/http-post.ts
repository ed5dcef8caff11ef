// The model request's POST over node:http / node:https instead of the global fetch().
//
// Node's fetch lives in a bundled undici that is compiled on its first use: ~25 ms on this
// project's 2-core machine, paid between "the request is built" and "the request is sent", i.e.
// on every `rig exec`'s time to first token. node:http is already part of the running process.
// Like fetch in Node 20, this ignores proxy variables and speaks HTTP/1.1 with keep-alive.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** The part of a fetch() Response the model stream reads. */
export interface HttpResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: HeaderLookup;
  /** The body, decompressed; null only for statuses without one. */
  readonly body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}

export interface HeaderLookup {
  get(name: string): string | null;
}

export interface HttpPostInit {
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
}

export type HttpPost = (url: string, init: HttpPostInit) => Promise<HttpResponse>;

export const httpPost: HttpPost = async (url, init) => {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  if (!secure && target.protocol !== 'http:') throw new TypeError(`unsupported protocol ${target.protocol} in ${url} (use http:// or https://)`);
  const client = secure ? await import('node:https') : await import('node:http');
  const payload = Buffer.from(init.body, 'utf8');
  const headers: Record<string, string> = { accept: '*/*', ...init.headers, 'content-length': String(payload.length) };
  const message = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = client.request(target, { method: 'POST', headers, ...(init.signal ? { signal: init.signal } : {}) }, resolve);
    request.once('error', reject);
    request.end(payload);
  });
  const body = await decoded(message);
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

function headerLookup(headers: IncomingHttpHeaders): HeaderLookup {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** We ask for no encoding, but a server may compress anyway; fetch() would have undone it. */
async function decoded(message: IncomingMessage): Promise<AsyncIterable<Uint8Array>> {
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
