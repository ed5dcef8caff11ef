// MCP figures (bench/main.ts loads this module when it is there):
//   benchMcpStart         5 stdio servers started together: the wall time from start() to all
//                         ready, minus the slowest server's own time to answer initialize in
//                         that same run (its uptime then, boot included, as it reports it): what
//                         rig adds on top of the servers (target: within 30 ms). For scale, the
//                         slowest server started alone is shown too, with the same difference for
//                         it alone (spawn, exec and Node's own boot before the server's clock runs).
//                         And the same through the engine: a thread started with the 5 servers
//                         (all required, so the start waits for every one) against one without
//                         servers, minus the slowest server's own time measured in the manager
//                         runs (the thread's own runs do not report it), so it has no target: it
//                         also counts the thread's set-up competing with five booting servers.
//   benchMcpCallOverhead  a tools/call round trip minus the time the server spent on it, i.e.
//                         what rig's client, the SDK and the pipe add per call (target: <= 2 ms);
//                         and the same call as a thread makes it: through the orchestrator's
//                         pipeline (approval decision, mcp_tool_call item events, result mapping)
// Both use test/mcp/fixtures/tiny-server.mjs (no SDK in the server), so the figures are rig's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function tiny(delayMs: number) {
  return { command: process.execPath, args: [TINY], env: { TINY_INIT_DELAY_MS: String(delayMs) }, required: true };
}

/** Wall time of start(), and the slowest server's own initialize time in that run. */
async function timedStart(tables: Record<string, ReturnType<typeof tiny>>): Promise<{ wallMs: number; ownMs: number }> {
  const manager = await createMcpManager({ servers: resolveMcpServers(tables), cwd: repo });
  const began = performance.now();
  try {
    await manager.start();
    const wallMs = performance.now() - began;
    const own = manager.states().map((s) => ('instructions' in s && s.instructions ? (JSON.parse(s.instructions) as { readyAtMs: number }).readyAtMs : 0));
    return { wallMs, ownMs: Math.max(...own) };
  } finally {
    await manager.close();
  }
}

/** Never asked anything: starting a thread sends no request. */
const idleClient = { wire: 'responses', buildBody: () => ({}), stream: () => (async function* () {})() } as unknown as ModelClient;

/** Wall time of engine.startThread in a fresh RIG_HOME whose config has `servers`. */
async function timedThreadStart(servers: Record<string, ReturnType<typeof tiny>>): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'rig-bench-mcp-'));
  const tables = Object.entries(servers).map(([name, s]) =>
    [`[mcp_servers.${name}]`, `command = ${JSON.stringify(s.command)}`, `args = ${JSON.stringify(s.args)}`, 'required = true', `env = { TINY_INIT_DELAY_MS = ${JSON.stringify(s.env.TINY_INIT_DELAY_MS)} }`].join('\n'),
  );
  writeFileSync(
    join(home, 'config.toml'),
    ['model_provider = "mock"', 'model = "m"', '[model_providers.mock]', 'name = "Mock"', 'base_url = "http://127.0.0.1:9/v1"', 'wire_api = "responses"', ...tables].join('\n'),
  );
  const engine = new Engine({ home, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home }, modelClient: () => idleClient });
  try {
    const began = performance.now();
    await engine.startThread({ cwd: repo, ephemeral: true, ignoreRules: true });
    return performance.now() - began;
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
  threadOverheadMs: number;
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
  await timedThreadStart({});
  await timedThreadStart(all);
  const bare: number[] = [];
  const five: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await timedThreadStart({}));
    five.push(await timedThreadStart(all));
  }
  const threadNoServersMs = median(bare);
  const threadFiveServersMs = median(five);
  return {
    slowestAloneMs: median(alone),
    aloneOverheadMs: median(aloneOverhead),
    fiveTogetherMs: median(together),
    slowestOwnMs: median(own),
    overheadMs: median(overhead),
    threadNoServersMs,
    threadFiveServersMs,
    // What the servers add to a thread's start beyond the slowest one's own time (its boot included).
    threadOverheadMs: threadFiveServersMs - threadNoServersMs - median(own),
  };
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
