// `rig worker`: flags to options, signals to a graceful stop (first) or an immediate one (second).
import { DEFAULT_QUEUE_NAME, parseQueueUrl } from './queue/connection.js';

export interface WorkerFlags {
  queue: string;
  queueName?: string;
  concurrency?: string;
  lockDuration?: string;
  stalledInterval?: string;
  isolate?: boolean;
}

function wholeNumber(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag} must be a whole number of at least ${min}; got ${JSON.stringify(value)}`);
  return n;
}

export async function runWorkerCommand(flags: WorkerFlags): Promise<number> {
  parseQueueUrl(flags.queue);
  const options = {
    url: flags.queue,
    name: flags.queueName ?? DEFAULT_QUEUE_NAME,
    concurrency: wholeNumber('--concurrency', flags.concurrency, 1, 1),
    lockDurationMs: wholeNumber('--lock-duration', flags.lockDuration, 30_000, 100),
    stalledIntervalMs: wholeNumber('--stalled-interval', flags.stalledInterval, 30_000, 100),
    ...(flags.isolate ? { isolate: true } : {}),
  };
  const graceful = new AbortController();
  const force = new AbortController();
  const onSignal = () => {
    if (graceful.signal.aborted) force.abort();
    else graceful.abort();
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  for (const s of signals) process.on(s, onSignal);
  try {
    const { runWorker } = await import('./queue/worker.js');
    await runWorker({ ...options, env: process.env, log: (line) => void process.stderr.write(`${line}\n`), signal: graceful.signal, force: force.signal });
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
  return force.signal.aborted ? 130 : 0;
}
