// One trial, whichever runner runs the agent: a fresh workspace, the task's setup, the agent under
// its wall-clock and token budgets, then (with the agent stopped) the check in its own sandbox, the
// metrics from the rollout, and the workspace removed. Every failure becomes a result.
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { emptyUsage, type ThreadEvent, type TokenUsage } from '../protocol/index.js';
import { DEFAULT_CHECK_TIMEOUT_MS, runCheck, runSetup, type CheckOutcome } from './check/run-check.js';
import type { TrialSpec } from './matrix.js';
import { costUsd, type PriceTable } from './prices.js';
import type { AgentEnd, TokenCounts, TrialResult } from './results.js';
import { rolloutMetrics, type RolloutMetrics } from './rollout-metrics.js';
import type { AgentOutcome, RunnerKind, TrialRunner } from './runner/types.js';
import { createWorkspace, removeWorkspace, workspaceDiff, type Workspace } from './workspace.js';

export interface TrialContext {
  runId: string;
  runner: TrialRunner;
  /** Temp folder holding this run's workspaces: <workRoot>/<key>/ws. */
  workRoot: string;
  env: NodeJS.ProcessEnv;
  prices: PriceTable;
  /** Serve the agent the model responses recorded in this rollout. */
  replayFile?: string;
  /** Put the workspace exactly here (a replay recreates the recorded path). */
  workspacePath?: string;
  keepWorkspace?: boolean;
  worker?: string;
  onEvent?: (event: ThreadEvent) => void;
  /** Aborting stops the agent at once (the run was interrupted); the caller discards the result. */
  signal?: AbortSignal;
}

export interface TrialArtifacts {
  rollout?: string;
  patch?: string;
}

export interface TrialRun {
  result: TrialResult;
  /** The rollout's text and the agent's diff, for the run folder (sent back by a worker). */
  artifacts: TrialArtifacts;
}

function tokenCounts(usage: TokenUsage): TokenCounts {
  return { input: usage.input_tokens, cached_input: usage.cached_input_tokens, output: usage.output_tokens, reasoning: usage.reasoning_output_tokens };
}

function agentEnd(outcome: AgentOutcome | undefined, abortReason: string | undefined): AgentEnd {
  if (!outcome) return 'not_started';
  if (outcome.status === 'interrupted' && (abortReason === 'timeout' || abortReason === 'budget')) return abortReason;
  return outcome.status;
}

export async function runTrial(spec: TrialSpec, context: TrialContext): Promise<TrialRun> {
  const startedAt = new Date();
  const t0 = performance.now();
  const trialRoot = join(context.workRoot, spec.key);
  const workspacePath = context.workspacePath ?? join(trialRoot, 'ws');
  const scratch = join(trialRoot, 'scratch');
  const timing = { total_ms: 0, setup_ms: 0, agent_ms: 0, model_ms: 0, tool_ms: 0, harness_overhead_ms: 0, check_ms: 0, cleanup_ms: 0 };
  const artifacts: TrialArtifacts = {};
  let workspace: Workspace | undefined;
  let outcome: AgentOutcome | undefined;
  let check: CheckOutcome | undefined;
  let metrics: RolloutMetrics | undefined;
  let observedUsage: TokenUsage = emptyUsage();
  let failedCommands = 0;
  let failedEdits = 0;
  let error: string | undefined;
  let abortReason: string | undefined;

  try {
    workspace = await createWorkspace(spec.task, workspacePath, join(context.workRoot, '_base'));
    mkdirSync(scratch, { recursive: true });
    const agentTmp = join(trialRoot, 'tmp');
    mkdirSync(agentTmp, { recursive: true });
    const setup = await runSetup(spec.task, workspace.dir, spec.settings.checkTimeoutMs);
    timing.setup_ms = performance.now() - t0;
    if (setup && setup.exitCode !== 0) throw new Error(`the task's setup command ${setup.timedOut ? 'timed out' : `exited ${setup.exitCode}`}:\n${setup.output.slice(-1500)}`);

    const controller = new AbortController();
    const timeoutMs = spec.task.agentTimeoutMs ?? spec.settings.timeoutMs;
    const maxTokens = spec.task.maxTokens ?? spec.settings.maxTokens;
    const abort = (reason: string) => {
      if (controller.signal.aborted) return;
      abortReason = reason;
      controller.abort(reason);
    };
    const timer = setTimeout(() => abort('timeout'), timeoutMs);
    const onOuterAbort = () => abort('interrupted');
    if (context.signal?.aborted) onOuterAbort();
    context.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const agentStart = performance.now();
    try {
      outcome = await context.runner.run(
        {
          workspace: workspace.dir,
          prompt: spec.task.prompt,
          harness: spec.harness,
          model: spec.model,
          provider: spec.settings.provider,
          config: spec.settings.config,
          ...(spec.settings.profile ? { profile: spec.settings.profile } : {}),
          ...(spec.settings.maxSteps !== undefined ? { maxSteps: spec.settings.maxSteps } : {}),
          ...(context.replayFile ? { replayFile: context.replayFile } : {}),
          // The agent's temp files stay in the trial (its sandbox can write there, not in /tmp).
          env: { ...context.env, TMPDIR: agentTmp },
        },
        {
          event(event) {
            if (event.type === 'item.completed' && event.item.type === 'command_execution' && event.item.exit_code !== 0) failedCommands += 1;
            if (event.type === 'item.completed' && event.item.type === 'file_change' && event.item.status === 'failed') failedEdits += 1;
            context.onEvent?.(event);
          },
          usage(total) {
            observedUsage = total;
            if (maxTokens !== undefined && total.input_tokens + total.output_tokens > maxTokens) abort('budget');
          },
        },
        controller.signal,
      );
    } finally {
      clearTimeout(timer);
      context.signal?.removeEventListener('abort', onOuterAbort);
    }
    timing.agent_ms = performance.now() - agentStart;
    if (!outcome.threadId) throw new Error(`the agent did not start: ${outcome.error ?? 'no thread'}`);

    if (outcome.rolloutPath && existsSync(outcome.rolloutPath)) {
      const text = readFileSync(outcome.rolloutPath, 'utf8');
      metrics = rolloutMetrics(text);
      artifacts.rollout = text;
    }
    artifacts.patch = await workspaceDiff(workspace);

    const checkStart = performance.now();
    check = await runCheck(spec.task, {
      workspace: workspace.dir,
      baseCommit: workspace.baseCommit,
      scratch,
      timeoutMs: spec.task.checkTimeoutMs ?? spec.settings.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
    });
    timing.check_ms = performance.now() - checkStart;
    if (check.error) error = `check: ${check.error}`;
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  } finally {
    const cleanupStart = performance.now();
    if (workspace && !context.keepWorkspace) await removeWorkspace(workspace).catch(() => undefined);
    if (!context.keepWorkspace) rmSync(trialRoot, { recursive: true, force: true });
    // A replay recreates the recorded path: leave none of its (now empty) parent folders behind.
    if (context.workspacePath && !context.keepWorkspace) removeEmptyParents(dirname(context.workspacePath), 2);
    timing.cleanup_ms = performance.now() - cleanupStart;
  }

  const usage = outcome?.usage ?? (metrics && metrics.steps > 0 ? metrics.usage : observedUsage);
  const tokens = tokenCounts(usage);
  timing.total_ms = performance.now() - t0;
  timing.model_ms = metrics?.modelMs ?? 0;
  timing.tool_ms = metrics?.toolMs ?? 0;
  timing.harness_overhead_ms = Math.max(0, timing.agent_ms - timing.model_ms - timing.tool_ms);
  for (const key of Object.keys(timing) as (keyof typeof timing)[]) timing[key] = Math.round(timing[key]);

  const pass = !error && Boolean(check?.pass);
  const result: TrialResult = {
    v: 1,
    key: spec.key,
    run_id: context.runId,
    task: spec.task.id,
    format: spec.task.format,
    harness: spec.harness,
    model: spec.model,
    provider: spec.settings.provider,
    trial: spec.trial,
    status: error ? 'error' : pass ? 'passed' : 'failed',
    reward: error ? 0 : (check?.reward ?? 0),
    pass,
    agent: { end: agentEnd(outcome, abortReason), ...(outcome?.error ? { error: outcome.error.slice(0, 2000) } : {}) },
    steps: metrics?.steps ?? 0,
    tool_calls: metrics?.toolCalls ?? 0,
    tool_errors: metrics ? metrics.toolErrors : failedEdits,
    failed_commands: failedCommands,
    tokens,
    cost_usd: costUsd(context.prices, spec.model, tokens),
    timing,
    check: {
      exit_code: check?.exitCode ?? null,
      timedOut: check?.timedOut ?? false,
      output: (check?.output ?? '').slice(-2000),
      ...(check?.error ? { error: check.error } : {}),
      ...(check?.details ? { details: check.details } : {}),
    },
    rollout: outcome?.rolloutPath ?? null,
    thread_id: outcome?.threadId ?? null,
    workspace: workspacePath,
    runner: context.runner.name,
    worker: context.worker ?? `${hostname()}:${process.pid}`,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    ...(error ? { error: error.slice(0, 4000) } : {}),
  };
  return { result, artifacts };
}

/** The result of a trial that never ran (its queue job failed): an error, scored as nothing. */
export function errorResult(spec: TrialSpec, runId: string, message: string, runner: RunnerKind): TrialResult {
  const now = new Date().toISOString();
  return {
    v: 1,
    key: spec.key,
    run_id: runId,
    task: spec.task.id,
    format: spec.task.format,
    harness: spec.harness,
    model: spec.model,
    provider: spec.settings.provider,
    trial: spec.trial,
    status: 'error',
    reward: 0,
    pass: false,
    agent: { end: 'not_started' },
    steps: 0,
    tool_calls: 0,
    tool_errors: 0,
    failed_commands: 0,
    tokens: { input: 0, cached_input: 0, output: 0, reasoning: 0 },
    cost_usd: null,
    timing: { total_ms: 0, setup_ms: 0, agent_ms: 0, model_ms: 0, tool_ms: 0, harness_overhead_ms: 0, check_ms: 0, cleanup_ms: 0 },
    check: { exit_code: null, timedOut: false, output: '' },
    rollout: null,
    thread_id: null,
    workspace: '',
    runner,
    worker: '',
    started_at: now,
    finished_at: now,
    error: message,
  };
}

function removeEmptyParents(dir: string, levels: number): void {
  for (let i = 0; i < levels; i++, dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}
