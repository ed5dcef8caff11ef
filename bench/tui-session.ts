// The interactive session on the real engine (bench section `tui-session`), through a pty and the
// built CLI, next to bench/tui.ts's in-process figures for the TUI over a played port:
// - first frame: `rig` on a terminal (engine session; the engine loads behind the first frame)
//   spawn -> the composer is on screen; `rig tui-demo` and bare node in the same pty for scale.
//   Target 150 ms.
// - `rig resume ID` on a 10,000-item thread: spawn -> first frame, then keystroke -> the frame that
//   shows it (p99, target 16 ms), bytes written per keystroke (target 200), and the process's CPU
//   while idle (target ~0), read from /proc.
import { spawn as spawnPty, type IPty } from '@lydell/node-pty';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './measure.js';
import type { Metric } from './report.js';
import type { BenchEnv } from './workspace.js';

const PLACEHOLDER = 'sk rig anything';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

interface Pty {
  pty: IPty;
  startedAt: number;
  bytes(): number;
  /** Resolves when the output so far contains `text`, with the time since spawn. */
  waitFor(text: string, timeoutMs?: number): Promise<number>;
  /** Resolves at the next chunk of output. */
  nextOutput(): Promise<void>;
  kill(): void;
}

function openPty(args: string[], cwd: string, env: NodeJS.ProcessEnv): Pty {
  const startedAt = performance.now();
  const pty = spawnPty(process.execPath, args, { cols: 100, rows: 30, cwd, env: { ...env, TERM: 'xterm-256color' } as Record<string, string> });
  let output = '';
  let bytes = 0;
  const listeners = new Set<() => void>();
  pty.onData((data) => {
    output += data;
    bytes += Buffer.byteLength(data, 'utf8');
    // Keep only a tail to search in: a long session writes a lot.
    if (output.length > 200_000) output = output.slice(-100_000);
    for (const listener of [...listeners]) listener();
  });
  return {
    pty,
    startedAt,
    bytes: () => bytes,
    waitFor: (text, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!output.includes(text)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(performance.now() - startedAt);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${JSON.stringify(text)} from rig ${args.slice(1).join(' ')}; output: ${JSON.stringify(output.slice(-400))}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    nextOutput: () =>
      new Promise((resolve) => {
        const once = () => {
          listeners.delete(once);
          resolve();
        };
        listeners.add(once);
      }),
    kill: () => {
      try {
        pty.kill();
      } catch {
        // already gone
      }
    },
  };
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

/** A stored thread of `turns` turns of 10 items (a prompt, 4 commands with outputs, an answer). */
function writeThread(home: string, cwd: string, turns: number): string {
  const now = new Date();
  const id = uuidv7(now.getTime());
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = join(home, 'sessions', String(now.getFullYear()), pad(now.getMonth() + 1), pad(now.getDate()));
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}-${pad(now.getMinutes())}-${pad(now.getSeconds())}`;
  const file = join(day, `rollout-${stamp}-${id}.jsonl`);
  mkdirSync(dirname(file), { recursive: true });
  const ts = now.toISOString();
  const line = (type: string, payload: unknown) => `${JSON.stringify({ timestamp: ts, type, payload })}\n`;
  const parts = [line('session_meta', { id, timestamp: ts, cwd, originator: 'rig', cli_version: '0.1.0', source: 'cli', model: 'mock-model', model_provider: 'mock', harness: 'native' })];
  for (let t = 0; t < turns; t++) {
    const turnId = `turn_${t}`;
    parts.push(line('turn_context', { turn_id: turnId, cwd, model: 'mock-model', approval_policy: 'on-request', sandbox_policy: 'workspace-write', harness: 'native' }));
    parts.push(line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: t === 0 ? 'refactor the symbol tables' : `follow-up ${t}: keep going` }] }));
    for (let s = 0; s < 4; s++) {
      const call = { type: 'function_call', call_id: `call_${t}_${s}`, name: 'exec_command', arguments: JSON.stringify({ cmd: `grep -rn "symbol_${s}" src | head -20` }) };
      parts.push(line('response_item', call));
      parts.push(line('response_item', { type: 'function_call_output', call_id: call.call_id, output: `src/a.ts:${s}: const symbol_${s} = compute(${t});\nsrc/b.ts:${s + 7}: import { symbol_${s} } from './a.js';\n` }));
    }
    parts.push(line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `Done with part ${t}: **symbols** updated, \`tests\` pass.` }] }));
    parts.push(line('event_msg', { type: 'turn_complete', turn_id: turnId }));
  }
  writeFileSync(file, parts.join(''));
  return id;
}

/** User + system CPU of a process so far, in milliseconds (from /proc/PID/stat, 100 ticks a second). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function firstFrames(env: BenchEnv, home: string, runs: number): Promise<{ session: number; demo: number; bare: number }> {
  const childEnv = env.childEnv(home);
  const once = async (args: string[], marker: string | undefined): Promise<number> => {
    const p = openPty(args, env.repo, childEnv);
    try {
      if (marker) return await p.waitFor(marker);
      return await new Promise<number>((resolve) => p.pty.onExit(() => resolve(performance.now() - p.startedAt)));
    } finally {
      p.kill();
    }
  };
  // Warm the page cache first.
  await once([env.rigBin, '--harness', 'native'], PLACEHOLDER);
  const session: number[] = [];
  const demo: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < runs; run++) {
    session.push(await once([env.rigBin, '--harness', 'native'], PLACEHOLDER));
    demo.push(await once([env.rigBin, 'tui-demo'], PLACEHOLDER));
    bare.push(await once(['-e', ''], undefined));
  }
  return { session: median(session), demo: median(demo), bare: median(bare) };
}

async function longThread(env: BenchEnv, home: string): Promise<{ firstFrameMs: number; historyMs: number; p50: number; p99: number; bytesPerKey: number; idlePercent: number }> {
  const id = writeThread(home, env.repo, 1000);
  const p = openPty([env.rigBin, 'resume', id, '--harness', 'native'], env.repo, env.childEnv(home));
  try {
    const firstFrameMs = await p.waitFor(PLACEHOLDER);
    // The history is in (its last answer shown), and the screen has settled.
    const historyMs = await p.waitFor('Done with part 999');
    await sleep(500);
    const type = async (count: number, gapMs: number): Promise<number[]> => {
      const latencies: number[] = [];
      for (let index = 0; index < count; index++) {
        const shown = p.nextOutput();
        const startedAt = performance.now();
        p.pty.write(String.fromCharCode(97 + (index % 26)));
        await shown;
        latencies.push(performance.now() - startedAt);
        await sleep(gapMs);
      }
      return latencies;
    };
    await type(30, 5);
    const before = p.bytes();
    const latencies = await type(200, 20);
    const bytesPerKey = (p.bytes() - before) / 200;
    await sleep(300);
    const cpuBefore = cpuMs(p.pty.pid);
    const idleStart = performance.now();
    await sleep(2000);
    const idlePercent = ((cpuMs(p.pty.pid) - cpuBefore) / (performance.now() - idleStart)) * 100;
    return { firstFrameMs, historyMs, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), bytesPerKey, idlePercent };
  } finally {
    p.kill();
  }
}

export async function benchTuiSession(env: BenchEnv, runs: number): Promise<Metric[]> {
  // No request is made: the provider is never reached before a prompt is sent.
  const home = env.mockHome('http://127.0.0.1:9/v1');
  const frames = await firstFrames(env, home, runs);
  const long = await longThread(env, home);
  return [
    { key: 'tui_session.first_frame_ms', label: '`rig` on a terminal: spawn -> first frame (pty, engine session)', value: frames.session, unit: 'ms', target: 150, note: `tui-demo ${frames.demo.toFixed(0)} ms, bare node ${frames.bare.toFixed(0)} ms in the same pty` },
    { key: 'tui_session.first_frame_overhead_ms', label: '`rig` first frame - bare node (pty)', value: frames.session - frames.bare, unit: 'ms' },
    { key: 'tui_session.resume_10k_first_frame_ms', label: '`rig resume` of a 10,000-item thread: spawn -> first frame', value: long.firstFrameMs, unit: 'ms' },
    { key: 'tui_session.resume_10k_history_ms', label: '`rig resume` of a 10,000-item thread: spawn -> its whole history in the scrollback', value: long.historyMs, unit: 'ms' },
    { key: 'tui_session.key_p99_10k_ms', label: 'keystroke -> screen p99 in `rig resume` of a 10,000-item thread (pty)', value: long.p99, unit: 'ms', target: 16, note: `p50 ${long.p50.toFixed(2)} ms` },
    { key: 'tui_session.bytes_per_key', label: 'bytes written per keystroke, 10,000-item thread (pty)', value: long.bytesPerKey, unit: 'B', target: 200 },
    { key: 'tui_session.idle_cpu_percent', label: '`rig` idle on a 10,000-item thread, % of a core (/proc)', value: long.idlePercent, unit: '%', target: 1 },
  ];
}
