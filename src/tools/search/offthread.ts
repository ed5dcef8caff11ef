// Runs a fallback search off the main thread: in a worker (dist/search-worker.js, next to the
// bundle's chunks). Run from source (tests, where no compiled worker exists) it runs in-process,
// where the search still yields to the event loop every few milliseconds.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FallbackRequest, FallbackResult } from './fallback-request.js';
import { DEFAULT_SEARCH_TIMEOUT_MS, SearchError, type SearchFailure, type SearchOptions, timeoutError } from './types.js';

let scriptOverride: string | undefined;
// node:worker_threads is required when a search first needs a worker, not when this module loads:
// it is on every start's path (~1-2 ms there), and most searches are ripgrep's.
const requireHere = createRequire(import.meta.url);

/** Runs fallback searches in this compiled worker even from source (the bench measures the CLI's path). */
export function useWorkerScript(path: string | undefined): void {
  scriptOverride = path;
}

function workerScript(): string | undefined {
  if (scriptOverride) return scriptOverride;
  if (!import.meta.url.endsWith('.js')) return undefined;
  const path = fileURLToPath(new URL('./search-worker.js', import.meta.url));
  return existsSync(path) ? path : undefined;
}

/** Whether fallback searches run in a worker thread here (false when running from source). */
export function fallbackRunsInWorker(): boolean {
  return workerScript() !== undefined;
}

export async function runOffThread(request: FallbackRequest, options: SearchOptions = {}): Promise<FallbackResult> {
  if (options.signal?.aborted) throw new SearchError('aborted', 'Search interrupted');
  const script = workerScript();
  if (!script) return inProcess(request, options);
  return new Promise((resolve, reject) => {
    const { Worker } = requireHere('node:worker_threads') as typeof import('node:worker_threads');
    const worker = new Worker(script, { workerData: request });
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const timeoutMs = options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
    const timer = setTimeout(
      () => finish(() => reject(timeoutError(timeoutMs))),
      timeoutMs,
    );
    const onAbort = (): void => finish(() => reject(new SearchError('aborted', 'Search interrupted')));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: { ok: true; result: FallbackResult } | { ok: false; kind: SearchFailure; message: string }) =>
      finish(() => (message.ok ? resolve(message.result) : reject(new SearchError(message.kind, message.message)))),
    );
    worker.once('error', (error) => finish(() => reject(new SearchError('failed', `search worker failed: ${error.message}`))));
    worker.once('exit', (code) => finish(() => reject(new SearchError('failed', `search worker exited with code ${code}`))));
  });
}

async function inProcess(request: FallbackRequest, options: SearchOptions): Promise<FallbackResult> {
  const { runFallback } = await import('./fallback-request.js');
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  // The walk checks this signal between slices, so an interrupt or the timeout ends it.
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, timeoutMs);
  try {
    return await runFallback(request, stop.signal);
  } catch (error) {
    if (timedOut) throw timeoutError(timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
