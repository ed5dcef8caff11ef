// Runs a run folder's pending trials, here (K at a time) or through a queue of workers, and appends
// each result to results.jsonl as it arrives. A trial cut short by an interrupt leaves no result,
// so the next resume runs it again.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrialSpec } from './matrix.js';
import { runPool } from './pool.js';
import { costUsd, type PriceTable } from './prices.js';
import { Progress, type ProgressStream } from './progress.js';
import type { TrialResult } from './results.js';
import type { RunDir, RunManifest } from './run-dir.js';
import type { TrialRunner } from './runner/types.js';
import { runTrial, type TrialArtifacts, type TrialContext } from './trial.js';
import { pruneWorktrees } from './workspace.js';

export interface ExecuteOptions {
  parallel: number;
  env: NodeJS.ProcessEnv;
  prices: PriceTable;
  runner: TrialRunner;
  keepWorkspaces: boolean;
  stderr: ProgressStream;
  signal: AbortSignal;
  /** Per trial: what else its context needs (a replay's recorded rollout and workspace). */
  contextFor?: (spec: TrialSpec) => Partial<TrialContext>;
  /** Looks at a finished trial before it is written (a replay adds its divergences). */
  review?: (spec: TrialSpec, result: TrialResult, artifacts: TrialArtifacts) => TrialResult;
  queue?: { url: string; name: string };
}

/** Writes a trial's rollout and diff into the run folder (results from workers carry them). */
export function storeArtifacts(run: RunDir, result: TrialResult, artifacts: TrialArtifacts): TrialResult {
  if (artifacts.rollout === undefined && artifacts.patch === undefined) return result;
  const dir = run.trialDir(result.key);
  mkdirSync(dir, { recursive: true });
  let rollout = result.rollout;
  if (artifacts.rollout !== undefined) {
    writeFileSync(join(dir, 'rollout.jsonl'), artifacts.rollout);
    rollout = join('trials', result.key, 'rollout.jsonl');
  }
  if (artifacts.patch) writeFileSync(join(dir, 'agent.patch'), artifacts.patch);
  return { ...result, rollout };
}

export async function executePending(run: RunDir, manifest: RunManifest, pending: TrialSpec[], options: ExecuteOptions): Promise<void> {
  const finished = run.results.read();
  const progress = new Progress(manifest.specs.length, finished, options.stderr);
  const written = new Set(finished.map((r) => r.key));
  const byKey = new Map(pending.map((spec) => [spec.key, spec]));
  const accept = (result: TrialResult, artifacts: TrialArtifacts) => {
    // A second result for the same trial (a queue job that ran twice) is ignored.
    if (written.has(result.key)) return;
    const spec = byKey.get(result.key);
    if (!spec) return;
    written.add(result.key);
    let final = storeArtifacts(run, result, artifacts);
    final = { ...final, cost_usd: costUsd(options.prices, final.model, final.tokens) };
    if (options.review) final = options.review(spec, final, artifacts);
    run.results.append(final);
    progress.finish(final);
  };
  try {
    if (options.queue) {
      const { runOnQueue } = await import('./queue/coordinator.js');
      await runOnQueue({ queue: options.queue, runId: manifest.id, runner: options.runner.name, specs: pending, signal: options.signal, onResult: accept, note: (text) => progress.note(text) });
      return;
    }
    const workRoot = run.workRoot(manifest.id);
    // What an earlier, killed session of this run left behind.
    rmSync(workRoot, { recursive: true, force: true });
    await pruneWorktrees(pending.map((spec) => spec.task.repo));
    await runPool(
      pending,
      options.parallel,
      async (spec) => {
        const { result, artifacts } = await runTrial(spec, {
          runId: manifest.id,
          runner: options.runner,
          workRoot,
          env: options.env,
          prices: options.prices,
          keepWorkspace: options.keepWorkspaces,
          signal: options.signal,
          ...options.contextFor?.(spec),
        });
        if (options.signal.aborted) return;
        accept(result, artifacts);
      },
      options.signal,
    );
  } finally {
    progress.close();
    if (!options.queue && !options.keepWorkspaces) rmSync(run.workRoot(manifest.id), { recursive: true, force: true });
  }
}
