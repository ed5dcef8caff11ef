// Turns a failed HTTP exchange into one user-facing line and a retry decision. Providers word
// their errors differently; we show their own message and add what the user can do about it.
// Retried is only what another attempt can fix: overload, rate limits, 5xx, dropped connections.
import type { HeaderLookup } from './http-post.js';
import type { AttemptFailure } from './wire-adapter.js';
import { retryAfterFromHeaders, retryAfterFromText } from './retry.js';

export interface ErrorContext {
  providerId: string;
  envKey?: string;
  /** Endpoint URL as it may be shown: no query string, no password (see displayUrl). */
  url: string;
  now: number;
  /** stream_idle_timeout_ms, named in timeout messages. */
  idleTimeoutMs?: number;
}

const CONTEXT_LENGTH =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|exceeds the context/i;

export function isContextLengthMessage(text: string): boolean {
  return CONTEXT_LENGTH.test(text);
}

interface ProviderErrorBody {
  message: string;
  code?: string;
  /** The body was an HTML page (a proxy, a web server, the wrong URL), not an API error. */
  html?: boolean;
}

/** The provider's own error message from an OpenAI / Anthropic / generic JSON error body. */
export function providerErrorMessage(bodyText: string, status: number, contentType = ''): ProviderErrorBody {
  const json = safeJson(bodyText);
  if (json && typeof json === 'object') {
    const obj = json as Record<string, unknown>;
    const error = obj.error;
    if (error && typeof error === 'object') {
      const e = error as Record<string, unknown>;
      const code = typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined;
      if (typeof e.message === 'string' && e.message) return withCode(oneLine(e.message), code);
    }
    if (typeof error === 'string' && error) return { message: oneLine(error) };
    for (const key of ['message', 'detail', 'error_msg']) {
      const value = obj[key];
      if (typeof value === 'string' && value) return withCode(oneLine(value), stringField(obj, 'code'));
    }
  }
  if (/html/i.test(contentType) || /^\s*<(!doctype|html|head|body)/i.test(bodyText)) {
    return { message: htmlSummary(bodyText) || `HTTP ${status} with an HTML page`, html: true };
  }
  const text = oneLine(bodyText);
  return { message: text || `HTTP ${status} with an empty body` };
}

export function classifyHttpError(
  status: number,
  headers: HeaderLookup,
  bodyText: string,
  ctx: ErrorContext,
): AttemptFailure {
  const { message, code, html } = providerErrorMessage(bodyText, status, headers.get('content-type') ?? '');
  // A wrong path or an HTML page says nothing without the URL it came from.
  const where = status === 404 || status === 405 || html
    ? `provider '${ctx.providerId}' returned HTTP ${status} for ${ctx.url}`
    : `provider '${ctx.providerId}' returned HTTP ${status}`;
  const hint = status === 404 || status === 405
    ? ` (check base_url of provider '${ctx.providerId}': it should be the API root the wire path is appended to, e.g. https://host/v1)`
    : html
      ? ' (an HTML page, not an API error: check base_url)'
      : '';
  if (code === 'context_length_exceeded' || ((status === 400 || status === 413) && isContextLengthMessage(message))) {
    return { kind: 'context_length', status, retryable: false, message: `${where}: ${message}` };
  }
  if (status === 401 || status === 403) {
    const keyHint = ctx.envKey ? ` Check ${ctx.envKey}.` : '';
    return { kind: 'auth', status, retryable: false, message: `${where}: ${endSentence(message)}${keyHint}` };
  }
  if (status === 402 || code === 'insufficient_quota') {
    return { kind: 'quota', status, retryable: false, message: `${where}: ${message}` };
  }
  if (status === 408 || status === 409 || status === 429 || status >= 500) {
    const delayMs = retryAfterFromHeaders(headers, ctx.now) ?? (status === 429 ? retryAfterFromText(message) : undefined);
    return {
      kind: status === 429 ? 'rate_limit' : 'server',
      status,
      retryable: true,
      message: `${where}: ${message}${hint}`,
      ...(delayMs !== undefined ? { delayMs } : {}),
    };
  }
  return { kind: 'bad_request', status, retryable: false, message: `${where}: ${message}${hint}` };
}

/**
 * A fetch() rejection as one line saying what actually happened: the host does not resolve (not
 * retried), nothing listens there, the connection dropped before an answer, a TLS problem.
 */
export function connectionFailure(error: unknown, ctx: ErrorContext): AttemptFailure {
  const cause = ((error as { cause?: unknown } | null)?.cause ?? error) as
    | { code?: unknown; syscall?: unknown; hostname?: unknown; message?: unknown }
    | null;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const host = hostOf(ctx.url);
  const check = `check base_url of provider '${ctx.providerId}'`;
  if (code === 'ENOTFOUND') {
    const name = typeof cause?.hostname === 'string' ? cause.hostname : host;
    return { kind: 'connection', retryable: false, message: `cannot resolve host '${name}' of ${ctx.url}: no such host (DNS lookup failed; ${check})` };
  }
  if (code === 'EAI_AGAIN') {
    const name = typeof cause?.hostname === 'string' ? cause.hostname : host;
    return { kind: 'connection', retryable: true, message: `cannot resolve host '${name}' right now (temporary DNS failure, EAI_AGAIN): check the network connection` };
  }
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    return { kind: 'connection', retryable: true, message: `${ctx.url} accepted the connection but closed it before sending a response (${code})` };
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return { kind: 'connection', retryable: true, message: `${ctx.url} did not answer in time (${code})` };
  }
  if (code !== undefined && /CERT|SSL|TLS|SELF_SIGNED|ERR_TLS/.test(code)) {
    return { kind: 'connection', retryable: false, message: `TLS handshake with ${host} failed (${code}): ${check}, or the proxy's certificate setup` };
  }
  return {
    kind: 'connection',
    retryable: true,
    message: `cannot reach ${ctx.url}: ${networkReason(cause, error)} (${check})`,
  };
}

/** The server took the request and sent no response headers within the idle timeout. */
export function headersTimeout(ctx: ErrorContext): AttemptFailure {
  const ms = ctx.idleTimeoutMs ?? 0;
  return {
    kind: 'stream',
    retryable: true,
    message: `idle timeout waiting for response headers: ${ctx.url} accepted the request but sent nothing for ${ms} ms (stream_idle_timeout_ms)`,
  };
}

/** A 200 that is not an event stream: the server ignored `stream: true`, or is not this API. */
export function notAStream(contentType: string, bodyText: string, ctx: ErrorContext): AttemptFailure {
  const own = providerErrorMessage(bodyText, 200, contentType);
  const json = safeJson(bodyText) as { error?: unknown } | undefined;
  if (json && typeof json === 'object' && json.error !== undefined) {
    return { kind: 'bad_request', retryable: false, message: `provider '${ctx.providerId}' answered HTTP 200 with an error instead of a stream: ${own.message}` };
  }
  return {
    kind: 'bad_request',
    retryable: false,
    message:
      `provider '${ctx.providerId}' answered ${ctx.url} with ${contentType || 'no content type'} instead of an event stream ` +
      `(text/event-stream); the body starts: ${firstBytes(bodyText)}. Check base_url and wire_api: the server does not speak this wire`,
  };
}

/** Up to 80 characters of what a server sent, quoted, for messages. */
export function firstBytes(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? '(nothing)' : JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}…` : flat);
}

function htmlSummary(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const text = (title ?? heading ?? html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')).replace(/<[^>]*>/g, ' ');
  const flat = text.replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function networkReason(cause: { code?: unknown; syscall?: unknown; message?: unknown } | null, error: unknown): string {
  if (cause && typeof cause.code === 'string') {
    return typeof cause.syscall === 'string' ? `${cause.syscall} ${cause.code}` : `connect ${cause.code}`;
  }
  if (cause && typeof cause.message === 'string' && cause.message) return oneLine(cause.message);
  return error instanceof Error ? error.message : String(error);
}

function endSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function withCode(message: string, code: string | undefined): ProviderErrorBody {
  return code === undefined ? { message } : { message, code };
}

function stringField(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  return typeof v === 'string' ? v : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 500 ? `${flat.slice(0, 500)}…` : flat;
}
