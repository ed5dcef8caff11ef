// `npm run bench -- --vs codex`: the same scripted 64-step session (shell `true`, `cat` of a file,
// apply_patch edits, add-file patches) through rig (Responses wire, native harness) and through
// Codex, each against its own loopback mock in a fresh home and workspace; warm-up run each, then
// N runs interleaved, medians; every measure with rig, Codex, ratio and goal (issue 18's table).
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { removeDir } from '../test/support/workspace.js';
import { runAgentSession, type Agent, type SandboxChoice, type SessionRun } from './agent-session.js';
import { findCodex } from './codex-bin.js';
import { compareMetrics, renderCompare, type CompareRow } from './compare-table.js';
import { median, medianOf } from './measure.js';
import { privateP95Mb } from './proc-tree.js';
import type { Metric } from './report.js';
import { commandsOf, sessionScript, sessionWorkspace, STEP_KINDS, type SessionScript, type StepKind } from './scripted-session.js';
import { bareCommandMs } from './steps.js';
import { resolveSandboxPolicy } from '../src/exec/sandbox/index.js';
import type { BenchEnv } from './workspace.js';

export type BareTimes = Record<StepKind, number>;

/** The script's commands spawned bare (no agent, no sandbox); patches run in-process in both agents: 0. */
export async function bareTimes(env: BenchEnv, script: SessionScript, runs = 21, sandboxed = false): Promise<BareTimes> {
  const workspace = sessionWorkspace(script);
  // As in the sessions: the workspace writable, a RIG_HOME elsewhere (read-only for commands).
  const rigHome = mkdtempSync(join(tmpdir(), 'rig-bench-sandbox-home-'));
  try {
    const commands = commandsOf(script);
    const childEnv = env.childEnv(workspace);
    const policy = sandboxed ? resolveSandboxPolicy({ mode: 'workspace-write', cwd: workspace, env: childEnv, rigHome }) : undefined;
    return {
      shell: await bareCommandMs(commands.shell, workspace, childEnv, runs, policy),
      cat: await bareCommandMs(commands.cat, workspace, childEnv, runs, policy),
      apply_patch: 0,
      add_file: 0,
    };
  } finally {
    removeDir(workspace);
    removeDir(rigHome);
  }
}

/** Each step's gap minus the tool's own bare run time. */
export function stepOverheads(run: SessionRun, bare: BareTimes, from = 0, to = run.steps.length): number[] {
  return run.steps.slice(from, to).map((step) => step.gapMs - bare[step.kind]);
}

export interface SessionFigures {
  firstRequestMs: number;
  overheadMs: number;
  byKind: Record<StepKind, number>;
  mainPeakRssMb: number;
  privateP95Mb: number;
  wallMs: number;
  bytesSent: number;
  prefixBreaks: number;
}

function figuresOf(run: SessionRun, bare: BareTimes): SessionFigures {
  const overheads = stepOverheads(run, bare);
  const byKind = Object.fromEntries(
    STEP_KINDS.map((kind) => [kind, median(overheads.filter((_, i) => run.steps[i]!.kind === kind))]),
  ) as Record<StepKind, number>;
  return {
    firstRequestMs: run.firstRequestMs,
    overheadMs: median(overheads),
    byKind,
    mainPeakRssMb: run.memory.mainPeakRssMb,
    privateP95Mb: privateP95Mb(run.memory),
    wallMs: run.wallMs,
    bytesSent: run.bytesSent,
    prefixBreaks: run.prefixBreaks.length,
  };
}

function medianFigures(all: SessionFigures[]): SessionFigures {
  const pick = (get: (figures: SessionFigures) => number) => medianOf(all.map(get));
  return {
    firstRequestMs: pick((f) => f.firstRequestMs),
    overheadMs: pick((f) => f.overheadMs),
    byKind: Object.fromEntries(STEP_KINDS.map((kind) => [kind, pick((f) => f.byKind[kind])])) as Record<StepKind, number>,
    mainPeakRssMb: pick((f) => f.mainPeakRssMb),
    privateP95Mb: pick((f) => f.privateP95Mb),
    wallMs: pick((f) => f.wallMs),
    bytesSent: pick((f) => f.bytesSent),
    // Every break counts: one in any run is a prompt the provider cannot cache.
    prefixBreaks: all.reduce((sum, f) => sum + f.prefixBreaks, 0),
  };
}

export interface VsCodexSetup {
  rig: Agent;
  codex: Agent;
  codexVersion: string;
  cleanup(): void;
}

/** The two agents, or an error saying how to get a Codex binary. */
export function vsCodexSetup(env: BenchEnv): VsCodexSetup {
  const found = findCodex(env.repoRoot);
  if ('missing' in found) throw new Error(`--vs codex: ${found.missing}`);
  // Codex will not set up its sandbox helpers under the system temp dir, so its homes live here.
  const homeRoot = join(env.repoRoot, 'node_modules', '.cache', 'rig-bench-codex-homes');
  mkdirSync(homeRoot, { recursive: true });
  return {
    rig: { name: 'rig', command: [process.execPath, env.rigBin] },
    codex: { name: 'codex', command: [found.path], homeRoot },
    codexVersion: found.version,
    cleanup: () => removeDir(homeRoot),
  };
}

const KIND_LABEL: Record<StepKind, string> = { shell: 'shell `true`', cat: 'file read (`cat`)', apply_patch: 'apply_patch edit', add_file: 'add-file patch' };

export interface VsCodexOptions {
  runs: number;
  sandbox: SandboxChoice;
  steps?: number;
}

export async function benchVsCodex(env: BenchEnv, setup: VsCodexSetup, options: VsCodexOptions, log: (text: string) => void): Promise<Metric[]> {
  const script = sessionScript({ steps: options.steps ?? 64 });
  const bare = await bareTimes(env, script);
  // The same commands in rig's own bubblewrap invocation, spawned by the bench: the sandbox's cost.
  const inSandbox = options.sandbox === 'on' ? await bareTimes(env, script, 21, true) : undefined;
  log(`  ${setup.codexVersion}; sandbox ${options.sandbox === 'on' ? 'workspace-write (each its own)' : 'off'}; bare tool times: shell ${bare.shell.toFixed(2)} ms, cat ${bare.cat.toFixed(2)} ms`);
  const results: Record<'rig' | 'codex', SessionFigures[]> = { rig: [], codex: [] };
  const breakSamples: string[] = [];
  for (const agent of [setup.rig, setup.codex]) await runAgentSession(agent, script, options.sandbox); // warm-up
  for (let i = 0; i < options.runs; i++) {
    // Interleaved, so a burst of load on the shared machine hits both alike.
    for (const agent of [setup.rig, setup.codex]) {
      const run = await runAgentSession(agent, script, options.sandbox);
      results[agent.name].push(figuresOf(run, bare));
      if (agent.name === 'rig') breakSamples.push(...run.prefixBreaks.slice(0, 3));
      log(`  run ${i + 1} ${agent.name}: wall ${run.wallMs.toFixed(0)} ms, first request ${run.firstRequestMs.toFixed(0)} ms`);
    }
  }
  const rig = medianFigures(results.rig);
  const codex = medianFigures(results.codex);
  const rows: CompareRow[] = [
    { key: 'vs_codex.first_request_ms', label: 'start to first model request', unit: 'ms', rig: rig.firstRequestMs, codex: codex.firstRequestMs, maxRatio: 0.6 },
    { key: 'vs_codex.step_overhead_ms', label: 'harness overhead per tool step (median)', unit: 'ms', rig: rig.overheadMs, codex: codex.overheadMs, maxRatio: 0.1 },
    ...STEP_KINDS.map((kind): CompareRow => ({
      key: `vs_codex.overhead_${kind}_ms`,
      label: `  overhead, ${KIND_LABEL[kind]}`,
      unit: 'ms',
      rig: rig.byKind[kind],
      codex: codex.byKind[kind],
      maxRig: 3,
    })),
    ...(inSandbox
      ? (['shell', 'cat'] as const).map((kind): CompareRow => ({
          key: `vs_codex.overhead_${kind}_beyond_sandbox_ms`,
          label: `  overhead beyond bubblewrap's own run, ${KIND_LABEL[kind]}`,
          unit: 'ms',
          // Each step's gap minus the command run in the sandbox alone, instead of run bare.
          rig: rig.byKind[kind] + bare[kind] - inSandbox[kind],
          note: `the same command in rig's bubblewrap invocation, spawned alone: ${inSandbox[kind].toFixed(1)} ms (bare ${bare[kind].toFixed(1)} ms)`,
        }))
      : []),
    { key: 'vs_codex.main_peak_rss_mb', label: 'main process peak RSS', unit: 'MB', rig: rig.mainPeakRssMb, codex: codex.mainPeakRssMb, maxRatio: 0.5 },
    { key: 'vs_codex.private_p95_mb', label: 'private memory (RssAnon, p95 of the tree)', unit: 'MB', rig: rig.privateP95Mb, codex: codex.privateP95Mb, maxRatio: 1.2 },
    { key: 'vs_codex.wall_ms', label: 'wall time, whole session', unit: 'ms', rig: rig.wallMs, codex: codex.wallMs, maxRatio: 0.4 },
    { key: 'vs_codex.bytes_sent', label: 'bytes sent (request bodies)', unit: 'B', rig: rig.bytesSent, codex: codex.bytesSent, maxRatio: 1 },
    { key: 'vs_codex.prefix_breaks', label: 'prompt-prefix breaks (all runs)', unit: '', rig: rig.prefixBreaks, codex: codex.prefixBreaks, maxRig: 0, ...(breakSamples.length ? { note: breakSamples.join('; ') } : {}) },
  ];
  const codexLabel = setup.codexVersion.replace(/^codex-cli /, 'Codex ');
  process.stdout.write(`\n${renderCompare(`rig vs ${codexLabel}: ${script.steps}-step session, median of ${options.runs} warm runs each`, rows, codexLabel)}\n`);
  process.stdout.write(
    'step overhead = mock wrote response k -> request k+1 fully arrived, minus the command run bare by the bench ' +
      `(shell ${bare.shell.toFixed(1)} ms, cat ${bare.cat.toFixed(1)} ms; patches 0: in-process in both)${options.sandbox === 'on' ? '; sandbox set-up counts as overhead' : ''}\n`,
  );
  return compareMetrics(rows);
}
