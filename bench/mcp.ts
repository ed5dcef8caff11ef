// MCP figures (bench/main.ts loads this module when it is there):
//   benchMcpStart         5 stdio servers started together: the wall time from creating the
//                         manager (which launches them) to all ready, minus the slowest server's own time to answer initialize in
//                         that same run (its uptime then, boot included, as it reports it): what
//                         rig adds on top of the servers (target: within 30 ms). For scale, the
//                         slowest server started alone is shown too, with the same difference for
//                         it alone (spawn, exec and Node's own boot before the server's clock runs).
//                         A server's own time is its boot (until it reads stdin) plus its
//                         initialize time: any time it spent waiting for rig to send initialize
//                         counts as rig's. And the same through the engine: a thread started with
//                         the 5 servers (all required, so the start waits for every one) minus one
//                         without servers minus the slowest server's own time in that same run
//                         (target: within 30 ms) -- once in this process, where the SDK is already
//                         loaded, and once in a fresh process, as `rig exec` starts (the SDK's
//                         import, ~150 ms, then falls inside the thread's start).
//   benchMcpCallOverhead  a tools/call round trip minus the time the server spent on it, i.e.
//                         what rig's client, the SDK and the pipe add per call (target: <= 2 ms);
//                         and the same call as a thread makes it: through the orchestrator's
//                         pipeline (approval decision, mcp_tool_call item events, result mapping)
// Both use test/mcp/fixtures/tiny-server.mjs (no SDK in the server), so the figures are rig's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Engine } from '../src/core/engine.js';
import type { ModelClient } from '../src/model/types.js';
import { resolveMcpServers } from '../src/config/index.js';
import { createMcpManager } from '../src/mcp/index.js';
import { ThreadMcp } from '../src/tools/mcp/session.js';
import { callMcpTool } from '../src/tools/orchestrator/mcp-call.js';
import type { OrchestratorOptions } from '../src/tools/orchestrator/index.js';
import type { TurnServices } from '../src/tools/spec.js';

const repo = process.env['RIG_BENCH_REPO'] ?? process.cwd();
const TINY = join(repo, 'test', 'mcp', 'fixtures', 'tiny-server.mjs');
/** Each server's own initialize time (the server waits this long before answering). */
const INIT_DELAYS_MS = [120, 150, 180, 210, 240];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function tiny(delayMs: number, reportFile?: string) {
  const env: Record<string, string> = { TINY_INIT_DELAY_MS: String(delayMs), ...(reportFile ? { TINY_REPORT_FILE: reportFile } : {}) };
  return { command: process.execPath, args: [TINY], env, required: true };
}

interface TinyReport {
  readyAtMs: number;
  listeningAtMs: number;
  initReceivedAtMs: number;
}

/** A server's own time: its uptime when it answered initialize, less any wait for rig to ask. */
function ownMs(report: TinyReport): number {
  return report.readyAtMs - (report.initReceivedAtMs - report.listeningAtMs);
}

/** Wall time of start(), and the slowest server's own initialize time in that run. */
async function timedStart(tables: Record<string, ReturnType<typeof tiny>>): Promise<{ wallMs: number; ownMs: number }> {
  // From before the manager exists: it launches stdio servers as it is created.
  const began = performance.now();
  const manager = await createMcpManager({ servers: resolveMcpServers(tables), cwd: repo });
  try {
    await manager.start();
    const wallMs = performance.now() - began;
    const own = manager.states().map((s) => ('instructions' in s && s.instructions ? ownMs(JSON.parse(s.instructions) as TinyReport) : 0));
    return { wallMs, ownMs: Math.max(...own) };
  } finally {
    await manager.close();
  }
}

/** Never asked anything: starting a thread sends no request. */
const idleClient = { wire: 'responses', buildBody: () => ({}), stream: () => (async function* () {})() } as unknown as ModelClient;

/**
 * Wall time of engine.startThread in a fresh RIG_HOME whose config has a tiny server for each of
 * `delays`, and the slowest one's own time in that run.
 */
async function timedThreadStart(delays: readonly number[]): Promise<{ wallMs: number; ownMs: number }> {
  const home = mkdtempSync(join(tmpdir(), 'rig-bench-mcp-'));
  const reports = join(home, 'reports.jsonl');
  const tables = delays.map((delay, i) =>
    [
      `[mcp_servers.s${i}]`,
      `command = ${JSON.stringify(process.execPath)}`,
      `args = ${JSON.stringify([TINY])}`,
      'required = true',
      `env = { TINY_INIT_DELAY_MS = "${delay}", TINY_REPORT_FILE = ${JSON.stringify(reports)} }`,
    ].join('\n'),
  );
  writeFileSync(
    join(home, 'config.toml'),
    ['model_provider = "mock"', 'model = "m"', '[model_providers.mock]', 'name = "Mock"', 'base_url = "http://127.0.0.1:9/v1"', 'wire_api = "responses"', ...tables].join('\n'),
  );
  const engine = new Engine({ home, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home }, modelClient: () => idleClient });
  try {
    const began = performance.now();
    await engine.startThread({ cwd: repo, ephemeral: true, ignoreRules: true });
    const wallMs = performance.now() - began;
    const own = existsSync(reports) ? readFileSync(reports, 'utf8').trim().split('\n').map((line) => ownMs(JSON.parse(line) as TinyReport)) : [];
    if (own.length !== delays.length) throw new Error(`${own.length} of ${delays.length} servers reported their start`);
    return { wallMs, ownMs: Math.max(0, ...own) };
  } finally {
    await engine.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchMcpStart(
  runs = 7,
): Promise<{
  slowestAloneMs: number;
  aloneOverheadMs: number;
  fiveTogetherMs: number;
  slowestOwnMs: number;
  overheadMs: number;
  threadNoServersMs: number;
  threadFiveServersMs: number;
  threadSlowestOwnMs: number;
  threadOverheadMs: number;
  coldThreadFiveServersMs: number;
  coldThreadOverheadMs: number;
}> {
  const all = Object.fromEntries(INIT_DELAYS_MS.map((d, i) => [`s${i}`, tiny(d)]));
  const slowest = { s: tiny(Math.max(...INIT_DELAYS_MS)) };
  await timedStart(slowest);
  await timedStart(all);
  const alone: number[] = [];
  const aloneOverhead: number[] = [];
  const together: number[] = [];
  const own: number[] = [];
  const overhead: number[] = [];
  for (let i = 0; i < runs; i++) {
    const single = await timedStart(slowest);
    alone.push(single.wallMs);
    aloneOverhead.push(single.wallMs - single.ownMs);
    const run = await timedStart(all);
    together.push(run.wallMs);
    own.push(run.ownMs);
    overhead.push(run.wallMs - run.ownMs);
  }
  await timedThreadStart([]);
  await timedThreadStart(INIT_DELAYS_MS);
  const bare: number[] = [];
  const five: number[] = [];
  const fiveOwn: number[] = [];
  const threadOverhead: number[] = [];
  for (let i = 0; i < runs; i++) {
    const without = (await timedThreadStart([])).wallMs;
    const withFive = await timedThreadStart(INIT_DELAYS_MS);
    bare.push(without);
    five.push(withFive.wallMs);
    fiveOwn.push(withFive.ownMs);
    threadOverhead.push(withFive.wallMs - without - withFive.ownMs);
  }
  const cold: number[] = [];
  const coldOverhead: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = coldThreadStart();
    cold.push(run.wallMs);
    coldOverhead.push(run.wallMs - run.bareMs - run.ownMs);
  }
  return {
    slowestAloneMs: median(alone),
    aloneOverheadMs: median(aloneOverhead),
    fiveTogetherMs: median(together),
    slowestOwnMs: median(own),
    overheadMs: median(overhead),
    threadNoServersMs: median(bare),
    threadFiveServersMs: median(five),
    threadSlowestOwnMs: median(fiveOwn),
    // What the servers add to a thread's start beyond the slowest one's own time (its boot included).
    threadOverheadMs: median(threadOverhead),
    coldThreadFiveServersMs: median(cold),
    coldThreadOverheadMs: median(coldOverhead),
  };
}

/**
 * A thread start with the 5 servers in a fresh process, the MCP SDK not loaded yet (as in `rig
 * exec`); the thread start without servers before it, twice (the second is the one compared:
 * everything but the SDK is warm by then).
 */
function coldThreadStart(): { wallMs: number; bareMs: number; ownMs: number } {
  const out = process.env['RIG_BENCH_OUT'];
  if (!out) throw new Error('RIG_BENCH_OUT is not set: run the bench with `npm run bench`');
  const script = `const m = await import(${JSON.stringify(pathToFileURL(join(out, 'mcp.js')).href)}); process.stdout.write(JSON.stringify(await m.coldThreadStartInThisProcess()));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repo, encoding: 'utf8', env: process.env });
  if (run.status !== 0) throw new Error(`cold thread start failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { wallMs: number; bareMs: number; ownMs: number };
}

/** The child's half of coldThreadStart; exported for it only. */
export async function coldThreadStartInThisProcess(): Promise<{ wallMs: number; bareMs: number; ownMs: number }> {
  await timedThreadStart([]);
  const bareMs = (await timedThreadStart([])).wallMs;
  const five = await timedThreadStart(INIT_DELAYS_MS);
  return { wallMs: five.wallMs, bareMs, ownMs: five.ownMs };
}

export async function benchMcpCallOverhead(
  calls = 300,
): Promise<{ callWallMs: number; serverMs: number; overheadMs: number; pipelineWallMs: number; pipelineOverheadMs: number }> {
  const client = await clientOverhead(calls);
  const pipeline = await pipelineOverhead(calls, client.serverMs);
  return { ...client, ...pipeline };
}

/**
 * The call as a thread's tool makes it: orchestrator decision, item events, result mapping. The
 * result item does not keep the server's _meta, so the server's own time is the client run's.
 */
async function pipelineOverhead(calls: number, serverMs: number): Promise<{ pipelineWallMs: number; pipelineOverheadMs: number }> {
  const servers = resolveMcpServers({ tiny: { ...tiny(0), default_tools_approval_mode: 'approve' } });
  const mcp = new ThreadMcp({ servers, cwd: repo, env: process.env, configFiles: [] });
  let items = 0;
  const services: TurnServices = {
    cwd: repo,
    threadId: 'bench',
    signal: new AbortController().signal,
    emit: () => undefined,
    newItemId: () => `item_${items++}`,
    askApproval: () => Promise.resolve({ decision: 'approve' }),
    canAskApproval: false,
  };
  // The MCP runtime reads only the approval policy, the sandbox mode and yolo.
  const options = { approvalPolicy: 'on-request', sandbox: { mode: 'workspace-write' }, yolo: false } as unknown as OrchestratorOptions;
  try {
    await mcp.started;
    const wall: number[] = [];
    for (let i = 0; i < calls + 30; i++) {
      const began = performance.now();
      const result = await callMcpTool({ server: 'tiny', tool: 'echo', arguments: { text: `call ${i}` } }, mcp, options, services);
      const took = performance.now() - began;
      if (!result.success) throw new Error(`echo failed: ${JSON.stringify(result.output)}`);
      if (i >= 30) wall.push(took);
    }
    const pipelineWallMs = median(wall);
    return { pipelineWallMs, pipelineOverheadMs: pipelineWallMs - serverMs };
  } finally {
    await mcp.close();
  }
}

async function clientOverhead(calls: number): Promise<{ callWallMs: number; serverMs: number; overheadMs: number }> {
  const manager = await createMcpManager({ servers: resolveMcpServers({ tiny: tiny(0) }), cwd: repo });
  try {
    await manager.start();
    const wall: number[] = [];
    const server: number[] = [];
    for (let i = 0; i < calls + 30; i++) {
      const began = performance.now();
      const outcome = await manager.callTool('tiny', 'echo', { text: `call ${i}` });
      const took = performance.now() - began;
      if (!outcome.ok) throw new Error(`echo failed: ${outcome.message}`);
      if (i < 30) continue; // warm-up (JIT, SDK schema caches)
      wall.push(took);
      server.push(Number((outcome.result as { _meta?: { serverMs?: number } })._meta?.serverMs ?? 0));
    }
    const callWallMs = median(wall);
    const serverMs = median(server);
    return { callWallMs, serverMs, overheadMs: callWallMs - serverMs };
  } finally {
    await manager.close();
  }
}
