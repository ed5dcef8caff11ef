// Session benchmarks, called by the bench runner (no test framework here):
//   benchResume10k  — `rig resume <id> --print-only` on a 10,000-item rollout: process start to exit,
//                     i.e. to the moment the interactive front end would show its first prompt.
//                     Target: under 300 ms.
//   benchList5000   — `rig sessions list --all --json` over 5,000 threads with a warm index.
//                     Target: under 100 ms.
// Both run the BUILT CLI (bin/rig.js -> dist/; build first) against a throwaway RIG_HOME, and
// report the median of 5 timed runs after one warm-up. Rollouts are written directly as JSONL in
// the shapes rig writes, so generating 5,000 threads takes well under a second.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Next to this file when run from bench/; from the working directory when the runner bundled it elsewhere.
const RIG_BIN = [join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'bin', 'rig.js'), resolve('bin', 'rig.js')].find((p) => existsSync(p)) ?? 'bin/rig.js';
const TIMED_RUNS = 5;

export interface BenchResult {
  /** Median wall time of the timed runs, milliseconds. */
  ms: number;
  runs: number[];
  /** Median of `rig --version` runs interleaved with the timed ones: bare process cost right now. */
  baselineMs: number;
}

function uuidv7(ms: number): string {
  const bytes = randomBytes(16);
  let t = ms;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

function rolloutPath(home: string, date: Date, id: string): string {
  const day = join(home, 'sessions', String(date.getFullYear()), pad(date.getMonth() + 1), pad(date.getDate()));
  const stamp = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
  return join(day, `rollout-${stamp}-${id}.jsonl`);
}

function line(timestamp: string, type: string, payload: unknown): string {
  return `${JSON.stringify({ timestamp, type, payload })}\n`;
}

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'rig-bench-sessions-'));
  // A provider that is never contacted: print-only and list make no model requests.
  writeFileSync(
    join(home, 'config.toml'),
    ['model_provider = "bench"', 'model = "bench-model"', '[model_providers.bench]', 'name = "Bench"',
      'base_url = "http://127.0.0.1:9/v1"', 'wire_api = "responses"', 'env_key = "BENCH_API_KEY"'].join('\n'),
  );
  return home;
}

interface Thread {
  id: string;
  path: string;
}

/** One rollout; `turns` turns of: user prompt, 4 commands with outputs, an answer (10 items each). */
function writeThread(home: string, options: { cwd: string; created: Date; turns: number; title: string }): Thread {
  const id = uuidv7(options.created.getTime());
  const file = rolloutPath(home, options.created, id);
  mkdirSync(dirname(file), { recursive: true });
  const ts = options.created.toISOString();
  let text = line(ts, 'session_meta', {
    id, timestamp: ts, cwd: options.cwd, originator: 'rig', cli_version: '0.1.0', source: 'exec',
    model: 'bench-model', model_provider: 'bench', harness: 'native',
  });
  const usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  for (let t = 0; t < options.turns; t++) {
    const turnId = `turn_${t}`;
    text += line(ts, 'turn_context', { turn_id: turnId, cwd: options.cwd, model: 'bench-model', approval_policy: 'on-request', sandbox_policy: 'workspace-write', harness: 'native' });
    const prompt = t === 0 ? options.title : `follow-up ${t}: keep going with the next part of the task`;
    text += line(ts, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] });
    for (let s = 0; s < 4; s++) {
      const call = { type: 'function_call', call_id: `call_${t}_${s}`, name: 'exec_command', arguments: JSON.stringify({ cmd: `grep -rn "symbol_${s}" src | head -20` }) };
      text += line(ts, 'model_response', { turn_id: turnId, step: s, events: [{ type: 'item_done', item: call }, { type: 'completed', usage }] });
      text += line(ts, 'response_item', call);
      text += line(ts, 'response_item', {
        type: 'function_call_output', call_id: call.call_id,
        output: `Chunk ID: ab12cd\nWall time: 0.0123 seconds\nProcess exited with code 0\nOriginal token count: 40\nOutput:\nsrc/a.ts:${s}: const symbol_${s} = compute(${t});\nsrc/b.ts:${s + 7}: import { symbol_${s} } from './a.js';\n`,
      });
    }
    text += line(ts, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `Done with part ${t}: symbols updated, tests pass.` }] });
    usage.input_tokens += 1200;
    usage.output_tokens += 80;
    usage.total_tokens += 1280;
    text += line(ts, 'event_msg', { type: 'turn_complete', turn_id: turnId, usage: { ...usage } });
  }
  writeFileSync(file, text);
  return { id, path: file };
}

function runRig(args: string[], home: string, cwd: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [RIG_BIN, ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, BENCH_API_KEY: 'sk-bench' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout!.resume();
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`rig ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
      else resolvePromise(ms);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
}

async function timeRuns(args: string[], home: string, cwd: string): Promise<BenchResult> {
  await runRig(args, home, cwd);
  const runs: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < TIMED_RUNS; i++) {
    baseline.push(await runRig(['--version'], home, cwd));
    runs.push(await runRig(args, home, cwd));
  }
  return { ms: median(runs), runs: runs.map((r) => Math.round(r * 10) / 10), baselineMs: median(baseline) };
}

export async function benchResume10k(): Promise<BenchResult> {
  const home = tempHome();
  const cwd = mkdtempSync(join(tmpdir(), 'rig-bench-cwd-'));
  try {
    // 1,000 turns x 10 items = 10,000 response items (plus turn contexts, model responses, events).
    const thread = writeThread(home, { cwd, created: new Date(), turns: 1000, title: 'refactor the symbol tables' });
    return await timeRuns(['resume', thread.id, '--print-only'], home, cwd);
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

export async function benchList5000(): Promise<BenchResult> {
  const home = tempHome();
  const cwd = mkdtempSync(join(tmpdir(), 'rig-bench-cwd-'));
  try {
    const start = Date.now() - 5000 * 60_000;
    for (let i = 0; i < 5000; i++) {
      writeThread(home, {
        cwd: i % 3 === 0 ? cwd : `/srv/project-${i % 17}`,
        created: new Date(start + i * 60_000),
        turns: 1,
        title: `task number ${i}: make the thing work`,
      });
    }
    // rig trusts a rollout directory's mtime only once it is 2 s old (a write in the same clock tick
    // as a scan would not move it). Real day directories were last written when their last thread
    // was, not all in the last second as here: let them settle before the warm-up run builds the
    // index, so the timed runs measure the usual case (nothing changed, no rollout stat'ed).
    await new Promise((settled) => setTimeout(settled, 2_100));
    // timeRuns' warm-up run builds the index; the timed runs only reconcile it with the files.
    return await timeRuns(['sessions', 'list', '--all', '--json'], home, cwd);
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

// Run directly after `npm run build`, e.g.
//   npx esbuild bench/sessions.ts --format=esm --platform=node --outfile=/tmp/bench-sessions.mjs && node /tmp/bench-sessions.mjs
// (Node 20 cannot run TypeScript itself.)
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  console.log('resume 10k items (target < 300 ms):', await benchResume10k());
  console.log('sessions list 5000 (target < 100 ms):', await benchList5000());
}
