// `rig eval` figures: what a trial costs beyond the agent's own work (the workspace, the task's
// check in its sandbox, cleanup), measured with an agent that returns at once; and trials per
// minute of the real CLI against the instant mock for --parallel 1, 2 and 4.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyUsage } from '../src/protocol/index.js';
import type { AgentSettings, TrialSpec } from '../src/eval/matrix.js';
import type { TrialRunner } from '../src/eval/runner/types.js';
import type { EvalTask } from '../src/eval/tasks/types.js';
import { runTrial } from '../src/eval/trial.js';
import { startMockProvider } from '../test/support/mock-provider/index.js';
import { removeDir, tempDir, tempGitRepo } from '../test/support/workspace.js';
import { median, timeProcess } from './measure.js';
import type { Metric } from './report.js';
import type { BenchEnv } from './workspace.js';

const OVERHEAD_TARGET_MS = 150;

/** The agent takes no time: what is left of a trial is the runner's own overhead. */
const instantAgent: TrialRunner = {
  name: 'isolate',
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

async function overhead(task: EvalTask, runs: number, root: string): Promise<{ total: number; setup: number; check: number; cleanup: number }> {
  const samples: { total: number; setup: number; check: number; cleanup: number }[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const spec: TrialSpec = { key: `tbench${i}`, task, harness: 'native', model: 'm', trial: i, settings: SETTINGS };
    const { result } = await runTrial(spec, { runId: 'bench', runner: instantAgent, workRoot: root, env: process.env, prices: {} });
    if (result.status !== 'passed') throw new Error(`bench trial did not pass: ${result.error ?? result.check.output}`);
    // The first trial also pays for the one-time sandbox probe: not counted.
    if (i > 0) samples.push({ total: result.timing.total_ms, setup: result.timing.setup_ms, check: result.timing.check_ms, cleanup: result.timing.cleanup_ms });
  }
  const pick = (key: keyof (typeof samples)[number]) => median(samples.map((s) => s[key]));
  return { total: pick('total'), setup: pick('setup'), check: pick('check'), cleanup: pick('cleanup') };
}

async function trialsPerMinute(env: BenchEnv, parallel: number, trials: number): Promise<number> {
  const mock = await startMockProvider();
  const dir = tempDir('bench-eval');
  try {
    mock.enqueue(...Array.from({ length: trials + 4 }, () => ({ text: 'done' })));
    const home = env.mockHome(mock.url);
    mkdirSync(join(dir, 'repo'));
    smallProject(join(dir, 'repo'));
    const tasks = Array.from({ length: trials }, (_, i) => JSON.stringify({ id: `t${i}`, repo: 'repo', prompt: `say done ${i}`, check: 'true' }));
    writeFileSync(join(dir, 'tasks.jsonl'), `${tasks.join('\n')}\n`);
    const out = join(dir, 'run');
    const run = await timeProcess([process.execPath, env.rigBin, 'eval', join(dir, 'tasks.jsonl'), '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--parallel', String(parallel), '--out', out], { cwd: dir, env: env.childEnv(home) });
    if (run.code !== 0) throw new Error(`rig eval --parallel ${parallel} failed:\n${run.stderr.slice(-2000)}`);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { started_at: string; finished_at: string; status: string });
    if (results.length !== trials || results.some((r) => r.status !== 'passed')) throw new Error(`rig eval --parallel ${parallel}: ${results.length} results, not ${trials} passing ones`);
    const start = Math.min(...results.map((r) => Date.parse(r.started_at)));
    const end = Math.max(...results.map((r) => Date.parse(r.finished_at)));
    return (trials / (end - start)) * 60_000;
  } finally {
    await mock.close();
    removeDir(dir);
  }
}

export async function benchEval(env: BenchEnv, runs: number): Promise<Metric[]> {
  const root = tempDir('bench-trials');
  const copySource = tempDir('bench-copy');
  const gitSource = tempGitRepo({});
  try {
    smallProject(copySource);
    smallProject(gitSource);
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['-C', gitSource, '-c', 'user.name=b', '-c', 'user.email=b@b', 'add', '-A']);
    execFileSync('git', ['-C', gitSource, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'files']);
    const task = (repo: string): EvalTask => ({ id: 'bench', format: 'rig', source: { file: 'bench' }, prompt: 'x', repo, check: { kind: 'command', command: 'true' } });
    const copy = await overhead(task(copySource), runs, root);
    const worktree = await overhead(task(gitSource), runs, root);
    const metrics: Metric[] = [
      { key: 'eval.overhead.copy_ms', label: 'eval: per-trial overhead beyond the agent (plain folder: worktree of a copy made once; check; cleanup)', value: copy.total, unit: 'ms', target: OVERHEAD_TARGET_MS, note: `workspace ${copy.setup} ms, check ${copy.check} ms, cleanup ${copy.cleanup} ms` },
      { key: 'eval.overhead.worktree_ms', label: 'eval: per-trial overhead beyond the agent (git repository: worktree; check; cleanup)', value: worktree.total, unit: 'ms', target: OVERHEAD_TARGET_MS, note: `workspace ${worktree.setup} ms, check ${worktree.check} ms, cleanup ${worktree.cleanup} ms` },
    ];
    for (const parallel of [1, 2, 4]) {
      const rate = await trialsPerMinute(env, parallel, 12);
      metrics.push({ key: `eval.trials_per_minute.p${parallel}`, label: `eval: trials per minute, instant mock, --parallel ${parallel}`, value: rate, unit: '/min', note: 'higher is better; 12 trials, `rig exec` child per trial' });
    }
    return metrics;
  } finally {
    removeDir(root);
    removeDir(copySource);
    removeDir(gitSource);
  }
}
