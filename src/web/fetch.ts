// web_fetch: a URL to readable text for the model. HTML becomes Markdown (html.ts), text and
// Markdown pass through, JSON is pretty-printed; other types (PDF, images, archives) are refused
// with a message saying so. The caller decides what may happen: `networkAllowed` (the sandbox's
// network setting) and an approval callback asked before the first request and before every
// redirect hop, each hop checked again (scheme, count). Downloads stop at `maxBytes`; the text
// given back stops at `maxChars`.
import { htmlTitle, htmlToMarkdown } from './html.js';

export const DEFAULT_FETCH_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_FETCH_MAX_CHARS = 100_000;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

export type WebFetchErrorCode =
  | 'invalid_url'
  | 'network_disabled'
  | 'denied'
  | 'too_many_redirects'
  | 'http_error'
  | 'unsupported_content'
  | 'timeout'
  | 'network_error';

export class WebFetchError extends Error {
  override readonly name = 'WebFetchError';
  constructor(
    readonly code: WebFetchErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchApprovalRequest {
  url: string;
  host: string;
  /** fetch: the first request; redirect: a hop the server sent the request on to. */
  reason: 'fetch' | 'redirect';
  /** For a redirect, the URL that redirected. */
  from?: string;
}

export interface WebFetchOptions {
  /** The sandbox lets commands reach the network (sandbox_workspace_write.network_access, or no sandbox). */
  networkAllowed: boolean;
  /** Asked before each request (the first and every redirect hop); false refuses it. Absent: allowed. */
  approve?: (request: FetchApprovalRequest) => Promise<boolean> | boolean;
  maxBytes?: number;
  maxChars?: number;
  maxRedirects?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  userAgent?: string;
  headers?: Record<string, string>;
  /** Give HTML as it came instead of converting it to Markdown. */
  raw?: boolean;
}

export interface WebFetchResult {
  /** The URL of the answer (after redirects). */
  url: string;
  status: number;
  contentType: string;
  format: 'markdown' | 'text' | 'json';
  title?: string;
  content: string;
  /** The body passed maxBytes, or the text passed maxChars. */
  truncated: boolean;
  /** Bytes of body read. */
  bytes: number;
  /** Each URL that redirected, in order. */
  redirects: string[];
}

function parseUrl(raw: string, base?: string): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new WebFetchError('invalid_url', `web_fetch: ${JSON.stringify(raw)} is not a valid URL (give an absolute http:// or https:// URL)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebFetchError('invalid_url', `web_fetch: only http:// and https:// URLs can be fetched, not ${url.protocol}//`);
  }
  return url;
}

async function readCapped(response: Response, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { body: Buffer.alloc(0), truncated: false };
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    if (value.length >= room) {
      chunks.push(Buffer.from(value.subarray(0, room)));
      size += room;
      truncated = value.length > room;
      if (!truncated) {
        const next = await reader.read();
        truncated = !next.done;
      }
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(Buffer.from(value));
    size += value.length;
  }
  return { body: Buffer.concat(chunks), truncated };
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=([^;\s]+)/i.exec(contentType)?.[1]?.replace(/["']/g, '') ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

type Kind = 'html' | 'text' | 'json' | 'pdf' | 'other';

function kindOf(contentType: string, body: Buffer): Kind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml') || type === 'application/javascript') return 'text';
  if (type === 'application/pdf' || body.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (type === '' || type === 'application/octet-stream') {
    const head = body.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
    if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'html';
    if (!body.subarray(0, 4096).includes(0)) return 'text';
  }
  return 'other';
}

export async function webFetch(rawUrl: string, options: WebFetchOptions): Promise<WebFetchResult> {
  let url = parseUrl(rawUrl);
  if (!options.networkAllowed) {
    throw new WebFetchError(
      'network_disabled',
      `web_fetch: network access is off in this sandbox, so ${url.href} was not fetched. ` +
        'Allow it with sandbox_workspace_write.network_access = true (or a sandbox with network access)',
    );
  }
  const maxBytes = options.maxBytes ?? DEFAULT_FETCH_MAX_BYTES;
  const maxChars = options.maxChars ?? DEFAULT_FETCH_MAX_CHARS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const redirects: string[] = [];
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let from: string | undefined;
  for (;;) {
    const request: FetchApprovalRequest = { url: url.href, host: url.host, reason: from === undefined ? 'fetch' : 'redirect', ...(from ? { from } : {}) };
    if (options.approve && !(await options.approve(request))) {
      throw new WebFetchError('denied', `web_fetch: fetching ${url.href} was not approved`);
    }
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'manual',
        signal,
        headers: {
          'user-agent': options.userAgent ?? 'rig-web-fetch/1 (a coding agent fetching documentation)',
          accept: 'text/html,application/xhtml+xml,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5',
          ...options.headers,
        },
      });
    } catch (error) {
      if (timeout.aborted) throw new WebFetchError('timeout', `web_fetch: ${url.href} did not answer within ${options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS} ms`);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new WebFetchError('network_error', `web_fetch: could not reach ${url.href}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel().catch(() => {});
      if (redirects.length >= maxRedirects) {
        throw new WebFetchError('too_many_redirects', `web_fetch: more than ${maxRedirects} redirects starting at ${rawUrl} (last: ${url.href})`);
      }
      redirects.push(url.href);
      from = url.href;
      url = parseUrl(response.headers.get('location')!, url.href);
      continue;
    }
    const contentType = response.headers.get('content-type') ?? '';
    const { body, truncated: bodyTruncated } = await readCapped(response, maxBytes);
    if (!response.ok) {
      const excerpt = decode(body.subarray(0, 300), contentType).replace(/\s+/g, ' ').trim();
      throw new WebFetchError('http_error', `web_fetch: ${url.href} answered HTTP ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ''}`, response.status);
    }
    const kind = kindOf(contentType, body);
    if (kind === 'pdf') {
      throw new WebFetchError('unsupported_content', `web_fetch: ${url.href} is a PDF document, which web_fetch cannot read yet; fetch an HTML or text version of it`);
    }
    if (kind === 'other') {
      throw new WebFetchError('unsupported_content', `web_fetch: ${url.href} is ${contentType || 'binary data'}, not a web page or text; web_fetch reads HTML, text, Markdown and JSON`);
    }
    const text = decode(body, contentType);
    let content: string;
    let format: WebFetchResult['format'];
    let title: string | undefined;
    if (kind === 'html' && options.raw) {
      title = htmlTitle(text);
      content = text;
      format = 'text';
    } else if (kind === 'html') {
      title = htmlTitle(text);
      content = await htmlToMarkdown(text);
      format = 'markdown';
    } else if (kind === 'json') {
      format = 'json';
      try {
        content = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        content = text; // cut by maxBytes, or not JSON after all
      }
    } else {
      format = 'text';
      content = text;
    }
    const chars = [...content];
    const truncated = bodyTruncated || chars.length > maxChars;
    if (chars.length > maxChars) content = chars.slice(0, maxChars).join('');
    return {
      url: url.href,
      status: response.status,
      contentType,
      format,
      ...(title !== undefined ? { title } : {}),
      content,
      truncated,
      bytes: body.length,
      redirects,
    };
  }
}
