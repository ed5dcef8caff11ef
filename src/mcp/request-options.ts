// The options every request to a server is sent with. The SDK falls back to a 60 s timeout when a
// request has none, the most reported MCP failure ("my 5-minute tool times out at 60 s"), so
// nothing in this room calls the SDK without these: the configured timeout, restarted by each
// progress notification (the SDK only asks for progress when `onprogress` is set), and the
// caller's AbortSignal.
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';

export interface RequestTiming {
  /** Milliseconds without a response or a progress notification before the request fails. */
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export function requestOptions(timing: RequestTiming): RequestOptions {
  if (!(timing.timeoutMs > 0) || !Number.isFinite(timing.timeoutMs)) {
    throw new Error(`an MCP request needs a positive timeout, got ${timing.timeoutMs} ms`);
  }
  return {
    timeout: timing.timeoutMs,
    resetTimeoutOnProgress: true,
    onprogress: timing.onProgress ?? (() => undefined),
    ...(timing.signal ? { signal: timing.signal } : {}),
  };
}

/** "0.5 s", "5 min", "300 s" for messages. */
export function formatDuration(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * A signal of one request that follows `parent`. The SDK adds an abort listener to the signal of
 * every request and never removes it, so a turn's signal passed as is would collect one per call
 * (and warn past ten); this child is dropped with its request, and `release` unhooks it.
 */
export function requestSignal(parent: AbortSignal | undefined): { signal?: AbortSignal; release: () => void } {
  if (!parent) return { release: () => undefined };
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return { signal: child.signal, release: () => undefined };
  }
  const forward = () => child.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { signal: child.signal, release: () => parent.removeEventListener('abort', forward) };
}
