// Trials running side by side (--parallel 4) through the real CLI, with both runners: one whose
// model never answers (stopped at its wall-clock budget), one whose model request fails, one that
// leaves a command running in the background, and one that waits for the test's go-ahead. None of
// them disturbs another: the waiting trial's command is still running after the other three have
// ended (and the left-over command died with its trial), and it then finishes and passes.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/eval/results.js';
import { processesWith, waitUntil } from '../frontends/exec/helpers.js';
import { startMockProvider, type MockProvider, type MockRequest, type MockTurn } from '../support/mock-provider/index.js';
import { RIG_BIN, jsonLines, removeDir, tempDir, tempRigHome } from '../support/workspace.js';
import { RUNNERS, runnerFlags } from './support/runners.js';

const LEFTOVER = 'sleep 613';
const WAIT = 'while [ ! -e GO ]; do sleep 0.05; done; echo ok > done.txt';

let mock: MockProvider;
let home: string;
let cwd: string;
let tasksFile: string;

function model(request: MockRequest): MockTurn {
  const text = JSON.stringify(request.body.input ?? []);
  const answered = (request.body.input ?? []).some((item: { type: string }) => item.type === 'function_call_output');
  if (text.includes('task: silent')) return { noHeaders: true };
  if (text.includes('task: broken')) return { status: 400, message: 'this model is not available' };
  if (answered) return { text: 'done', usage: { input_tokens: 50, output_tokens: 5 } };
  if (text.includes('task: leftover')) return { toolCalls: [{ name: 'exec_command', arguments: { cmd: LEFTOVER, yield_time_ms: 250 } }] };
  return { toolCalls: [{ name: 'exec_command', arguments: { cmd: WAIT, yield_time_ms: 30_000 } }] };
}

beforeAll(async () => {
  mock = await startMockProvider();
  mock.enqueue(...Array.from({ length: 40 }, () => model));
  home = tempRigHome({ url: mock.url });
  cwd = tempDir('eval-isolation');
  mkdirSync(join(cwd, 'repo'));
  writeFileSync(join(cwd, 'repo', 'README'), 'x\n');
  tasksFile = join(cwd, 'tasks.jsonl');
  const task = (id: string, check: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, repo: 'repo', prompt: `task: ${id}`, check, ...extra });
  writeFileSync(tasksFile, [task('silent', 'false', { timeout_s: 2 }), task('broken', 'false'), task('leftover', 'true'), task('waiting', 'test -f done.txt')].join('\n') + '\n');
});

afterAll(async () => {
  await mock.close();
  removeDir(home);
  removeDir(cwd);
});

describe.each(RUNNERS)('trials side by side (%s runner)', (runner) => {
  it('a hung, a failing and a messy trial do not disturb the one beside them', async () => {
    const out = join(cwd, `run-${runner}`);
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-secret-0123456789' };
    const child = spawn(process.execPath, [RIG_BIN, 'eval', tasksFile, '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--parallel', '4', '--out', out, ...runnerFlags(runner)], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const resultsFile = join(out, 'results.jsonl');
      const results = () => (existsSync(resultsFile) ? (jsonLines(readFileSync(resultsFile, 'utf8')) as unknown as TrialResult[]) : []);
      await waitUntil(() => existsSync(join(out, 'run.json')), 30_000, 'run.json');
      const manifest = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { id: string; specs: { key: string; task: { id: string } }[] };
      const waitingKey = manifest.specs.find((spec) => spec.task.id === 'waiting')!.key;

      // Under load the waiting trial's command may start after the others have ended; once it
      // runs it waits for GO, so it must still be running when they are done.
      await waitUntil(() => processesWith(WAIT).length > 0, 60_000, 'the waiting trial\'s command to start');
      await waitUntil(() => results().length === 3, 60_000, 'the three other trials to end');
      expect(processesWith(WAIT).length, 'the waiting trial\'s command').toBeGreaterThan(0);
      await waitUntil(() => processesWith(LEFTOVER).length === 0, 5000, 'the left-over command to die with its trial');
      expect(processesWith(WAIT).length, 'the waiting trial\'s command').toBeGreaterThan(0);
      writeFileSync(join(tmpdir(), 'rig-eval', manifest.id, waitingKey, 'ws', 'GO'), '');

      expect(await exited, stderr).toBe(0);
      const byTask = new Map(results().map((r) => [r.task, r]));
      expect(byTask.size).toBe(4);
      const silent = byTask.get('silent')!;
      expect({ status: silent.status, end: silent.agent.end }).toEqual({ status: 'failed', end: 'timeout' });
      expect(silent.timing.agent_ms).toBeGreaterThanOrEqual(2000);
      expect(silent.timing.agent_ms).toBeLessThan(15_000);
      const broken = byTask.get('broken')!;
      expect({ status: broken.status, end: broken.agent.end }).toEqual({ status: 'failed', end: 'failed' });
      expect(broken.agent.error).toContain('this model is not available');
      expect(byTask.get('leftover')!.status).toBe('passed');
      expect(byTask.get('waiting')!.status).toBe('passed');
      for (const r of byTask.values()) expect(r.runner).toBe(runner);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
