// Harness overhead per tool round-trip: a 20-step `rig exec` session against the mock versus a
// 1-step one, (T20 - T1) / 19, minus what the tool itself costs. Also the session's peak RSS and
// the bytes it leaves on disk per conversation item. Commands run with danger-full-access so the
// sandbox (benched separately) is not counted here, except in the sandboxed `true` sessions: the
// same commands back to back under workspace-write, each in a sandbox started ahead of it, with the
// mock answering at once and with it taking THINK_MS per answer as a model would (a sandbox for
// the next command is started while rig waits on the model: with no wait, the start shows).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { detectUserShell, buildShellArgv } from '../src/exec/shell.js';
import { UNIFIED_EXEC_ENV } from '../src/exec/unified-exec.js';
import { defaultBackend, wrapCommand, type SandboxPolicy } from '../src/exec/sandbox/index.js';
import { startMockProvider, type MockProvider, type MockTurn } from '../test/support/mock-provider/index.js';
import { assertExit, median, medianOf, repeat, timeProcess, type ProcessRun } from './measure.js';
import type { Metric } from './report.js';
import type { BenchEnv } from './workspace.js';

export type StepTool = 'update_plan' | 'exec_true' | 'exec_true_sandboxed' | 'exec_true_sandboxed_think';

/** The mock's time to first token in the `_think` session: short beside a real model's. */
const THINK_MS = 20;
const thinkMs = (tool: StepTool): number => (tool === 'exec_true_sandboxed_think' ? THINK_MS : 0);
/** What each of the session's model answers waits, as a MockTurn field. */
const thinking = (tool: StepTool): Pick<MockTurn, 'delayMs'> => (thinkMs(tool) ? { delayMs: thinkMs(tool) } : {});
const sandboxed = (tool: StepTool): boolean => tool === 'exec_true_sandboxed' || tool === 'exec_true_sandboxed_think';

function toolTurn(tool: StepTool, step: number): MockTurn {
  if (tool === 'update_plan') {
    return { toolCalls: [{ name: 'update_plan', arguments: { plan: [{ step: `step ${step}`, status: 'in_progress' }] } }] };
  }
  return { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'true' } }], ...thinking(tool) };
}

interface SessionRun extends ProcessRun {
  home: string;
}

async function runSession(env: BenchEnv, mock: MockProvider, steps: number, tool: StepTool): Promise<SessionRun> {
  const home = env.mockHome(mock.url);
  const before = mock.requests.length;
  mock.enqueue(...Array.from({ length: steps }, (_, i) => toolTurn(tool, i + 1)), { text: 'done', ...thinking(tool) });
  const run = await timeProcess(
    [process.execPath, env.rigBin, 'exec', '--sandbox', sandboxed(tool) ? 'workspace-write' : 'danger-full-access', '--color', 'never', `take ${steps} steps`],
    { cwd: env.repo, env: env.childEnv(home) },
  );
  assertExit(run, `rig exec (${steps}-step ${tool} session)`);
  const served = mock.requests.length - before;
  if (served !== steps + 1 || mock.remaining() !== 0) {
    throw new Error(`the ${steps}-step ${tool} session made ${served} model requests, expected ${steps + 1}\n${run.stderr.slice(-2000)}`);
  }
  return { ...run, home };
}

/**
 * What a command costs without an agent: the shell rig would use running it, spawned from Node
 * (median of runs), with the variables exec_command gives every command (Codex gives the same
 * set). They are the command's own cost: with LC_ALL=C.UTF-8 bash loads locale data at start,
 * ~0.3-0.9 ms here, which any agent that sets them pays and no harness can save.
 */
/**
 * The command run as rig's shell tool runs it, spawned directly by the bench. With `sandbox`, inside
 * rig's own bubblewrap invocation for that policy (the seccomp filter at fd 3, as rig's piped
 * commands get it): the sandbox's own cost, without rig around it.
 */
export async function bareCommandMs(command: string, cwd: string, env: NodeJS.ProcessEnv, runs: number, sandbox?: SandboxPolicy): Promise<number> {
  const shell = detectUserShell(env);
  const argv = buildShellArgv(shell, command, false);
  const times = await repeat(runs, () => new Promise<number>((resolve, reject) => {
    const startedAt = performance.now();
    const wrapped = sandbox ? wrapCommand(sandbox, argv, cwd, process.platform, defaultBackend(), { descriptors: true }) : undefined;
    const run = wrapped?.argv ?? argv;
    const descriptors = wrapped?.descriptors ?? [];
    const child = spawn(run[0]!, run.slice(1), { cwd, env: { ...env, ...UNIFIED_EXEC_ENV, ...wrapped?.env }, stdio: ['ignore', 'ignore', 'ignore', ...descriptors] });
    child.on('error', reject);
    child.on('close', () => {
      wrapped?.cleanup();
      resolve(performance.now() - startedAt);
    });
  }));
  return median(times);
}

/** What the tool costs without rig: the shell rig would use running `true`. */
async function bareToolMs(tool: StepTool, runs: number, env: BenchEnv): Promise<number> {
  if (tool === 'update_plan') return 0;
  return bareCommandMs('true', env.repo, env.childEnv(env.repo), runs * 2);
}

function filesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...filesUnder(path));
    else files.push(path);
  }
  return files;
}

/** Rollout bytes per conversation item, and everything the session wrote under RIG_HOME per item. */
function diskPerItem(home: string): { rolloutBytesPerItem: number; homeBytesPerItem: number; items: number } {
  const files = filesUnder(home).filter((file) => !file.endsWith('config.toml'));
  const rollouts = files.filter((file) => file.endsWith('.jsonl'));
  if (rollouts.length !== 1) throw new Error(`expected one rollout under ${home}, found ${rollouts.length}`);
  const text = readFileSync(rollouts[0]!, 'utf8');
  const items = text.split('\n').filter((line) => line.includes('"type":"response_item"')).length;
  const homeBytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  return { rolloutBytesPerItem: Buffer.byteLength(text) / items, homeBytesPerItem: homeBytes / items, items };
}

export async function benchSteps(env: BenchEnv, runs: number, steps = 20): Promise<Metric[]> {
  const mock = await startMockProvider();
  const metrics: Metric[] = [];
  const oneStep: Partial<Record<StepTool, number>> = {};
  try {
    for (const tool of ['update_plan', 'exec_true', 'exec_true_sandboxed', 'exec_true_sandboxed_think'] as const) {
      await runSession(env, mock, 1, tool); // warm-up
      const short: SessionRun[] = [];
      const long: SessionRun[] = [];
      // Interleaved, so a burst of load on the machine hits both sides alike.
      for (let i = 0; i < runs; i++) {
        short.push(await runSession(env, mock, 1, tool));
        long.push(await runSession(env, mock, steps, tool));
      }
      const t1 = medianOf(short.map((run) => run.wallMs));
      const tn = medianOf(long.map((run) => run.wallMs));
      const toolMs = await bareToolMs(tool, runs, env);
      oneStep[tool] = t1 - toolMs;
      const perStep = (tn - t1) / (steps - 1) - toolMs - thinkMs(tool);
      const note = `T1 ${t1.toFixed(0)} ms, T${steps} ${tn.toFixed(0)} ms${toolMs ? `, tool alone ${toolMs.toFixed(1)} ms` : ''}`;
      if (sandboxed(tool)) {
        // The sandbox's cost is in it: see the sandbox section for bubblewrap's own.
        const think = thinkMs(tool);
        metrics.push({
          key: `steps.${tool}.overhead_ms`,
          label: `overhead per tool step, exec_command \`true\` sandboxed, back to back, ${think ? `model answering in ${think} ms` : 'instant model'}`,
          value: perStep,
          unit: 'ms',
          note: `${note}${think ? `, minus ${think} ms a step of the model's` : ''}; workspace-write`,
        });
        continue;
      }
      const what = tool === 'update_plan' ? 'update_plan (no process)' : 'exec_command `true`';
      metrics.push({
        key: `steps.${tool}.overhead_ms`,
        label: `overhead per tool step, ${what}`,
        value: perStep,
        unit: 'ms',
        target: 5,
        reference: 'Codex ~63 ms; pi ~13 ms',
        note,
      });
      if (tool === 'update_plan') {
        metrics.push({ key: `steps.session${steps}.wall_ms`, label: `${steps}-step session wall time`, value: tn, unit: 'ms' });
        metrics.push({ key: `steps.session${steps}.peak_rss_mb`, label: `${steps}-step session peak RSS`, value: medianOf(long.map((run) => run.peakRssMb)), unit: 'MB', target: 80 });
        const disk = diskPerItem(long[long.length - 1]!.home);
        metrics.push({ key: 'disk.rollout_bytes_per_item', label: 'rollout bytes per item', value: disk.rolloutBytesPerItem, unit: 'B', note: `${disk.items} items in the ${steps}-step session` });
        metrics.push({ key: 'disk.home_bytes_per_item', label: 'bytes under RIG_HOME per item', value: disk.homeBytesPerItem, unit: 'B', note: 'rollout + thread index' });
      } else {
        metrics.push({ key: `steps.session${steps}_exec.peak_rss_mb`, label: `${steps}-step exec_command session peak RSS`, value: medianOf(long.map((run) => run.peakRssMb)), unit: 'MB', target: 80 });
      }
    }
    // The first command of a session costs more than the later ones (lazy loads on first use).
    metrics.push({
      key: 'steps.first_exec_extra_ms',
      label: 'first exec_command of a session, extra',
      value: oneStep.exec_true! - oneStep.update_plan!,
      unit: 'ms',
      note: '1-step exec session - 1-step update_plan session - the tool alone',
    });
  } finally {
    await mock.close();
  }
  return metrics;
}
