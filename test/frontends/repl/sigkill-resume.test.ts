// Crash safety end to end: `rig exec` running a scripted multi-step session is killed with SIGKILL
// at random moments; after each kill `rig resume --last --print-only` must load the thread and show
// everything up to the kill, and `rig exec resume --last` must continue it. Seeded, so a failure
// reproduces: RIG_KILL_SEED=<seed printed on failure> npx vitest run test/frontends/repl/sigkill-resume.test.ts
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ConversationItem } from '../../../src/protocol/index.js';
import { parseRollout, reconstructThread, scanRolloutFiles } from '../../../src/store/index.js';
import { startMockProvider, type MockTurn } from '../../support/mock-provider/index.js';
import { REPO_ROOT, removeDir, tempDir, type RunResult } from '../../support/workspace.js';

// RIG_KILL_COUNT lowers the count for a quick local run; the suite uses 50.
const KILLS = Number(process.env['RIG_KILL_COUNT'] ?? 50);
const LANES = 2;
const STEPS = 4;
const SEED = Number(process.env['RIG_KILL_SEED'] ?? 20261130);
const PROMPT = 'run the steps';

// This test runs for about a minute; other work in the same checkout may rebuild dist/ meanwhile.
// A private copy of the bundle (inside the repo, so node_modules still resolves) keeps it steady.
let cliDir: string;
let cli: string;

beforeAll(() => {
  cliDir = join(REPO_ROOT, 'node_modules', '.cache', `rig-sigkill-cli-${process.pid}`);
  cpSync(join(REPO_ROOT, 'dist'), cliDir, { recursive: true, filter: (source) => !source.endsWith('.map') });
  cli = join(cliDir, 'rig.cjs');
});

afterAll(() => removeDir(cliDir));

function runRig(args: string[], options: { cwd: string; home: string }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: options.cwd, env: childEnv(options.home), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function script(): MockTurn[] {
  const steps: MockTurn[] = Array.from({ length: STEPS }, (_, i) => ({
    text: `step ${i} coming`,
    toolCalls: [{ name: 'exec_command', arguments: { cmd: `sleep 0.05; echo step ${i}` } }],
  }));
  return [...steps, { text: 'all steps done' }];
}

function writeConfig(home: string, url: string): void {
  writeFileSync(
    join(home, 'config.toml'),
    ['model_provider = "mock"', 'model = "mock-model"', '[model_providers.mock]', 'name = "Mock"', `base_url = "${url}"`,
      'wire_api = "responses"', 'env_key = "MOCK_API_KEY"', 'stream_idle_timeout_ms = 5000'].join('\n'),
  );
}

const childEnv = (home: string) => ({ PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-secret-0123456789' });

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Where to kill: after `afterCommands` commands have completed (as `rig exec --json` reports them),
 * wait `delayMs`, then SIGKILL. Kill points are spread over the session's stages this way, however
 * slow this machine is today (the first command of a session is much slower than the rest).
 */
interface KillPoint {
  afterCommands: number;
  delayMs: number;
}

interface RunOutcome {
  killed: boolean;
  stderr: string;
  /** Milliseconds from spawn until each command completed, then until the process closed. */
  stageEnds: number[];
}

async function runSession(home: string, cwd: string, kill: KillPoint | undefined): Promise<RunOutcome> {
  const mock = await startMockProvider();
  try {
    writeConfig(home, mock.url);
    mock.enqueue(...script());
    const child = spawn(process.execPath, [cli, 'exec', '--skip-git-repo-check', '--json', PROMPT], { cwd, env: childEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    let commandsDone = 0;
    const started = performance.now();
    const stageEnds: number[] = [];
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      stdout = lines.pop()!;
      for (const line of lines) {
        if (line.includes('"item.completed"') && line.includes('"command_execution"')) {
          commandsDone += 1;
          stageEnds.push(performance.now() - started);
        }
      }
    });
    let exited = false;
    const closed = new Promise<void>((resolve) => child.on('close', () => { exited = true; stageEnds.push(performance.now() - started); resolve(); }));
    let killed = false;
    if (kill) {
      await until(() => exited || (scanRolloutFiles(home).size > 0 && commandsDone >= kill.afterCommands), 'the kill point');
      if (!exited) {
        const timer = setTimeout(() => { killed = child.kill('SIGKILL'); }, kill.delayMs);
        await closed;
        clearTimeout(timer);
      }
    }
    await closed;
    return { killed, stderr, stageEnds };
  } finally {
    await mock.close();
  }
}

interface Stats {
  killed: number;
  tornTails: number;
  danglingCalls: number;
  completedBeforeKill: number;
  /** How many kills landed after n tool outputs were written (index n). */
  outputsAtKill: number[];
}

async function killAndResume(kill: KillPoint, stats: Stats): Promise<void> {
  const home = tempDir('kill-home');
  const cwd = tempDir('kill-cwd');
  const where = `(seed ${SEED}: killed ${kill.delayMs.toFixed(1)} ms after command ${kill.afterCommands}; home ${home})`;
  try {
    const outcome = await runSession(home, cwd, kill);
    if (outcome.killed) stats.killed += 1;
    const [file] = [...scanRolloutFiles(home).values()];
    expect(file, `${where}: no rollout; rig exec said: ${outcome.stderr}`).toBeDefined();
    const text = readFileSync(file!.path, 'utf8');
    const read = parseRollout(text, file!.path);
    // Only the last line may be damaged, and only by being cut short.
    expect(read.warnings, where).toEqual([]);
    expect(read.meta?.id, where).toBe(file!.threadId);
    if (read.tornTail) stats.tornTails += 1;
    const history = reconstructThread(read.records).history;
    const calls = history.filter((i) => i.type === 'function_call');
    const outputs = history.filter((i) => i.type === 'function_call_output');
    const answered = new Set(outputs.map((o) => (o as { call_id: string }).call_id));
    stats.danglingCalls += calls.filter((c) => !answered.has((c as { call_id: string }).call_id)).length;
    if (history.some((i) => i.type === 'message' && i.role === 'assistant' && JSON.stringify(i).includes('all steps done'))) stats.completedBeforeKill += 1;
    stats.outputsAtKill[outputs.length] = (stats.outputsAtKill[outputs.length] ?? 0) + 1;

    const printed = await runRig(['resume', '--last', '--print-only'], { cwd, home });
    expect(printed.code, `${where}\n${printed.stderr}`).toBe(0);
    const lines = printed.stdout.split('\n');
    expect(lines[0], where).toContain(`resumed thread ${file!.threadId}`);
    const userTyped = history.some((i) => i.type === 'message' && i.role === 'user' && JSON.stringify(i).includes(PROMPT));
    expect(lines.includes(`› ${PROMPT}`), where).toBe(userTyped);
    expect(lines.filter((l) => /^\$ sleep 0\.05; echo step \d/.test(l)).length, where).toBe(calls.length);
    // Rebuilding the thread answers a call the kill left open as aborted; only real outputs show an exit.
    const finished = outputs.filter((o) => /Process exited with code 0/.test(JSON.stringify(o))).length;
    expect(lines.filter((l) => l.endsWith('→ exit 0')).length, where).toBe(finished);

    const mock = await startMockProvider();
    try {
      writeConfig(home, mock.url);
      mock.enqueue({ text: 'continued after the crash' });
      const resumed = await runRig(['exec', 'resume', '--last', '--skip-git-repo-check', 'continue'], { cwd, home });
      expect(resumed.code, `${where}\n${resumed.stderr}`).toBe(0);
      expect(resumed.stdout).toContain('continued after the crash');
      const sent = mock.requests[0]!.body.input as ConversationItem[];
      // The model sees the history up to the kill (a call the kill left unanswered gets an
      // 'aborted' output), then the new prompt.
      const dangling = calls.filter((c) => !answered.has((c as { call_id: string }).call_id)).length;
      expect(sent.length, where).toBe(history.length + dangling + 1);
      expect(JSON.stringify(sent.at(-1))).toContain('continue');
      if (dangling === 0) sent.slice(0, history.length).forEach((item, i) => expect(item.type, where).toBe(history[i]!.type));
    } finally {
      await mock.close();
    }
    const after = parseRollout(readFileSync(file!.path, 'utf8'), file!.path);
    expect(after.tornTail, where).toBe(false);
    expect(reconstructThread(after.records).history.length, where).toBe(history.length + 2);
  } finally {
    removeDir(home);
    removeDir(cwd);
  }
}

test(`SIGKILL at ${KILLS} random points of a scripted session; resume --last loads and continues each`, async () => {
  // Calibrate: how long each stage of the session (start-up, each command, the final answer) takes
  // on this machine right now, so the random kill points fall inside the stages, fast or slow.
  const calibrationHome = tempDir('kill-calibrate-home');
  const calibrationCwd = tempDir('kill-calibrate-cwd');
  const calibration = await runSession(calibrationHome, calibrationCwd, undefined);
  removeDir(calibrationHome);
  removeDir(calibrationCwd);
  expect(calibration.stageEnds, `calibration run: ${calibration.stderr}`).toHaveLength(STEPS + 1);
  const stageLength = (stage: number) => calibration.stageEnds[stage]! - (stage === 0 ? 0 : calibration.stageEnds[stage - 1]!);
  const random = mulberry32(SEED);
  const kills: KillPoint[] = Array.from({ length: KILLS }, () => {
    const afterCommands = Math.floor(random() * (STEPS + 1));
    return { afterCommands, delayMs: random() * stageLength(afterCommands) };
  });
  const stats: Stats = { killed: 0, tornTails: 0, danglingCalls: 0, completedBeforeKill: 0, outputsAtKill: Array.from({ length: STEPS + 1 }, () => 0) };
  let next = 0;
  const lane = async () => {
    while (next < kills.length) {
      const i = next++;
      await killAndResume(kills[i]!, stats);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  console.log(`seed ${SEED}:`, stats);
  expect(stats.killed).toBeGreaterThan(KILLS * 0.7);
  // The kills really were spread over the session: they left rollouts at several stages.
  if (KILLS >= 20) expect(stats.outputsAtKill.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);
}, 240_000);
