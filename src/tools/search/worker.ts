// Worker-thread entry of the fallback search (bundled as dist/search-worker.js): one request in,
// one result or error out. The main thread terminates the worker to cancel.
import { parentPort, workerData } from 'node:worker_threads';
import { runFallback, type FallbackRequest } from './fallback-request.js';
import { SearchError } from './types.js';

const request = workerData as FallbackRequest;
runFallback(request).then(
  (result) => parentPort?.postMessage({ ok: true, result }),
  (error: unknown) =>
    parentPort?.postMessage({
      ok: false,
      kind: error instanceof SearchError ? error.kind : 'failed',
      message: error instanceof Error ? error.message : String(error),
    }),
);
