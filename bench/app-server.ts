// `rig app-server` figures: how long a warm server takes from `turn/start` to the model request
// (against `rig exec`'s own turn start -> request, read off its --json `turn.started` line), and
// the memory each idle loaded thread costs in one server process holding 50 of them.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startMockProvider, type MockProvider } from '../test/support/mock-provider/index.js';
import { initialize, spawnAppServer, text, type Peer } from '../test/frontends/app-server/support.js';
import { median } from './measure.js';
import type { Metric } from './report.js';
import type { BenchEnv } from './workspace.js';

type Json = Record<string, unknown>;

function rssKb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

async function startThread(peer: Peer): Promise<string> {
  const response = await peer.request('thread/start', {});
  if ('error' in response) throw new Error(`thread/start failed: ${JSON.stringify(response['error'])}`);
  return ((response['result'] as Json)['thread'] as Json)['id'] as string;
}

/**
 * turn/start written -> the model request arrives, on a server that has run a turn already: on
 * that same thread (`warm`), and as the first turn of a thread just started (`fresh`).
 */
async function appServerTurnToRequest(env: BenchEnv, mock: MockProvider, runs: number): Promise<{ warm: number; fresh: number }> {
  const home = env.mockHome(mock.url);
  const peer = spawnAppServer({ cwd: env.repo, home });
  try {
    await initialize(peer);
    const threadId = await startThread(peer);
    const warm = await turnsToRequest(peer, mock, runs, async () => threadId);
    const fresh = await turnsToRequest(peer, mock, runs, () => startThread(peer));
    return { warm, fresh };
  } finally {
    await peer.close();
  }
}

/** Median time from writing turn/start to the model request, over `runs` turns after one uncounted. */
async function turnsToRequest(peer: Peer, mock: MockProvider, runs: number, thread: () => Promise<string>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const threadId = await thread();
    mock.enqueue({ text: 'ok' });
    const arrived = mock.waitForRequest(mock.requests.length + 1, 30_000).then(() => performance.now());
    const from = peer.received.length;
    const startedAt = performance.now();
    const response = await peer.request('turn/start', { threadId, input: text('say ok') });
    if ('error' in response) throw new Error(`turn/start failed: ${JSON.stringify(response['error'])}`);
    const at = await arrived;
    await peer.next((message) => message['method'] === 'turn/completed', from);
    // Turn 0 warms the server and is not counted.
    if (i > 0) times.push(at - startedAt);
  }
  return median(times);
}

/** `rig exec --json`: its `turn.started` line on stdout -> the model request arrives. */
async function execTurnToRequest(env: BenchEnv, mock: MockProvider, runs: number): Promise<number> {
  const home = env.mockHome(mock.url);
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    mock.enqueue({ text: 'ok' });
    const arrived = mock.waitForRequest(mock.requests.length + 1, 30_000).then(() => performance.now());
    const child = spawn(process.execPath, [env.rigBin, 'exec', '--json', 'say ok'], { cwd: env.repo, env: env.childEnv(home), stdio: ['ignore', 'pipe', 'ignore'] });
    const turnStarted = new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.includes('"type":"turn.started"')) resolve(performance.now());
      });
      child.on('close', (code) => reject(new Error(`rig exec --json exited ${code} before turn.started`)));
    });
    const startedAt = await turnStarted;
    const at = await arrived;
    await new Promise((resolve) => child.on('close', resolve));
    if (i > 0) times.push(at - startedAt);
  }
  return median(times);
}

/** RSS growth per idle loaded thread (no turns, so no history) across 50 threads in one server. */
async function memoryPerIdleThread(env: BenchEnv, mock: MockProvider, threads = 50): Promise<{ perThreadKb: number; baseRssMb: number; fullRssMb: number }> {
  const home = env.mockHome(mock.url);
  const peer = spawnAppServer({ cwd: env.repo, home });
  try {
    await initialize(peer);
    // The first thread pays for loading config, harness and provider code.
    await startThread(peer);
    await startThread(peer);
    const base = rssKb(peer.child.pid!);
    for (let i = 2; i < threads; i++) await startThread(peer);
    const full = rssKb(peer.child.pid!);
    return { perThreadKb: (full - base) / (threads - 2), baseRssMb: base / 1024, fullRssMb: full / 1024 };
  } finally {
    await peer.close();
  }
}

export async function benchAppServer(env: BenchEnv, runs: number): Promise<Metric[]> {
  const mock = await startMockProvider();
  try {
    const appServer = await appServerTurnToRequest(env, mock, runs);
    const appServerMs = appServer.warm;
    const execMs = await execTurnToRequest(env, mock, runs);
    const memory = await memoryPerIdleThread(env, mock);
    return [
      { key: 'app_server.turn_to_request_ms', label: 'app-server turn/start -> model request (warm)', value: appServerMs, unit: 'ms' },
      { key: 'app_server.fresh_thread_turn_to_request_ms', label: "app-server turn/start -> request, a new thread's first turn", value: appServer.fresh, unit: 'ms' },
      { key: 'app_server.exec_turn_to_request_ms', label: '`rig exec --json` turn.started -> model request', value: execMs, unit: 'ms' },
      { key: 'app_server.turn_to_request_vs_exec_ms', label: 'app-server turn/start -> request, minus rig exec', value: appServerMs - execMs, unit: 'ms', target: 5 },
      {
        key: 'app_server.idle_thread_kb',
        label: 'app-server memory per idle loaded thread (50 threads)',
        value: memory.perThreadKb / 1024,
        unit: 'MB',
        target: 1,
        note: `RSS ${memory.baseRssMb.toFixed(1)} MB with 2 threads, ${memory.fullRssMb.toFixed(1)} MB with 50`,
      },
    ];
  } finally {
    await mock.close();
  }
}
