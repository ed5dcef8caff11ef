// `rig eval` figures, for both runners (engine threads in the eval process, the default; a `rig
// exec` child per trial with --isolate):
// - what a trial costs beyond the agent's own work: the whole trial (workspace, the agent's thread
//   or process, its rollout, the check in its sandbox, cleanup) with the instant mock, less the
//   time the model took to answer; also the runner-free part alone (an agent that returns at once);
// - trials per minute of the real CLI against the instant mock for --parallel 1, 2 and 4.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyUsage } from '../src/protocol/index.js';
import type { AgentSettings, TrialSpec } from '../src/eval/matrix.js';
import { InProcessRunner } from '../src/eval/runner/in-process.js';
import { IsolateRunner } from '../src/eval/runner/isolate.js';
import type { RunnerKind, TrialRunner } from '../src/eval/runner/types.js';
import type { EvalTask } from '../src/eval/tasks/types.js';
import { runTrial } from '../src/eval/trial.js';
import { startMockProvider } from '../test/support/mock-provider/index.js';
import { removeDir, tempDir, tempGitRepo } from '../test/support/workspace.js';
import { median, timeProcess } from './measure.js';
import type { Metric } from './report.js';
import type { BenchEnv } from './workspace.js';

const OVERHEAD_TARGET_MS = 150;
const RUNNERS: readonly RunnerKind[] = ['in-process', 'isolate'];

/** The agent takes no time: what is left of a trial is the workspace, the check and cleanup. */
const instantAgent: TrialRunner = {
  name: 'in-process',
  async run() {
    return { status: 'completed', threadId: '00000000-0000-7000-8000-000000000000', usage: emptyUsage(), durationMs: 0 };
  },
};

const SETTINGS: AgentSettings = { provider: 'mock', config: [], timeoutMs: 60_000, checkTimeoutMs: 60_000 };

function smallProject(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'src', `m${i}.js`), `export const v${i} = ${i};\n`.repeat(20));
  writeFileSync(join(dir, 'package.json'), '{ "name": "bench", "type": "module" }\n');
}

function committedProject(): string {
  const dir = tempGitRepo({});
  smallProject(dir);
  execFileSync('git', ['-C', dir, '-c', 'user.name=b', '-c', 'user.email=b@b', 'add', '-A']);
  execFileSync('git', ['-C', dir, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'files']);
  return dir;
}

const task = (repo: string): EvalTask => ({ id: 'bench', format: 'rig', source: { file: 'bench' }, prompt: 'say done', repo, check: { kind: 'command', command: 'true' } });

interface Sample {
  overhead: number;
  setup: number;
  agent: number;
  model: number;
  check: number;
  cleanup: number;
}

/** Trials in a row (the first, which also pays one-time costs such as the sandbox probe, not counted). */
async function trials(runs: number, root: string, taskOf: () => EvalTask, runner: TrialRunner, env: NodeJS.ProcessEnv): Promise<Sample> {
  const samples: Sample[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const spec: TrialSpec = { key: `tbench${runner.name}${i}`, task: taskOf(), harness: 'native', model: 'mock-model', trial: i, settings: SETTINGS };
    const { result } = await runTrial(spec, { runId: 'bench', runner, workRoot: root, env, prices: {} });
    if (result.status !== 'passed') throw new Error(`bench trial (${runner.name}) did not pass: ${result.error ?? result.agent.error ?? result.check.output}`);
    const t = result.timing;
    if (i > 0) samples.push({ overhead: t.total_ms - t.model_ms - t.tool_ms, setup: t.setup_ms, agent: t.agent_ms, model: t.model_ms, check: t.check_ms, cleanup: t.cleanup_ms });
  }
  const pick = (key: keyof Sample) => median(samples.map((s) => s[key]));
  return { overhead: pick('overhead'), setup: pick('setup'), agent: pick('agent'), model: pick('model'), check: pick('check'), cleanup: pick('cleanup') };
}

async function runnerOverhead(env: BenchEnv, kind: RunnerKind, runs: number, root: string, repo: string): Promise<Sample> {
  const mock = await startMockProvider();
  try {
    mock.enqueue(...Array.from({ length: runs + 2 }, () => ({ text: 'done' })));
    const home = env.mockHome(mock.url);
    const runner = kind === 'isolate' ? new IsolateRunner({ rigBin: env.rigBin }) : new InProcessRunner();
    return await trials(runs, root, () => task(repo), runner, env.childEnv(home));
  } finally {
    await mock.close();
  }
}

async function trialsPerMinute(env: BenchEnv, runner: RunnerKind, parallel: number, count: number): Promise<number> {
  const mock = await startMockProvider();
  const dir = tempDir('bench-eval');
  try {
    mock.enqueue(...Array.from({ length: count + 4 }, () => ({ text: 'done' })));
    const home = env.mockHome(mock.url);
    mkdirSync(join(dir, 'repo'));
    smallProject(join(dir, 'repo'));
    const tasks = Array.from({ length: count }, (_, i) => JSON.stringify({ id: `t${i}`, repo: 'repo', prompt: `say done ${i}`, check: 'true' }));
    writeFileSync(join(dir, 'tasks.jsonl'), `${tasks.join('\n')}\n`);
    const out = join(dir, 'run');
    const flags = runner === 'isolate' ? ['--isolate'] : [];
    const run = await timeProcess([process.execPath, env.rigBin, 'eval', join(dir, 'tasks.jsonl'), '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--parallel', String(parallel), '--out', out, ...flags], { cwd: dir, env: env.childEnv(home) });
    if (run.code !== 0) throw new Error(`rig eval --parallel ${parallel} (${runner}) failed:\n${run.stderr.slice(-2000)}`);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { started_at: string; finished_at: string; status: string });
    if (results.length !== count || results.some((r) => r.status !== 'passed')) throw new Error(`rig eval --parallel ${parallel} (${runner}): ${results.length} results, not ${count} passing ones`);
    const start = Math.min(...results.map((r) => Date.parse(r.started_at)));
    const end = Math.max(...results.map((r) => Date.parse(r.finished_at)));
    return (count / (end - start)) * 60_000;
  } finally {
    await mock.close();
    removeDir(dir);
  }
}

export async function benchEval(env: BenchEnv, runs: number): Promise<Metric[]> {
  const root = tempDir('bench-trials');
  const copySource = tempDir('bench-copy');
  const gitSource = committedProject();
  try {
    smallProject(copySource);
    const copy = await trials(runs, root, () => task(copySource), instantAgent, process.env);
    const worktree = await trials(runs, root, () => task(gitSource), instantAgent, process.env);
    const metrics: Metric[] = [
      { key: 'eval.overhead.copy_ms', label: 'eval: per-trial cost outside the agent (plain folder: worktree of a copy made once; check; cleanup)', value: copy.overhead, unit: 'ms', target: OVERHEAD_TARGET_MS, note: `workspace ${copy.setup} ms, check ${copy.check} ms, cleanup ${copy.cleanup} ms` },
      { key: 'eval.overhead.worktree_ms', label: 'eval: per-trial cost outside the agent (git repository: worktree; check; cleanup)', value: worktree.overhead, unit: 'ms', target: OVERHEAD_TARGET_MS, note: `workspace ${worktree.setup} ms, check ${worktree.check} ms, cleanup ${worktree.cleanup} ms` },
    ];
    for (const runner of RUNNERS) {
      const whole = await runnerOverhead(env, runner, runs, root, gitSource);
      metrics.push({
        key: `eval.overhead.${runner === 'isolate' ? 'isolate' : 'in_process'}_ms`,
        label: `eval: per-trial overhead beyond the agent's own work, ${runner} runner (whole trial with the instant mock, less the model's time)`,
        value: whole.overhead,
        unit: 'ms',
        // The target is the default runner's; --isolate buys a process per trial on purpose.
        ...(runner === 'in-process' ? { target: OVERHEAD_TARGET_MS } : {}),
        note: `agent ${whole.agent} ms (model ${whole.model} ms), workspace ${whole.setup} ms, check ${whole.check} ms, cleanup ${whole.cleanup} ms`,
      });
    }
    for (const runner of RUNNERS) {
      for (const parallel of [1, 2, 4]) {
        const rate = await trialsPerMinute(env, runner, parallel, 12);
        metrics.push({
          key: `eval.trials_per_minute.${runner === 'isolate' ? 'isolate' : 'in_process'}.p${parallel}`,
          label: `eval: trials per minute, instant mock, --parallel ${parallel}, ${runner} runner`,
          value: rate,
          unit: '/min',
          note: `higher is better; 12 trials, ${runner === 'isolate' ? 'a `rig exec` child per trial' : 'an engine thread per trial in the eval process'}`,
        });
      }
    }
    return metrics;
  } finally {
    removeDir(root);
    removeDir(copySource);
    removeDir(gitSource);
  }
}
