// The runner enforces each trial's budgets: an agent that keeps going past --max-tokens, or a
// command that outlasts --timeout, is stopped; the trial is still checked and recorded, with the
// agent's end saying which budget ran out.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/eval/results.js';
import { startMockProvider, type MockProvider, type MockRequest, type MockTurn } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { RUNNERS, runnerFlags } from './support/runners.js';

let mock: MockProvider;
let home: string;
let cwd: string;

function model(request: MockRequest): MockTurn {
  const text = JSON.stringify(request.body.input ?? []);
  const command = text.includes('wait for it') ? 'sleep 30' : 'true';
  return { toolCalls: [{ name: 'exec_command', arguments: { cmd: command, yield_time_ms: 60_000 } }], usage: { input_tokens: 1000, output_tokens: 10 } };
}

beforeAll(async () => {
  mock = await startMockProvider();
  mock.enqueue(...Array.from({ length: 100 }, () => model));
  home = tempRigHome({ url: mock.url });
  cwd = tempDir('budget');
  mkdirSync(join(cwd, 'repo'));
  writeFileSync(join(cwd, 'repo', 'README'), 'x\n');
});

afterAll(async () => {
  await mock.close();
  removeDir(home);
  removeDir(cwd);
});

function tasks(prompt: string): string {
  const file = join(cwd, `${prompt.replace(/\W+/g, '-')}.jsonl`);
  writeFileSync(file, `${JSON.stringify({ id: 'loop', repo: 'repo', prompt, check: 'test -f never.txt' })}\n`);
  return file;
}

describe.each(RUNNERS)('trial budgets (%s runner)', (runner) => {
  it('stops the agent when its tokens pass --max-tokens', async () => {
    const out = join(cwd, `tokens-${runner}`);
    const run = await runRig(['eval', tasks('keep going'), '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--max-tokens', '2500', '--out', out, ...runnerFlags(runner)], { cwd, home });
    expect(run.code, run.stderr).toBe(0);
    const [result] = jsonLines(readFileSync(join(out, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
    expect(result!.agent.end).toBe('budget');
    expect(result!.status).toBe('failed');
    // Stopped at the first step past the budget (3 x 1010 tokens), not 200 steps later: in-process
    // at once (the engine's usage event), a child once its rollout has been read.
    expect(result!.steps).toBeGreaterThanOrEqual(3);
    expect(result!.steps).toBeLessThanOrEqual(runner === 'in-process' ? 3 : 5);
    expect(result!.runner).toBe(runner);
  }, 120_000);

  it('stops the agent at the wall-clock --timeout, killing the command it was running', async () => {
    const out = join(cwd, `time-${runner}`);
    const run = await runRig(['eval', tasks('wait for it'), '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--timeout', '3', '--out', out, ...runnerFlags(runner)], { cwd, home });
    expect(run.code, run.stderr).toBe(0);
    const [result] = jsonLines(readFileSync(join(out, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
    expect(result!.agent.end).toBe('timeout');
    expect(result!.status).toBe('failed');
    expect(result!.timing.agent_ms).toBeGreaterThanOrEqual(3000);
    expect(result!.timing.agent_ms).toBeLessThan(20_000);
  }, 120_000);
});
