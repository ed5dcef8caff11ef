// `rig worker --queue redis://...`: takes trial jobs and runs them as `rig eval` would here (same
// workspaces, sandbox, checks, and the run's runner: engine threads in this process unless the run
// or the worker says --isolate), returning each result with its rollout. A worker that dies holds
// a lock that expires; another worker's stalled-job check then puts the job back in line, up to
// maxStalledCount times. Nothing is retried for an agent failure: that is the result.
import { Worker, type Job } from 'bullmq';
import { hostname, tmpdir } from 'node:os';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRunner, type RunnerKind, type TrialRunner } from '../runner/index.js';
import { runTrial } from '../trial.js';
import { packArtifacts, parseQueueUrl, type TrialJobData, type TrialJobReturn } from './connection.js';

export interface WorkerOptions {
  url: string;
  name: string;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Stop taking jobs; the trials in progress finish. */
  signal: AbortSignal;
  /** Stop the trials in progress too (their jobs stall and run again elsewhere). */
  force: AbortSignal;
  /** Run every trial as a `rig exec` child, whatever runner its run uses. */
  isolate?: boolean;
  /** Resolves when the worker is connected and taking jobs. */
  onReady?: () => void;
}

export async function runWorker(options: WorkerOptions): Promise<void> {
  const connection = parseQueueUrl(options.url);
  const runners = new Map<RunnerKind, TrialRunner>();
  const runnerFor = (kind: RunnerKind): TrialRunner => {
    if (!runners.has(kind)) runners.set(kind, createRunner(kind));
    return runners.get(kind)!;
  };
  const id = `${hostname()}:${process.pid}`;
  const trials = new AbortController();
  const workRoots = new Set<string>();
  options.force.addEventListener('abort', () => trials.abort(), { once: true });
  const worker = new Worker<TrialJobData, TrialJobReturn>(
    options.name,
    async (job: Job<TrialJobData, TrialJobReturn>) => {
      const { spec, runId } = job.data;
      const runner = runnerFor(options.isolate ? 'isolate' : job.data.runner ?? 'in-process');
      // Per worker process: a job that stalled here and runs again elsewhere never shares a folder.
      const workRoot = join(tmpdir(), 'rig-eval', runId, `w${process.pid}`);
      workRoots.add(workRoot);
      const { result, artifacts } = await runTrial(spec, {
        runId,
        runner,
        workRoot,
        env: options.env,
        prices: {},
        worker: id,
        signal: trials.signal,
      });
      options.log(`${result.status.padEnd(6)} ${result.task}  ${result.harness}  ${result.model}  #${result.trial}  (${(result.timing.total_ms / 1000).toFixed(1)}s)`);
      return packArtifacts(result, artifacts);
    },
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: options.lockDurationMs,
      stalledInterval: options.stalledIntervalMs,
      maxStalledCount: 3,
      autorun: false,
    },
  );
  worker.on('error', (error) => options.log(`queue error: ${error.message}`));
  const running = worker.run();
  await worker.waitUntilReady();
  options.log(`worker ${id} taking jobs from ${options.url} (queue ${options.name}, concurrency ${options.concurrency}${options.isolate ? ', a process per trial' : ''})`);
  options.onReady?.();
  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  options.log('finishing the trials in progress (interrupt again to stop them)');
  await worker.close();
  await running;
  for (const root of workRoots) rmSync(root, { recursive: true, force: true });
}
