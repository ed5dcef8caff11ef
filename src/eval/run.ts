// `rig eval`: loads tasks, builds the trial matrix, runs it (here or on queue workers), and writes
// results.jsonl, summary.json and report.html into the run folder; `--resume` continues a run,
// `--replay` re-runs one against its recorded model responses, `rig eval report` rebuilds a report.
import { join, resolve } from 'node:path';
import { loadConfig, resolveRigHome } from '../core/config-files.js';
import { rigVersion } from '../core/version.js';
import { executePending, type ExecuteOptions } from './execute.js';
import { takeFingerprints, type FingerprintCell } from './fingerprint.js';
import { buildMatrix, type AgentSettings, type TrialSpec } from './matrix.js';
import type { PriceTable } from './prices.js';
import type { ProgressStream } from './progress.js';
import { planReplay, readFingerprints } from './replay.js';
import { newRunId, RunDir, type RunManifest } from './run-dir.js';
import { createRunner, runnerKind, type RunnerKind } from './runner/index.js';
import type { RunSummary } from './summary.js';
import { loadTasks } from './tasks/load.js';
import { DEFAULT_QUEUE_NAME } from './queue/connection.js';

export interface EvalFlags {
  harness?: string;
  model?: string;
  provider?: string;
  trials?: string;
  parallel?: string;
  out?: string;
  resume?: string;
  replay?: string;
  queue?: string;
  queueName?: string;
  timeout?: string;
  maxTokens?: string;
  maxSteps?: string;
  checkTimeout?: string;
  config?: string[];
  profile?: string;
  repos?: string;
  keepWorkspaces?: boolean;
  json?: boolean;
  isolate?: boolean;
}

export interface EvalIo {
  stdout: (text: string) => void;
  stderr: ProgressStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const EXIT_DIVERGED = 1;
const EXIT_INTERRUPTED = 130;

function positiveInt(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a whole number of at least 1; got ${JSON.stringify(value)}`);
  return n;
}

function seconds(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} takes a number of seconds above 0; got ${JSON.stringify(value)}`);
  return Math.round(n * 1000);
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((part) => part.trim()).filter(Boolean);
}

function readConfig(flags: EvalFlags, io: EvalIo): { prices: PriceTable; model?: string; provider: string; harness?: string } {
  const { config } = loadConfig({ home: resolveRigHome(io.env), cwd: io.cwd, env: io.env, overrides: flags.config ?? [], ...(flags.profile ? { profile: flags.profile } : {}) });
  return {
    prices: (config.eval?.prices ?? {}) as PriceTable,
    ...(config.model ? { model: config.model } : {}),
    provider: config.model_provider,
    ...(config.harness ? { harness: config.harness } : {}),
  };
}

function fingerprintCell(spec: TrialSpec): FingerprintCell {
  const { provider, config, profile } = spec.settings;
  return { harness: spec.harness, provider, model: spec.model, config, ...(profile ? { profile } : {}) };
}

function printSummary(summary: RunSummary, run: RunDir, io: EvalIo): void {
  const say = (line: string) => io.stderr.write(`${line}\n`);
  for (const cell of summary.cells) {
    const ci = `${Math.round(cell.ci95[0] * 100)}-${Math.round(cell.ci95[1] * 100)}%`;
    const cost = cell.cost_usd === null ? '' : `, $${cell.cost_usd.toFixed(4)}`;
    say(`${cell.harness} · ${cell.model}: ${cell.passed}/${cell.scored} passed (${(cell.pass_rate * 100).toFixed(1)}%, 95% CI ${ci})${cost}${cell.errors ? `, ${cell.errors} errors` : ''}`);
  }
  for (const c of summary.comparisons) {
    say(`${c.a} vs ${c.b} · ${c.model}: ${c.a_only} only ${c.a}, ${c.b_only} only ${c.b} of ${c.pairs} pairs (McNemar exact p = ${c.p_value.toFixed(3)})`);
  }
  say(`results: ${join(run.dir, 'results.jsonl')}`);
  say(`report:  ${join(run.dir, 'report.html')}`);
}

async function finish(run: RunDir, manifest: RunManifest, flags: EvalFlags, io: EvalIo, interrupted: boolean): Promise<RunSummary> {
  const { buildReport } = await import('./report/build.js');
  const summary = await buildReport(run, manifest);
  if (flags.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  printSummary(summary, run, io);
  if (interrupted) io.stderr.write(`interrupted: continue with \`rig eval --resume ${run.dir}\`\n`);
  return summary;
}

/** Ctrl-C (or SIGTERM) stops the run: trials in progress are abandoned (a resume runs them again). */
function interruptible(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort();
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);
  return { signal: controller.signal, dispose: () => signals.forEach((s) => process.off(s, onSignal)) };
}

async function execute(run: RunDir, manifest: RunManifest, pending: TrialSpec[], flags: EvalFlags, io: EvalIo, runner: RunnerKind, extra: Partial<ExecuteOptions> = {}): Promise<{ interrupted: boolean; summary: RunSummary }> {
  const { prices } = readConfig(flags, io);
  const stop = interruptible();
  try {
    await executePending(run, manifest, pending, {
      parallel: manifest.parallel,
      env: io.env,
      prices,
      runner: createRunner(runner),
      keepWorkspaces: Boolean(flags.keepWorkspaces),
      stderr: io.stderr,
      signal: stop.signal,
      ...(manifest.queue ? { queue: manifest.queue } : {}),
      ...extra,
    });
  } finally {
    stop.dispose();
  }
  const interrupted = stop.signal.aborted;
  const summary = await finish(run, manifest, flags, io, interrupted);
  return { interrupted, summary };
}

export async function runEvalCommand(tasksPath: string | undefined, flags: EvalFlags, io: EvalIo): Promise<number> {
  if (flags.resume) return resumeEval(flags.resume, flags, io);
  if (flags.replay) return replayEval(flags.replay, flags, io);
  if (!tasksPath) throw new Error('rig eval needs tasks: a .jsonl file, a Harbor task folder or a folder of tasks (e.g. rig eval examples/eval --harness native --model M)');
  const configured = readConfig(flags, io);
  const harnesses = flags.harness ? list(flags.harness) : [configured.harness ?? 'native'];
  const models = flags.model ? list(flags.model) : configured.model ? [configured.model] : [];
  if (models.length === 0) throw new Error('rig eval needs --model M1[,M2...] (no model is set in config.toml)');
  if (harnesses.length === 0) throw new Error('--harness needs at least one harness id (see `rig harness list`)');
  const provider = flags.provider ?? configured.provider;
  const tasks = loadTasks(resolve(io.cwd, tasksPath), flags.repos ? { reposDir: resolve(io.cwd, flags.repos) } : {});
  const settings: AgentSettings = {
    provider,
    config: flags.config ?? [],
    ...(flags.profile ? { profile: flags.profile } : {}),
    timeoutMs: seconds('--timeout', flags.timeout) ?? 600_000,
    ...(flags.maxTokens ? { maxTokens: positiveInt('--max-tokens', flags.maxTokens, 1) } : {}),
    ...(flags.maxSteps ? { maxSteps: positiveInt('--max-steps', flags.maxSteps, 1) } : {}),
    checkTimeoutMs: seconds('--check-timeout', flags.checkTimeout) ?? 300_000,
  };
  const trials = positiveInt('--trials', flags.trials, 1);
  const id = newRunId();
  const specs = buildMatrix(tasks, harnesses, models, trials, settings);
  const manifest: RunManifest = {
    v: 1,
    id,
    created_at: new Date().toISOString(),
    rig_version: rigVersion(),
    tasks_path: resolve(io.cwd, tasksPath),
    harnesses,
    models,
    provider,
    trials,
    parallel: positiveInt('--parallel', flags.parallel, 1),
    runner: runnerKind(flags.isolate),
    ...(flags.queue ? { queue: { url: flags.queue, name: flags.queueName ?? DEFAULT_QUEUE_NAME } } : {}),
    specs,
  };
  const run = RunDir.create(resolve(io.cwd, flags.out ?? join('eval-runs', id)), manifest);
  io.stderr.write(`rig eval: ${specs.length} trials (${tasks.length} tasks × ${harnesses.length} harnesses × ${models.length} models × ${trials}) → ${run.dir}\n`);
  // What each harness sends, so a later --replay can tell a harness change from an agent change.
  run.writeJson('harnesses.json', await takeFingerprints(specs.map(fingerprintCell), io.env));
  const { interrupted } = await execute(run, manifest, specs, flags, io, manifest.runner);
  return interrupted ? EXIT_INTERRUPTED : 0;
}

async function resumeEval(dir: string, flags: EvalFlags, io: EvalIo): Promise<number> {
  const { run, manifest } = RunDir.open(resolve(io.cwd, dir));
  run.results.repairTail();
  const done = new Set(run.results.read().map((r) => r.key));
  const pending = manifest.specs.filter((spec) => !done.has(spec.key));
  if (flags.parallel) manifest.parallel = positiveInt('--parallel', flags.parallel, 1);
  io.stderr.write(`rig eval: resuming ${run.dir}: ${pending.length} of ${manifest.specs.length} trials to run\n`);
  // A run resumes with the runner it started with, unless --isolate asks for processes now.
  const { interrupted } = await execute(run, manifest, pending, flags, io, flags.isolate ? 'isolate' : manifest.runner ?? 'in-process');
  return interrupted ? EXIT_INTERRUPTED : 0;
}

async function replayEval(dir: string, flags: EvalFlags, io: EvalIo): Promise<number> {
  const { run: source, manifest: sourceManifest } = RunDir.open(resolve(io.cwd, dir));
  const recordedPrints = readFingerprints(source);
  const currentPrints = await takeFingerprints(sourceManifest.specs.map(fingerprintCell), io.env);
  const plan = planReplay(source, sourceManifest, recordedPrints, currentPrints);
  if (plan.specs.length === 0) throw new Error(`${source.dir} has no finished trial with a recorded rollout to replay`);
  const id = newRunId();
  const manifest: RunManifest = {
    ...sourceManifest,
    id,
    created_at: new Date().toISOString(),
    rig_version: rigVersion(),
    parallel: positiveInt('--parallel', flags.parallel, 1),
    runner: runnerKind(flags.isolate),
    replay_of: source.dir,
    specs: plan.specs,
  };
  delete manifest.queue;
  const run = RunDir.create(resolve(io.cwd, flags.out ?? join(source.dir, `replay-${id}`)), manifest);
  run.writeJson('harnesses.json', currentPrints);
  io.stderr.write(`rig eval: replaying ${plan.specs.length} trials of ${source.dir} → ${run.dir}\n`);
  const { interrupted } = await execute(run, manifest, plan.specs, flags, io, manifest.runner, { contextFor: plan.contextFor, review: plan.review });
  const diverged = run.results.read().filter((r) => (r.divergences ?? []).length > 0);
  for (const r of diverged) {
    for (const d of r.divergences!) io.stderr.write(`DIVERGED ${r.task} ${r.harness} ${r.model} #${r.trial}: ${d.kind}: ${d.message}\n`);
  }
  io.stderr.write(diverged.length ? `${diverged.length} of ${plan.specs.length} trials diverged from the recording\n` : `no divergence: all ${plan.specs.length} trials replayed as recorded\n`);
  if (interrupted) return EXIT_INTERRUPTED;
  return diverged.length ? EXIT_DIVERGED : 0;
}

export async function runEvalReport(dir: string, flags: { json?: boolean }, io: EvalIo): Promise<number> {
  const { run, manifest } = RunDir.open(resolve(io.cwd, dir));
  const { buildReport } = await import('./report/build.js');
  const summary = await buildReport(run, manifest);
  if (flags.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  else io.stderr.write(`report: ${join(run.dir, 'report.html')}\n`);
  return 0;
}
