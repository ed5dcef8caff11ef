// The soak: one long session (320 steps by default), every command printing ~1 KB so the
// conversation grows by ~1 KB a step, and what rig costs at its start and at its end: private
// memory, per-step overhead, and how fast memory grows against the history itself (issue 18
// item 3: flat per step; private memory <= 1.2x Codex's, main-process peak RSS <= 0.5x). With
// `--vs codex` Codex runs the same session; without it, Codex's soak figures from the issue are
// the reference.
import { runAgentSession, WIRE_TITLES, type SandboxChoice, type SessionRun, type SessionWire } from './agent-session.js';
import { compareMetrics, renderCompare, type CompareRow } from './compare-table.js';
import { median } from './measure.js';
import { privateBetweenMb, privateP95Mb } from './proc-tree.js';
import type { Metric } from './report.js';
import { sessionScript } from './scripted-session.js';
import { bareTimes, stepOverheads, type BareTimes, type VsCodexSetup } from './vs-codex.js';
import type { BenchEnv } from './workspace.js';

/** Codex 0.169 on the issue's 300-step soak (issue 18), when Codex is not run here. */
const ISSUE_CODEX = { mainPeakRssMb: 149, privateMb: 26 };
const WINDOW = 32;

interface SoakFigures {
  privateStartMb: number;
  privateEndMb: number;
  growthKbPerStep: number;
  historyKbPerStep: number;
  overheadStartMs: number;
  overheadEndMs: number;
  mainPeakRssMb: number;
  privateP95Mb: number;
  wallMs: number;
  prefixBreaks: string[];
}

function soakFigures(run: SessionRun, bare: BareTimes): SoakFigures {
  const steps = run.steps.length;
  // Step 1 is left out of the start window: the first command of a session pays for lazy set-up.
  const start = { from: 1, to: 1 + WINDOW };
  const end = { from: steps - WINDOW, to: steps };
  const privateStartMb = privateBetweenMb(run.memory, run.arrivals[start.from]!, run.arrivals[start.to]!);
  const privateEndMb = privateBetweenMb(run.memory, run.arrivals[end.from]!, run.arrivals[end.to]!);
  // Window midpoints, in steps; the history grows by what the request bodies grow.
  const stepsBetween = (end.from + end.to - start.from - start.to) / 2;
  const historyGrowth = median(run.requestBytes.slice(end.from, end.to)) - median(run.requestBytes.slice(start.from, start.to));
  return {
    privateStartMb,
    privateEndMb,
    growthKbPerStep: ((privateEndMb - privateStartMb) * 1024) / stepsBetween,
    historyKbPerStep: historyGrowth / 1024 / stepsBetween,
    overheadStartMs: median(stepOverheads(run, bare, start.from, start.to)),
    overheadEndMs: median(stepOverheads(run, bare, end.from, end.to)),
    mainPeakRssMb: run.memory.mainPeakRssMb,
    privateP95Mb: privateP95Mb(run.memory),
    wallMs: run.wallMs,
    prefixBreaks: run.prefixBreaks,
  };
}

export interface SoakOptions {
  steps: number;
  sandbox: SandboxChoice;
  /** The wire rig speaks (Codex always speaks Responses). Rows of another wire than Responses get keys of their own. */
  wire: SessionWire;
  /** Codex runs the same soak when given (`--vs codex`). */
  codex?: VsCodexSetup;
}

export async function benchSoak(env: BenchEnv, options: SoakOptions, log: (text: string) => void): Promise<Metric[]> {
  if (options.steps < 2 * WINDOW + 2) throw new Error(`--soak-steps must be at least ${2 * WINDOW + 2} (two windows of ${WINDOW} steps)`);
  const script = sessionScript({ steps: options.steps, rotation: ['shell', 'cat', 'shell', 'apply_patch'], outputBytes: 1024 });
  const warmUp = sessionScript({ steps: 4, outputBytes: 1024 });
  const bare = await bareTimes(env, script);
  const rigAgent = { name: 'rig' as const, command: [process.execPath, env.rigBin], wire: options.wire };
  await runAgentSession(rigAgent, warmUp, options.sandbox);
  const rigRun = await runAgentSession(rigAgent, script, options.sandbox);
  const rig = soakFigures(rigRun, bare);
  log(`  rig (${options.wire}): ${options.steps} steps in ${rig.wallMs.toFixed(0)} ms, history ${(rigRun.historyBytes / 1024).toFixed(0)} KB at the end`);
  let codex: SoakFigures | undefined;
  if (options.codex) {
    await runAgentSession(options.codex.codex, warmUp, options.sandbox);
    const codexRun = await runAgentSession(options.codex.codex, script, options.sandbox);
    codex = soakFigures(codexRun, bare);
    log(`  codex: ${options.steps} steps in ${codex.wallMs.toFixed(0)} ms, history ${(codexRun.historyBytes / 1024).toFixed(0)} KB at the end`);
  }
  const fromIssue = codex ? undefined : 'Codex: issue 18 figure (run with --vs codex to measure)';
  const rows: CompareRow[] = [
    { key: 'soak.private_start_mb', label: `private memory at the start (steps 2-${1 + WINDOW})`, unit: 'MB', rig: rig.privateStartMb, ...(codex ? { codex: codex.privateStartMb } : {}) },
    {
      key: 'soak.private_end_mb',
      label: `private memory at the end (last ${WINDOW} steps)`,
      unit: 'MB',
      rig: rig.privateEndMb,
      ...(codex ? { codex: codex.privateEndMb } : {}),
      maxRatio: 1.2,
    },
    {
      key: 'soak.private_growth_kb_per_step',
      label: 'private memory growth per step',
      unit: 'kB',
      rig: rig.growthKbPerStep,
      ...(codex ? { codex: codex.growthKbPerStep } : {}),
      note: `history grows ${rig.historyKbPerStep.toFixed(2)} kB/step${codex ? ` (Codex ${codex.historyKbPerStep.toFixed(2)})` : ''}`,
    },
    {
      key: 'soak.growth_per_history',
      label: 'memory growth / history growth',
      unit: 'x',
      rig: rig.growthKbPerStep / rig.historyKbPerStep,
      ...(codex ? { codex: codex.growthKbPerStep / codex.historyKbPerStep } : {}),
      maxRig: 1,
      note: 'flat: memory does not grow faster than the conversation',
    },
    { key: 'soak.overhead_start_ms', label: `per-step overhead at the start (median, steps 2-${1 + WINDOW})`, unit: 'ms', rig: rig.overheadStartMs, ...(codex ? { codex: codex.overheadStartMs } : {}) },
    { key: 'soak.overhead_end_ms', label: `per-step overhead at the end (median, last ${WINDOW})`, unit: 'ms', rig: rig.overheadEndMs, ...(codex ? { codex: codex.overheadEndMs } : {}) },
    {
      key: 'soak.overhead_end_over_start',
      label: 'per-step overhead, end / start',
      unit: 'x',
      rig: rig.overheadEndMs / rig.overheadStartMs,
      ...(codex ? { codex: codex.overheadEndMs / codex.overheadStartMs } : {}),
      maxRig: 1.2,
      note: 'flat per step',
    },
    {
      key: 'soak.main_peak_rss_mb',
      label: 'main process peak RSS',
      unit: 'MB',
      rig: rig.mainPeakRssMb,
      codex: codex?.mainPeakRssMb ?? ISSUE_CODEX.mainPeakRssMb,
      maxRatio: 0.5,
      ...(fromIssue ? { note: fromIssue } : {}),
    },
    {
      key: 'soak.private_p95_mb',
      label: 'private memory (RssAnon, p95 of the tree)',
      unit: 'MB',
      rig: rig.privateP95Mb,
      codex: codex?.privateP95Mb ?? ISSUE_CODEX.privateMb,
      maxRatio: 1.2,
      ...(fromIssue ? { note: fromIssue } : {}),
    },
    { key: 'soak.wall_ms', label: 'wall time, whole session', unit: 'ms', rig: rig.wallMs, ...(codex ? { codex: codex.wallMs } : {}) },
    {
      key: 'soak.prefix_breaks',
      label: 'prompt-prefix breaks',
      unit: '',
      rig: rig.prefixBreaks.length,
      ...(codex ? { codex: codex.prefixBreaks.length } : {}),
      maxRig: 0,
      ...(rig.prefixBreaks.length ? { note: rig.prefixBreaks.slice(0, 3).join('; ') } : {}),
    },
  ];
  // A run over Chat Completions is compared with earlier runs over it, not with Responses runs.
  if (options.wire !== 'responses') for (const row of rows) row.key = row.key.replace(/^soak\./, `soak.${options.wire}.`);
  const codexLabel = options.codex ? options.codex.codexVersion.replace(/^codex-cli /, 'Codex ') : 'Codex (issue)';
  const title = `soak: ${options.steps}-step session, each command printing ~1 KB, rig over ${WIRE_TITLES[options.wire]} (one run each)`;
  process.stdout.write(`\n${renderCompare(title, rows, codexLabel)}\n`);
  return compareMetrics(rows);
}
