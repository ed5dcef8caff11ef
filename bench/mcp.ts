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
//                         (target: within 30 ms) -- in this process, where the SDK is already
//                         loaded; and `rig exec` itself (dist/, the SDK's import inside its start):
//                         spawn to first model request with the servers, minus without, minus the
//                         slowest server's own time (target: within 30 ms). Homes are kept across
//                         a series, as a user's RIG_HOME is (rig launches the slowest server first
//                         by the times it keeps there).
//   benchMcpCallOverhead  a tools/call round trip minus the time the server spent on it, i.e.
//                         what rig's client, the SDK and the pipe add per call (target: <= 2 ms);
//                         and the same call as a thread makes it: through the orchestrator's
//                         pipeline (approval decision, mcp_tool_call item events, result mapping)
// Both use test/mcp/fixtures/tiny-server.mjs (no SDK in the server), so the figures are rig's.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Engine } from '../src/core/engine.js';
import type { ModelClient } from '../src/model/types.js';
import { resolveMcpServers } from '../src/config/index.js';
import { createMcpManager } from '../src/mcp/index.js';
import { ThreadMcp } from '../src/tools/mcp/session.js';
import { callMcpTool } from '../src/tools/orchestrator/mcp-call.js';
import type { OrchestratorOptions } from '../src/tools/orchestrator/index.js';
import type { TurnServices } from '../src/tools/spec.js';
import { startMockProvider } from '../test/support/mock-provider/index.js';
import { tempRigHome } from '../test/support/workspace.js';

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

/**
 * Wall time of start(), and the slowest server's own initialize time in that run. `launchTimesFile`
 * is kept across a series, as a user's RIG_HOME keeps it: starts after the first launch the
 * slowest server first.
 */
async function timedStart(tables: Record<string, ReturnType<typeof tiny>>, launchTimesFile: string): Promise<{ wallMs: number; ownMs: number }> {
  // From before the manager exists: it launches stdio servers as it is created.
  const began = performance.now();
  const manager = await createMcpManager({ servers: resolveMcpServers(tables), cwd: repo, launchTimesFile });
  try {
    await manager.start();
    const wallMs = performance.now() - began;
    const own = manager.states().map((s) => ('instructions' in s && s.instructions ? ownMs(JSON.parse(s.instructions) as TinyReport) : 0));
    return { wallMs, ownMs: Math.max(...own) };
  } finally {
    await manager.close();
  }
}

/** config.toml tables for one required tiny server per delay, each reporting its start to `reports`. */
function tinyServerTables(delays: readonly number[], reports: string): string[] {
  return delays.map((delay, i) =>
    [
      `[mcp_servers.s${i}]`,
      `command = ${JSON.stringify(process.execPath)}`,
      `args = ${JSON.stringify([TINY])}`,
      'required = true',
      `env = { TINY_INIT_DELAY_MS = "${delay}", TINY_REPORT_FILE = ${JSON.stringify(reports)} }`,
    ].join('\n'),
  );
}

/** The slowest server's own start time in the run that wrote `reports`; throws unless all `expected` reported. */
function reportedOwnMs(reports: string, expected: number): number {
  const own = existsSync(reports) ? readFileSync(reports, 'utf8').trim().split('\n').filter(Boolean).map((line) => ownMs(JSON.parse(line) as TinyReport)) : [];
  if (own.length !== expected) throw new Error(`${own.length} of ${expected} servers reported their start`);
  return Math.max(0, ...own);
}

/** Never asked anything: starting a thread sends no request. */
const idleClient = { wire: 'responses', buildBody: () => ({}), stream: () => (async function* () {})() } as unknown as ModelClient;

/**
 * Wall time of engine.startThread in `home` (kept across a series, as a user's RIG_HOME is, with
 * what rig remembers there), its config set to a tiny server for each of `delays`, and the slowest
 * one's own time in that run.
 */
async function timedThreadStart(delays: readonly number[], home: string): Promise<{ wallMs: number; ownMs: number }> {
  const reports = join(home, 'reports.jsonl');
  rmSync(reports, { force: true });
  const tables = tinyServerTables(delays, reports);
  writeFileSync(
    join(home, 'config.toml'),
    ['model_provider = "mock"', 'model = "m"', '[model_providers.mock]', 'name = "Mock"', 'base_url = "http://127.0.0.1:9/v1"', 'wire_api = "responses"', ...tables].join('\n'),
  );
  const engine = new Engine({ home, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home }, modelClient: () => idleClient });
  try {
    const began = performance.now();
    await engine.startThread({ cwd: repo, ephemeral: true, ignoreRules: true });
    const wallMs = performance.now() - began;
    return { wallMs, ownMs: reportedOwnMs(reports, delays.length) };
  } finally {
    await engine.close();
  }
}

/** A RIG_HOME for a series of thread starts, removed after `run`. */
async function withHome<T>(run: (home: string) => Promise<T>): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'rig-bench-mcp-'));
  try {
    return await run(home);
  } finally {
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
  execFiveServersMs: number;
  execOverheadMs: number;
  plainClientOverheadMs: number;
}> {
  const all = Object.fromEntries(INIT_DELAYS_MS.map((d, i) => [`s${i}`, tiny(d)]));
  const slowest = { s: tiny(Math.max(...INIT_DELAYS_MS)) };
  const alone: number[] = [];
  const aloneOverhead: number[] = [];
  const together: number[] = [];
  const own: number[] = [];
  const overhead: number[] = [];
  await withHome(async (home) => {
    const launchTimes = join(home, 'launch-times.json');
    await timedStart(slowest, launchTimes);
    await timedStart(all, launchTimes);
    for (let i = 0; i < runs; i++) {
      const single = await timedStart(slowest, launchTimes);
      alone.push(single.wallMs);
      aloneOverhead.push(single.wallMs - single.ownMs);
      const run = await timedStart(all, launchTimes);
      together.push(run.wallMs);
      own.push(run.ownMs);
      overhead.push(run.wallMs - run.ownMs);
    }
  });
  const bare: number[] = [];
  const five: number[] = [];
  const fiveOwn: number[] = [];
  const threadOverhead: number[] = [];
  await withHome(async (bareHome) =>
    withHome(async (fiveHome) => {
      await timedThreadStart([], bareHome);
      await timedThreadStart(INIT_DELAYS_MS, fiveHome);
      for (let i = 0; i < runs; i++) {
        const without = (await timedThreadStart([], bareHome)).wallMs;
        const withFive = await timedThreadStart(INIT_DELAYS_MS, fiveHome);
        bare.push(without);
        five.push(withFive.wallMs);
        fiveOwn.push(withFive.ownMs);
        threadOverhead.push(withFive.wallMs - without - withFive.ownMs);
      }
    }),
  );
  const exec = await execFirstRequest(runs);
  const plain = await plainClientStart(runs);
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
    execFiveServersMs: median(exec.five),
    execOverheadMs: median(exec.overhead),
    plainClientOverheadMs: median(plain),
  };
}

/**
 * `rig exec` as a user runs it (the built dist/, SDK import included): spawn to the first model
 * request with the 5 servers (all required, so the request waits for every one), minus the same
 * without servers, minus the slowest server's own time in that run. Each series keeps its RIG_HOME,
 * as a user's is kept; the first run of each is a warm-up.
 */
async function execFirstRequest(runs: number): Promise<{ five: number[]; overhead: number[] }> {
  const mock = await startMockProvider();
  const reports = join(mkdtempSync(join(tmpdir(), 'rig-bench-mcp-reports-')), 'reports.jsonl');
  const servers = tinyServerTables(INIT_DELAYS_MS, reports);
  const bareHome = tempRigHome({ url: mock.url });
  const fiveHome = tempRigHome({ url: mock.url, extra: servers.join('\n') });
  const workspace = mkdtempSync(join(tmpdir(), 'rig-bench-mcp-cwd-'));
  const firstRequest = async (home: string): Promise<number> => {
    mock.enqueue({ text: 'ok' });
    const arrived = mock.waitForRequest(mock.requests.length + 1, 30_000);
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-bench-0123456789' };
    const began = performance.now();
    const child = spawn(process.execPath, [join(repo, 'bin', 'rig.js'), 'exec', '--skip-git-repo-check', '--color', 'never', 'say ok'], { cwd: workspace, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
    if (code !== 0) throw new Error(`rig exec with MCP servers failed: ${stderr}`);
    return (await arrived).receivedAt - began;
  };
  const five: number[] = [];
  const overhead: number[] = [];
  try {
    for (let i = 0; i <= runs; i++) {
      const without = await firstRequest(bareHome);
      rmSync(reports, { force: true });
      const withFive = await firstRequest(fiveHome);
      const slowestOwn = reportedOwnMs(reports, INIT_DELAYS_MS.length);
      if (i === 0) continue;
      five.push(withFive);
      overhead.push(withFive - without - slowestOwn);
    }
  } finally {
    await mock.close();
    for (const dir of [bareHome, fiveHome, workspace, dirname(reports)]) rmSync(dir, { recursive: true, force: true });
  }
  return { five, overhead };
}

/**
 * For scale: the same 5 servers launched by a plain Node script (spawn() in config order, then
 * initialize; no rig, no SDK), with the same difference. It is this machine's cost of starting 5
 * Node processes at once from Node, whatever the client.
 */
async function plainClientStart(runs: number): Promise<number[]> {
  const script = join(repo, 'bench', 'mcp-plain-client.mjs');
  const overheads: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const run = spawnSync(process.execPath, [script, TINY, ...INIT_DELAYS_MS.map(String)], { cwd: repo, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`the plain MCP client failed: ${run.stderr}`);
    if (i > 0) overheads.push((JSON.parse(run.stdout) as { overheadMs: number }).overheadMs);
  }
  return overheads;
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
