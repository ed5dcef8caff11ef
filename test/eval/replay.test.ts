// `rig eval --replay RUN_DIR` re-runs recorded trials offline against their recorded model
// responses: unchanged, every trial replays as recorded (and the provider is never called); with a
// changed harness (a user profile in RIG_HOME replacing the built-in native with another prompt),
// every trial of that harness is reported as diverged. With both runners, and across them: a run
// recorded by one replays without divergence on the other.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/eval/results.js';
import { loadTasks } from '../../src/eval/tasks/load.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { REPO_ROOT, jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { RUNNERS, runnerFlags } from './support/runners.js';
import { scriptedModel } from './support/scripted-model.js';

const EXAMPLES = join(REPO_ROOT, 'examples', 'eval');
const PICKED = ['js-sum-range', 'py-roman'];

function replayResults(dir: string): TrialResult[] {
  const replay = readdirSync(dir).find((name) => name.startsWith('replay-'))!;
  return jsonLines(readFileSync(join(dir, replay, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
}

describe.each(RUNNERS)('rig eval --replay (%s runner)', (runner) => {
  let mock: MockProvider;
  let home: string;
  let cwd: string;
  let out: string;
  let tasksFile: string;

  beforeAll(async () => {
    mock = await startMockProvider();
    home = tempRigHome({ url: mock.url });
    cwd = tempDir('replay');
    // Two of the example tasks, one the scripted model solves and one it does not.
    tasksFile = join(cwd, 'tasks.jsonl');
    const rows = readFileSync(join(EXAMPLES, 'tasks.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, string>);
    writeFileSync(tasksFile, rows.filter((row) => PICKED.includes(row['id']!)).map((row) => JSON.stringify({ ...row, repo: join(EXAMPLES, row['repo']!), tests: join(EXAMPLES, row['tests']!), solution: join(EXAMPLES, row['solution']!) })).join('\n') + '\n');
    const tasks = loadTasks(tasksFile);
    const model = scriptedModel({ tasks, solves: (id) => id === 'js-sum-range' });
    mock.enqueue(...Array.from({ length: 50 }, () => model));
    out = join(cwd, 'run');
    const recorded = await runRig(['eval', tasksFile, '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--out', out, ...runnerFlags(runner)], { cwd, home });
    expect(recorded.code, recorded.stderr).toBe(0);
  }, 300_000);

  afterAll(async () => {
    await mock.close();
    removeDir(home);
    removeDir(cwd);
  });

  it('replays an unchanged run offline with no divergence', async () => {
    const before = mock.requests.length;
    const replay = await runRig(['eval', '--replay', out, ...runnerFlags(runner)], { cwd, home });
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stderr).toContain(`no divergence: all ${PICKED.length} trials replayed as recorded`);
    expect(mock.requests.length).toBe(before);
    const recorded = jsonLines(readFileSync(join(out, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
    const replayed = replayResults(out);
    expect(replayed).toHaveLength(PICKED.length);
    for (const r of replayed) {
      expect(r.divergences).toEqual([]);
      const original = recorded.find((o) => o.key === r.key)!;
      expect({ status: r.status, steps: r.steps, tool_errors: r.tool_errors }).toEqual({ status: original.status, steps: original.steps, tool_errors: original.tool_errors });
      expect(r.workspace).toBe(original.workspace);
      expect(r.runner).toBe(runner);
    }
  }, 300_000);

  it('replays it with the other runner as recorded too (both runners send the same requests)', async () => {
    const other = RUNNERS.find((name) => name !== runner)!;
    const replay = await runRig(['eval', '--replay', out, '--out', join(cwd, `replay-by-${other}`), ...runnerFlags(other)], { cwd, home });
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stderr).toContain(`no divergence: all ${PICKED.length} trials replayed as recorded`);
    const results = jsonLines(readFileSync(join(cwd, `replay-by-${other}`, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
    expect(results.map((r) => r.runner)).toEqual(PICKED.map(() => other));
  }, 300_000);

  it('reports every trial of a harness whose prompt changed (a user profile in RIG_HOME)', async () => {
    const harnesses = join(home, 'harnesses');
    mkdirSync(harnesses, { recursive: true });
    const profile = JSON.parse(readFileSync(join(REPO_ROOT, 'src', 'harness', 'profiles', 'native.json'), 'utf8')) as Record<string, unknown>;
    const prompt = readFileSync(join(REPO_ROOT, 'src', 'harness', 'profiles', String(profile['prompt_file'])), 'utf8');
    writeFileSync(join(harnesses, 'native.md'), `${prompt}\nAlways answer in haiku.\n`);
    writeFileSync(join(harnesses, 'native.json'), JSON.stringify({ ...profile, prompt_file: 'native.md' }, null, 2));

    const replay = await runRig(['eval', '--replay', out, '--out', join(cwd, 'replay-changed'), ...runnerFlags(runner)], { cwd, home });
    expect(replay.code, replay.stderr).toBe(1);
    const results = jsonLines(readFileSync(join(cwd, 'replay-changed', 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
    expect(results).toHaveLength(PICKED.length);
    for (const r of results) {
      const request = r.divergences!.find((d) => d.kind === 'request');
      expect(request?.message).toMatch(/`instructions` changed/);
      expect(request?.message).toContain('haiku');
      expect(replay.stderr).toContain(`DIVERGED ${r.task} native mock-model #0: request:`);
    }
    expect(replay.stderr).toContain(`${PICKED.length} of ${PICKED.length} trials diverged from the recording`);
  }, 300_000);
});
