// Turns a failed HTTP exchange into one user-facing line and a retry decision. Providers word
// their errors differently; we show their own message and add what the user can do about it.
import type { AttemptFailure } from './wire-adapter.js';
import { retryAfterFromHeaders, retryAfterFromText } from './retry.js';

export interface ErrorContext {
  providerId: string;
  envKey?: string;
  /** Endpoint URL without query string (query params may carry secrets). */
  url: string;
  now: number;
}

const CONTEXT_LENGTH =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|exceeds the context/i;

export function isContextLengthMessage(text: string): boolean {
  return CONTEXT_LENGTH.test(text);
}

interface ProviderErrorBody {
  message: string;
  code?: string;
}

/** The provider's own error message from an OpenAI / Anthropic / generic JSON error body. */
export function providerErrorMessage(bodyText: string, status: number): ProviderErrorBody {
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
  const text = oneLine(bodyText);
  return { message: text || `HTTP ${status} with an empty body` };
}

export function classifyHttpError(
  status: number,
  headers: Headers,
  bodyText: string,
  ctx: ErrorContext,
): AttemptFailure {
  const { message, code } = providerErrorMessage(bodyText, status);
  const where = `provider '${ctx.providerId}' returned HTTP ${status}`;
  if (code === 'context_length_exceeded' || ((status === 400 || status === 413) && isContextLengthMessage(message))) {
    return { kind: 'context_length', status, retryable: false, message: `${where}: ${message}` };
  }
  if (status === 401 || status === 403) {
    const hint = ctx.envKey ? ` Check ${ctx.envKey}.` : '';
    return { kind: 'auth', status, retryable: false, message: `${where}: ${endSentence(message)}${hint}` };
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
      message: `${where}: ${message}`,
      ...(delayMs !== undefined ? { delayMs } : {}),
    };
  }
  return { kind: 'bad_request', status, retryable: false, message: `${where}: ${message}` };
}

/** A fetch() rejection (DNS, refused, reset, TLS) as one line naming the URL and the config key. */
export function connectionFailure(error: unknown, ctx: ErrorContext): AttemptFailure {
  return {
    kind: 'connection',
    retryable: true,
    message: `cannot reach ${ctx.url}: ${networkReason(error)} (check base_url of provider '${ctx.providerId}')`,
  };
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const c = cause as { code?: unknown; syscall?: unknown; message?: unknown } | null;
  if (c && typeof c.code === 'string') {
    return typeof c.syscall === 'string' ? `${c.syscall} ${c.code}` : `connect ${c.code}`;
  }
  if (c && typeof c.message === 'string' && c.message) return oneLine(c.message);
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
