// Scale-out through a real redis-server: `rig eval --queue` enqueues 60 trials as BullMQ jobs,
// three `rig worker` processes run them (with the run's runner: engine threads in the worker, or a
// `rig exec` per trial for a run started with --isolate), one of them is killed with SIGKILL while
// its agent runs a command; the stalled job runs again on another worker, and every trial ends
// with exactly one result in results.jsonl. Without --queue, BullMQ and ioredis never load.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/eval/results.js';
import { processesWith, waitUntil } from '../frontends/exec/helpers.js';
import { startMockProvider, type MockProvider, type MockRequest, type MockTurn } from '../support/mock-provider/index.js';
import { RIG_BIN, jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { startRedis, type RedisServer } from './support/redis.js';
import { RUNNERS, runnerFlags } from './support/runners.js';

const TASKS = 20;
const TRIALS = 3;
const SLOW = 'sleep 1.5';

let redis: RedisServer;
let mock: MockProvider;
let home: string;
let cwd: string;
let tasksFile: string;

/**
 * Task N asks to create done-N.txt; even tasks get it done, odd ones the model only looks. Every
 * fourth task takes a second first, which is when the test kills a worker.
 */
function model(request: MockRequest): MockTurn {
  const text = JSON.stringify(request.body.input ?? []);
  const n = Number(/create done-(\d+)\.txt/.exec(text)?.[1] ?? -1);
  const steps = (request.body.input ?? []).filter((item: { type: string }) => item.type === 'function_call').length;
  const work = n % 2 === 0 ? `echo ok > done-${n}.txt` : 'ls';
  if (steps === 0) return { toolCalls: [{ name: 'exec_command', arguments: { cmd: n % 4 === 0 ? `${SLOW}; ${work}` : work } }], usage: { input_tokens: 100, output_tokens: 10 } };
  return { text: 'done', usage: { input_tokens: 120, output_tokens: 5 } };
}

function env(): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-secret-0123456789' };
}

/**
 * Hooks that log every bullmq/ioredis load of the process to `log`: imports through a resolve hook,
 * require() (the bundle's chunks are CommonJS scripts) through Module._load.
 */
function importSpy(dir: string, log: string): string {
  writeFileSync(join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  if (/^(bullmq|ioredis)(\\/|$)/.test(specifier)) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');\n  return next(specifier, context);\n}\n`);
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { appendFileSync } from 'node:fs';\nimport Module, { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n` +
      `const load = Module._load;\nModule._load = function (request, ...rest) {\n  if (/^(bullmq|ioredis)(\\/|$)/.test(request)) appendFileSync(${JSON.stringify(log)}, request + '\\n');\n  return load.call(this, request, ...rest);\n};\n`,
  );
  return join(dir, 'register.mjs');
}

beforeAll(async () => {
  redis = await startRedis();
  mock = await startMockProvider();
  mock.enqueue(...Array.from({ length: 400 }, () => model));
  home = tempRigHome({ url: mock.url });
  cwd = tempDir('queue');
  mkdirSync(join(cwd, 'repo'));
  writeFileSync(join(cwd, 'repo', 'README'), 'a tiny repository\n');
  tasksFile = join(cwd, 'tasks.jsonl');
  writeFileSync(
    tasksFile,
    Array.from({ length: TASKS }, (_, n) => JSON.stringify({ id: `task-${n}`, repo: 'repo', prompt: `Please create done-${n}.txt here.`, check: `test -f done-${n}.txt` })).join('\n') + '\n',
  );
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await redis?.stop();
  removeDir(home);
  removeDir(cwd);
});

function startWorker(flags: string[] = []): { child: ChildProcess; exited: Promise<unknown>; stderr: () => string } {
  const child = spawn(process.execPath, [RIG_BIN, 'worker', '--queue', redis.url, '--lock-duration', '2000', '--stalled-interval', '1000', ...flags], { cwd, env: env(), stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return { child, exited: new Promise((resolve) => child.on('close', resolve)), stderr: () => stderr };
}

describe('rig eval --queue with rig worker', () => {
  it.each(RUNNERS)('runs 60 trials on 3 workers, one SIGKILLed mid-trial, with exactly one result per trial (%s runner)', async (runner) => {
    const out = join(cwd, `run-${runner}`);
    const spyLog = join(cwd, `coordinator-imports-${runner}.log`);
    const queueName = `rig-eval-${runner}`;
    const coordinator = spawn(process.execPath, ['--import', importSpy(cwd, spyLog), RIG_BIN, 'eval', tasksFile, '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--trials', String(TRIALS), '--queue', redis.url, '--queue-name', queueName, '--out', out, ...runnerFlags(runner)], { cwd, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    coordinator.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const done = new Promise<number | null>((resolve) => coordinator.on('close', resolve));
    // The workers take the runner from the run; a worker's own --isolate is honoured too.
    const queueFlags = ['--queue-name', queueName];
    const workers = [startWorker(queueFlags), startWorker(queueFlags), startWorker([...queueFlags, ...runnerFlags(runner)])];
    try {
      const results = join(out, 'results.jsonl');
      const count = () => (existsSync(results) ? readFileSync(results, 'utf8').split('\n').filter(Boolean).length : 0);
      const victim = workers[0]!;
      const marker = `/w${victim.child.pid}/`;
      // The sandboxed command of an agent the first worker is running (its trial's workspace is in
      // bwrap's arguments), so the trial cannot have finished when the worker dies.
      const agentOfVictim = () =>
        processesWith(marker)
          .map((pid) => {
            try {
              return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
            } catch {
              return '';
            }
          })
          .find((cmdline) => cmdline.includes(SLOW) && /\/t[0-9a-f]+\/ws/.test(cmdline));
      await waitUntil(() => count() >= 10 && agentOfVictim() !== undefined, 120_000, 'ten results and a trial running on the first worker');
      const heldKey = new RegExp(`${marker}(t[0-9a-f]+)/ws`).exec(agentOfVictim() ?? '')?.[1];
      expect(heldKey).toBeDefined();
      process.kill(-victim.child.pid!, 'SIGKILL');
      await victim.exited;

      const code = await done;
      expect(code, stderr).toBe(0);
      const all = jsonLines(readFileSync(results, 'utf8')) as unknown as TrialResult[];
      const planned = (JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { specs: { key: string }[] }).specs.map((s) => s.key);
      expect(planned).toHaveLength(TASKS * TRIALS);
      expect(all).toHaveLength(planned.length);
      expect(all.map((r) => r.key).sort()).toEqual([...planned].sort());
      // The trial the killed worker held ran again, to the end, on another worker.
      const held = all.find((r) => r.key === heldKey)!;
      expect(held.worker).not.toContain(`:${victim.child.pid}`);
      expect(held.status).not.toBe('error');
      // Agent outcomes are results: the odd tasks fail their check, once each, and are not retried.
      for (const r of all) expect(r.status).toBe(Number(r.task.split('-')[1]) % 2 === 0 ? 'passed' : 'failed');
      for (const r of all) expect(r.runner).toBe(runner);
      expect(new Set(all.map((r) => r.worker)).size).toBeGreaterThanOrEqual(2);
      for (const r of all) expect(existsSync(join(out, r.rollout!))).toBe(true);
      expect(readFileSync(spyLog, 'utf8')).toMatch(/bullmq/);

      // As if the coordinator had died before writing its last result: a resume enqueues the same
      // job ids again (a no-op: the jobs exist), collects the finished job's result from the queue,
      // and runs nothing again.
      const text = readFileSync(results, 'utf8');
      const kept = text.split('\n').filter(Boolean);
      const dropped = JSON.parse(kept.pop()!) as TrialResult;
      writeFileSync(results, `${kept.join('\n')}\n`);
      const requests = mock.requests.length;
      const again = await runRig(['eval', '--resume', out], { cwd, home });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`resuming ${out}: 1 of ${planned.length} trials to run`);
      const restored = jsonLines(readFileSync(results, 'utf8')) as unknown as TrialResult[];
      expect(restored).toHaveLength(planned.length);
      expect(restored.at(-1)!.key).toBe(dropped.key);
      expect(restored.at(-1)!.worker).toBe(dropped.worker);
      expect(mock.requests.length).toBe(requests);
    } finally {
      // Whatever is still running when the test ends (also after a failed expectation) is stopped.
      for (const worker of workers) {
        if (worker.child.exitCode !== null || worker.child.signalCode !== null) continue;
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
      if (coordinator.exitCode === null && coordinator.signalCode === null) coordinator.kill('SIGKILL');
      // The killed worker could not clean up its trial folders.
      if (existsSync(join(out, 'run.json'))) removeDir(join(tmpdir(), 'rig-eval', (JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { id: string }).id));
    }
  }, 300_000);

  it('loads neither BullMQ nor ioredis without --queue', async () => {
    const out = join(cwd, 'local');
    const spyLog = join(cwd, 'local-imports.log');
    writeFileSync(spyLog, '');
    const one = join(cwd, 'one.jsonl');
    writeFileSync(one, readFileSync(tasksFile, 'utf8').split('\n')[0] + '\n');
    const child = spawn(process.execPath, ['--import', importSpy(cwd, spyLog), RIG_BIN, 'eval', one, '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--out', out], { cwd, env: env(), stdio: 'ignore' });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(jsonLines(readFileSync(join(out, 'results.jsonl'), 'utf8'))).toHaveLength(1);
    expect(readFileSync(spyLog, 'utf8')).toBe('');
  }, 120_000);
});
