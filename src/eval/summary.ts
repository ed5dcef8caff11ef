// summary.json: the run's results reduced to what a reader compares. Per harness x model: pass
// rate with its 95% Wilson interval, tokens and cost per solved task, wall time. Per model and pair
// of harnesses: the paired comparison on the (task, trial) pairs both ran, which tasks flip, and
// McNemar's exact p-value. Trials that errored (the infrastructure, not the agent) are counted but
// left out of pass rates.
import type { TrialResult } from './results.js';
import { mcnemarExact, median, quantile, wilsonInterval } from './stats.js';

export interface CellSummary {
  harness: string;
  model: string;
  trials: number;
  /** Trials that ran and were scored (trials minus errors). */
  scored: number;
  passed: number;
  errors: number;
  pass_rate: number;
  ci95: [number, number];
  mean_reward: number;
  tokens: { input: number; cached_input: number; output: number; reasoning: number };
  tokens_per_solved: number | null;
  cost_usd: number | null;
  cost_per_solved_usd: number | null;
  steps_mean: number;
  tool_errors: number;
  wall_ms: { median: number; p90: number; mean: number; total: number };
  harness_overhead_ms_median: number;
  agent_ends: Record<string, number>;
}

export interface Comparison {
  model: string;
  a: string;
  b: string;
  pairs: number;
  both_pass: number;
  a_only: number;
  b_only: number;
  neither: number;
  /** Tasks where A passed and B failed in at least one paired trial, and the other way round. */
  flips: { a_only: string[]; b_only: string[] };
  p_value: number;
  test: 'mcnemar-exact';
}

export interface TaskRow {
  task: string;
  /** `${harness} | ${model}` -> passed / scored. */
  cells: Record<string, { passed: number; scored: number }>;
}

export interface RunSummary {
  run_id: string;
  generated_at: string;
  trials: { planned: number; finished: number; passed: number; errors: number };
  harnesses: string[];
  models: string[];
  cells: CellSummary[];
  comparisons: Comparison[];
  tasks: TaskRow[];
  wall_ms: number;
}

export const cellKey = (harness: string, model: string): string => `${harness} | ${model}`;

function summarizeCell(harness: string, model: string, results: TrialResult[]): CellSummary {
  const scored = results.filter((r) => r.status !== 'error');
  const passed = scored.filter((r) => r.pass).length;
  const sum = (pick: (r: TrialResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const tokens = {
    input: sum((r) => r.tokens.input),
    cached_input: sum((r) => r.tokens.cached_input),
    output: sum((r) => r.tokens.output),
    reasoning: sum((r) => r.tokens.reasoning),
  };
  const costs = results.map((r) => r.cost_usd);
  const cost = costs.every((c) => c === null) ? null : costs.reduce<number>((total, c) => total + (c ?? 0), 0);
  const walls = results.map((r) => r.timing.total_ms);
  const ends: Record<string, number> = {};
  for (const r of results) ends[r.agent.end] = (ends[r.agent.end] ?? 0) + 1;
  return {
    harness,
    model,
    trials: results.length,
    scored: scored.length,
    passed,
    errors: results.length - scored.length,
    pass_rate: scored.length ? passed / scored.length : 0,
    ci95: wilsonInterval(passed, scored.length),
    mean_reward: scored.length ? scored.reduce((t, r) => t + r.reward, 0) / scored.length : 0,
    tokens,
    tokens_per_solved: passed ? (tokens.input + tokens.output) / passed : null,
    cost_usd: cost === null ? null : Math.round(cost * 1e6) / 1e6,
    cost_per_solved_usd: cost === null || !passed ? null : Math.round((cost / passed) * 1e6) / 1e6,
    steps_mean: results.length ? sum((r) => r.steps) / results.length : 0,
    tool_errors: sum((r) => r.tool_errors),
    wall_ms: { median: median(walls), p90: quantile(walls, 0.9), mean: walls.length ? sum((r) => r.timing.total_ms) / walls.length : 0, total: sum((r) => r.timing.total_ms) },
    harness_overhead_ms_median: median(results.map((r) => r.timing.harness_overhead_ms)),
    agent_ends: ends,
  };
}

function compare(model: string, a: string, b: string, results: TrialResult[]): Comparison {
  const outcome = new Map<string, boolean>();
  for (const r of results) if (r.model === model && r.status !== 'error' && (r.harness === a || r.harness === b)) outcome.set(`${r.harness}\0${r.task}\0${r.trial}`, r.pass);
  const counts = { pairs: 0, both_pass: 0, a_only: 0, b_only: 0, neither: 0 };
  const flips = { a_only: new Set<string>(), b_only: new Set<string>() };
  for (const [key, passA] of outcome) {
    const [harness, task, trial] = key.split('\0') as [string, string, string];
    if (harness !== a) continue;
    const passB = outcome.get(`${b}\0${task}\0${trial}`);
    if (passB === undefined) continue;
    counts.pairs += 1;
    if (passA && passB) counts.both_pass += 1;
    else if (passA) {
      counts.a_only += 1;
      flips.a_only.add(task);
    } else if (passB) {
      counts.b_only += 1;
      flips.b_only.add(task);
    } else counts.neither += 1;
  }
  return { model, a, b, ...counts, flips: { a_only: [...flips.a_only].sort(), b_only: [...flips.b_only].sort() }, p_value: mcnemarExact(counts.a_only, counts.b_only), test: 'mcnemar-exact' };
}

export interface SummaryInput {
  runId: string;
  planned: number;
  harnesses: string[];
  models: string[];
  wallMs: number;
}

export function summarize(input: SummaryInput, results: TrialResult[]): RunSummary {
  const harnesses = [...new Set([...input.harnesses, ...results.map((r) => r.harness)])];
  const models = [...new Set([...input.models, ...results.map((r) => r.model)])];
  const cells: CellSummary[] = [];
  for (const model of models) {
    for (const harness of harnesses) {
      const mine = results.filter((r) => r.harness === harness && r.model === model);
      if (mine.length > 0) cells.push(summarizeCell(harness, model, mine));
    }
  }
  const comparisons: Comparison[] = [];
  for (const model of models) {
    for (let i = 0; i < harnesses.length; i++) {
      for (let j = i + 1; j < harnesses.length; j++) {
        const comparison = compare(model, harnesses[i]!, harnesses[j]!, results);
        if (comparison.pairs > 0) comparisons.push(comparison);
      }
    }
  }
  const taskIds = [...new Set(results.map((r) => r.task))].sort();
  const tasks: TaskRow[] = taskIds.map((task) => {
    const row: TaskRow = { task, cells: {} };
    for (const r of results) {
      if (r.task !== task || r.status === 'error') continue;
      const cell = (row.cells[cellKey(r.harness, r.model)] ??= { passed: 0, scored: 0 });
      cell.scored += 1;
      if (r.pass) cell.passed += 1;
    }
    return row;
  });
  return {
    run_id: input.runId,
    generated_at: new Date().toISOString(),
    trials: {
      planned: input.planned,
      finished: results.length,
      passed: results.filter((r) => r.pass).length,
      errors: results.filter((r) => r.status === 'error').length,
    },
    harnesses,
    models,
    cells,
    comparisons,
    tasks,
    wall_ms: Math.round(input.wallMs),
  };
}
