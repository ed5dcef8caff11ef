// Stdio servers are launched slowest first, by the times of earlier starts kept in RIG_HOME
// (src/mcp/launch-order.ts): spawn() is synchronous, so the last server launched starts last.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpStdioServer } from '../../src/config/index.js';
import { createMcpManager, mcpLaunchTimesFile } from '../../src/mcp/index.js';
import { LaunchTimes } from '../../src/mcp/launch-order.js';
import { tempDir } from '../config/tmp.js';
import { nodeServer, servers, TINY_SERVER } from './support/servers.js';

const stdio = (command: string, ...args: string[]): McpStdioServer =>
  servers({ s: { command, args } })['s'] as McpStdioServer;

describe('LaunchTimes', () => {
  it('orders servers never seen first (in config order), then the slowest first', () => {
    const file = path.join(tempDir(), 'launch-times.json');
    const known = LaunchTimes.load(file);
    const a = stdio('a');
    const b = stdio('b');
    const c = stdio('c');
    const d = stdio('d');
    known.record('a', a, 50);
    known.record('b', b, 400);
    known.record('d', d, 120);
    const order = known.order([['a', a], ['b', b], ['c', c], ['d', d]]).map(([name]) => name);
    expect(order).toEqual(['c', 'b', 'd', 'a']);
  });

  it('round-trips through its file, keeping a slow start and letting it fade', async () => {
    const file = path.join(tempDir(), 'mcp', 'launch-times.json');
    const server = stdio('node', 'server.js');
    const first = LaunchTimes.load(file);
    first.record('s', server, 100);
    await first.save();
    const second = LaunchTimes.load(file);
    expect(second.knownMs('s', server)).toBe(100);
    second.record('s', server, 300);
    await second.save();
    expect(LaunchTimes.load(file).knownMs('s', server)).toBe(300);
    // Faster starts after it bring the time down step by step (x0.8), not at once.
    const third = LaunchTimes.load(file);
    third.record('s', server, 50);
    expect(third.knownMs('s', server)).toBe(240);
    third.record('s', server, 50);
    expect(third.knownMs('s', server)).toBe(192);
    await third.save();
    // No temp file is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['launch-times.json']);
  });

  it('forgets a time when the server under that name is launched differently', () => {
    const times = LaunchTimes.load(undefined);
    times.record('s', stdio('node', 'old.js'), 500);
    expect(times.knownMs('s', stdio('node', 'old.js'))).toBe(500);
    expect(times.knownMs('s', stdio('node', 'new.js'))).toBeUndefined();
  });

  it('ignores a malformed file, and the next save replaces it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'launch-times.json');
    const server = stdio('x');
    for (const text of ['{not json', 'null', '[]', '{"servers": {"s": {"launch": 3, "ms": "slow"}}}']) {
      fs.writeFileSync(file, text);
      expect(LaunchTimes.load(file).knownMs('s', server)).toBeUndefined();
    }
    const times = LaunchTimes.load(file);
    times.record('s', server, 42);
    await times.save();
    expect(LaunchTimes.load(file).knownMs('s', server)).toBe(42);
  });

  it('never brings back a RIG_HOME that was removed, and does not reject', async () => {
    const home = path.join(tempDir(), 'home');
    fs.mkdirSync(home);
    const times = LaunchTimes.load(mcpLaunchTimesFile(home));
    times.record('s', stdio('x'), 10);
    fs.rmSync(home, { recursive: true });
    await expect(times.save()).resolves.toBeUndefined();
    expect(fs.existsSync(home)).toBe(false);
  });
});

/** The server names in the order their processes were spawned (each server's last arg is its name). */
async function startAndSeeLaunchOrder(home: string, delays: Record<string, number>): Promise<string[]> {
  const spawned: string[] = [];
  const tables = Object.fromEntries(
    Object.entries(delays).map(([name, delay]) => [name, nodeServer(TINY_SERVER, { env: { TINY_INIT_DELAY_MS: String(delay) }, required: true }, [name])]),
  );
  const manager = await createMcpManager({
    servers: servers(tables),
    cwd: home,
    launchTimesFile: mcpLaunchTimesFile(home),
    processHooks: {
      // spawn() returns after the child's exec, so its command line is already the server's.
      onSpawn: (pid) => spawned.push(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).at(-1)!),
    },
  });
  try {
    await manager.start();
  } finally {
    await manager.close();
  }
  return spawned;
}

describe.runIf(process.platform === 'linux')('a manager with a launch-times file', () => {
  it('launches in config order at first, then the slowest first, and keeps the times in RIG_HOME', async () => {
    const home = tempDir();
    const delays = { quick: 0, slow: 500, middle: 250 };
    expect(await startAndSeeLaunchOrder(home, delays)).toEqual(['quick', 'slow', 'middle']);
    const saved = JSON.parse(fs.readFileSync(mcpLaunchTimesFile(home), 'utf8')) as { servers: Record<string, { ms: number }> };
    expect(Object.keys(saved.servers).sort()).toEqual(['middle', 'quick', 'slow']);
    // Each time covers the server's own initialize delay.
    expect(saved.servers['slow']!.ms).toBeGreaterThanOrEqual(500);
    expect(saved.servers['middle']!.ms).toBeGreaterThanOrEqual(250);
    expect(await startAndSeeLaunchOrder(home, delays)).toEqual(['slow', 'middle', 'quick']);
  });
});
