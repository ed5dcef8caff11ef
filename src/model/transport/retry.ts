// Backoff and server-advised delays. Codex's formula (200 ms x 2^(n-1), jitter in [0.9, 1.1));
// unlike Codex we honour Retry-After / retry-after-ms, since providers that send them mean it.

export interface RetryClock {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
  now(): number;
}

export const BASE_DELAY_MS = 200;
/** A server asking for a longer wait than this is treated as "do not retry". */
export const MAX_ADVISED_DELAY_MS = 5 * 60_000;

export function backoffDelayMs(attempt: number, random: () => number): number {
  const jitter = 0.9 + random() * 0.2;
  return Math.round(BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1) * jitter);
}

/** `retry-after-ms`, then `retry-after` (seconds or an HTTP date); undefined when absent. */
export function retryAfterFromHeaders(headers: { get(name: string): string | null }, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = headers.get('retry-after');
  if (after !== null) {
    const seconds = Number(after.trim());
    if (after.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return undefined;
}

const TRY_AGAIN = /try again in\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)\b/i;

/** OpenAI-style rate-limit text: "Please try again in 1.5s" / "try again in 20ms". */
export function retryAfterFromText(text: string): number | undefined {
  const match = TRY_AGAIN.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const value = Number.parseFloat(match[1]);
  return Math.round(match[2].toLowerCase().startsWith('m') ? value : value * 1000);
}

export function realClock(): RetryClock {
  return {
    sleep: abortableSleep,
    random: Math.random,
    now: Date.now,
  };
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
