// `rig eval --queue`: the run's pending trials become BullMQ jobs (job id = trial key, so adding
// them again is a no-op while the job exists), and results come back as the jobs' return values.
// They are taken from the completed events and from a periodic sweep of the pending jobs, so a
// result that completed while this process was not listening (or before a --resume) is not lost.
import { Job, Queue, QueueEvents } from 'bullmq';
import type { TrialSpec } from '../matrix.js';
import type { RunnerKind } from '../runner/types.js';
import type { TrialResult } from '../results.js';
import type { TrialArtifacts } from '../trial.js';
import { errorResult } from '../trial.js';
import { parseQueueUrl, unpackArtifacts, type TrialJobData, type TrialJobReturn } from './connection.js';

export interface QueueRunOptions {
  queue: { url: string; name: string };
  runId: string;
  runner: RunnerKind;
  specs: TrialSpec[];
  signal: AbortSignal;
  onResult: (result: TrialResult, artifacts: TrialArtifacts) => void;
  note: (text: string) => void;
}

const SWEEP_MS = 2000;
const KEEP_S = 7 * 24 * 3600;

function parseReturn(value: unknown): TrialJobReturn | undefined {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (parsed && typeof parsed === 'object' && 'result' in parsed) return parsed as TrialJobReturn;
  return undefined;
}

export async function runOnQueue(options: QueueRunOptions): Promise<void> {
  const connection = parseQueueUrl(options.queue.url);
  const name = options.queue.name;
  const queue = new Queue<TrialJobData>(name, { connection });
  const events = new QueueEvents(name, { connection });
  const pending = new Map(options.specs.map((spec) => [spec.key, spec]));
  let wake: () => void = () => undefined;

  const take = (jobId: string, value: unknown) => {
    const spec = pending.get(jobId);
    if (!spec) return;
    const returned = parseReturn(value);
    pending.delete(jobId);
    if (returned) options.onResult(returned.result, unpackArtifacts(returned));
    else options.onResult(errorResult(spec, options.runId, 'the worker returned no result', options.runner), {});
    wake();
  };
  const fail = (jobId: string, reason: string) => {
    const spec = pending.get(jobId);
    if (!spec) return;
    pending.delete(jobId);
    options.onResult(errorResult(spec, options.runId, `the queue job failed: ${reason}`, options.runner), {});
    wake();
  };
  events.on('completed', ({ jobId, returnvalue }) => take(jobId, returnvalue));
  events.on('failed', ({ jobId, failedReason }) => fail(jobId, failedReason));

  const sweep = async () => {
    for (const jobId of [...pending.keys()]) {
      const job = await Job.fromId<TrialJobData, TrialJobReturn>(queue, jobId);
      if (!job) continue;
      if (job.finishedOn && job.returnvalue) take(jobId, job.returnvalue);
      else if (job.finishedOn && job.failedReason) fail(jobId, job.failedReason);
    }
  };

  try {
    await events.waitUntilReady();
    await queue.waitUntilReady();
    await queue.addBulk(
      options.specs.map((spec) => ({
        name: 'trial',
        data: { runId: options.runId, spec, runner: options.runner },
        // One attempt: an agent failure is a result, not an error. A worker that dies is another
        // matter: its job stalls and BullMQ hands it to another worker (see worker.ts).
        opts: { jobId: spec.key, attempts: 1, removeOnComplete: { age: KEEP_S }, removeOnFail: { age: KEEP_S } },
      })),
    );
    options.note(`queued ${options.specs.length} trials on ${options.queue.url} (queue ${name}); start workers with \`rig worker --queue ${options.queue.url}\``);
    await sweep();
    while (pending.size > 0 && !options.signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SWEEP_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        options.signal.addEventListener('abort', wake, { once: true });
      });
      if (pending.size > 0 && !options.signal.aborted) await sweep();
    }
  } finally {
    await events.close();
    await queue.close();
  }
}
