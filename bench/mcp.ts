// MCP figures (bench/main.ts loads this module when it is there):
//   benchMcpStart         5 stdio servers started together: the wall time from start() to all
//                         ready, minus the slowest server's own time to answer initialize in
//                         that same run (its uptime then, boot included, as it reports it): what
//                         rig adds on top of the servers (target: within 30 ms). For scale, the
//                         slowest server started alone is shown too, with the same difference for
//                         it alone (spawn, exec and Node's own boot before the server's clock runs).
//   benchMcpCallOverhead  a tools/call round trip minus the time the server spent on it, i.e.
//                         what rig's client, the SDK and the pipe add per call (target: <= 2 ms)
// Both use test/mcp/fixtures/tiny-server.mjs (no SDK in the server), so the figures are rig's.
import { join } from 'node:path';
import { resolveMcpServers } from '../src/config/index.js';
import { createMcpManager } from '../src/mcp/index.js';

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

export async function benchMcpStart(
  runs = 7,
): Promise<{ slowestAloneMs: number; aloneOverheadMs: number; fiveTogetherMs: number; slowestOwnMs: number; overheadMs: number }> {
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
  return { slowestAloneMs: median(alone), aloneOverheadMs: median(aloneOverhead), fiveTogetherMs: median(together), slowestOwnMs: median(own), overheadMs: median(overhead) };
}

export async function benchMcpCallOverhead(calls = 300): Promise<{ callWallMs: number; serverMs: number; overheadMs: number }> {
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
