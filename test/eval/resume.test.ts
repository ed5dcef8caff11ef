// `rig eval --resume` after the run was killed with SIGKILL in the middle of a trial: the finished
// trials are kept as they were and none of them runs again (the mock provider sees no request for
// them); the interrupted and the unstarted ones run, and every trial ends with exactly one result.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/eval/results.js';
import { loadTasks } from '../../src/eval/tasks/load.js';
import { processesWith, waitUntil } from '../frontends/exec/helpers.js';
import { startMockProvider } from '../support/mock-provider/index.js';
import { REPO_ROOT, RIG_BIN, jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { RUNNERS, runnerFlags } from './support/runners.js';
import { scriptedModel } from './support/scripted-model.js';

const EXAMPLES = join(REPO_ROOT, 'examples', 'eval');
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '') : [];
}

/** Trials in progress: each has its folder under the run's work root until its cleanup. */
function trialsInProgress(workRoot: string): string[] {
  return existsSync(workRoot) ? readdirSync(workRoot).filter((name) => /^t[0-9a-f]+$/.test(name)) : [];
}

describe.each(RUNNERS)('rig eval --resume (%s runner)', (runner) => {
  it('after SIGKILL mid-run repeats no finished trial and completes the rest', async () => {
    const tasks = loadTasks(EXAMPLES);
    const mock = await startMockProvider();
    const model = scriptedModel({ tasks, solves: () => true });
    mock.enqueue(...Array.from({ length: 200 }, () => model));
    const home = tempRigHome({ url: mock.url });
    const cwd = tempDir('resume');
    dirs.push(home, cwd);
    const out = join(cwd, 'run');
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-secret-0123456789' };
    try {
      // Its own process group, so the kill takes the running trial's `rig exec` (--isolate) with it.
      const child = spawn(process.execPath, [RIG_BIN, 'eval', EXAMPLES, '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--out', out, ...runnerFlags(runner)], { cwd, env, stdio: 'ignore', detached: true });
      const exited = new Promise((resolve) => child.on('close', resolve));
      const results = join(out, 'results.jsonl');
      await waitUntil(() => existsSync(join(out, 'run.json')), 30_000, 'run.json');
      const runId = (JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { id: string }).id;
      const marker = join(tmpdir(), 'rig-eval', runId);
      await waitUntil(() => lines(results).length >= 3 && trialsInProgress(marker).length > 0, 120_000, 'three results and a trial in progress');
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
      await waitUntil(() => processesWith(marker).length === 0, 10_000, 'the killed trial to be gone');

      const before = readFileSync(results, 'utf8');
      const finished = jsonLines(before) as unknown as TrialResult[];
      expect(finished.length).toBeGreaterThanOrEqual(3);
      expect(finished.length).toBeLessThan(tasks.length);
      // As if the kill had torn the next line in half.
      appendFileSync(results, '{"v":1,"key":"t-torn","task":"js-');
      const requestsBefore = mock.requests.length;

      // Without --isolate a run resumes with the runner it started with.
      const resumed = await runRig(['eval', '--resume', out], { cwd, home });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`resuming ${out}: ${tasks.length - finished.length} of ${tasks.length} trials to run`);

      const after = readFileSync(results, 'utf8');
      expect(after.startsWith(before)).toBe(true);
      const all = (jsonLines(after.replace('{"v":1,"key":"t-torn","task":"js-\n', '')) as unknown as TrialResult[]);
      expect(all).toHaveLength(tasks.length);
      expect(new Set(all.map((r) => r.key)).size).toBe(tasks.length);
      expect(new Set(all.map((r) => r.task))).toEqual(new Set(tasks.map((t) => t.id)));
      expect(all.every((r) => r.status === 'passed')).toBe(true);
      expect(all.every((r) => r.runner === runner)).toBe(true);

      // No model request after the kill was for a trial that had finished.
      const finishedPrompts = finished.map((r) => tasks.find((t) => t.id === r.task)!.prompt);
      for (const request of mock.requests.slice(requestsBefore)) {
        const text = JSON.stringify(request.body);
        for (const prompt of finishedPrompts) expect(text.includes(JSON.stringify(prompt).slice(1, -1))).toBe(false);
      }
      expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).trials).toMatchObject({ planned: tasks.length, finished: tasks.length, passed: tasks.length });
    } finally {
      await mock.close();
    }
  }, 300_000);
});
