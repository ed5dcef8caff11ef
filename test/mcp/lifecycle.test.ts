// Server lifecycle against the fixture server (real child processes): late starters, required
// failures with their stderr, timeouts, crashes and restarts, list_changed, cancellation, and no
// process left behind by close().
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpManager, McpStartupError, mapMcpResult, probeMcpServers, type McpConnectionManager, type McpEvent } from '../../src/mcp/index.js';
import { tempDir } from '../config/tmp.js';
import { alive, FIXTURE_SERVER, nextEvent, nodeServer, servers, TINY_SERVER } from './support/servers.js';

const open: McpConnectionManager[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

async function manager(options: Parameters<typeof createMcpManager>[0]): Promise<McpConnectionManager> {
  const m = await createMcpManager(options);
  open.push(m);
  return m;
}

const fixture = (extra: Parameters<typeof nodeServer>[1] = {}) => nodeServer(FIXTURE_SERVER, extra);

describe('startup', () => {
  it('all servers start at once; an optional late starter misses the grace and joins later', async () => {
    const events: McpEvent[] = [];
    // quick is the SDK-free tiny server (up in well under a second); late waits 4 s.
    const m = await manager({
      servers: servers({ quick: nodeServer(TINY_SERVER), late: fixture({ env: { FIXTURE_START_DELAY_MS: '4000' } }) }),
      cwd: tempDir(),
      optionalStartupGraceMs: 2000,
    });
    m.onEvent((e) => events.push(e));
    const joined = nextEvent(m, (e) => e.type === 'server_status' && e.server === 'late' && e.status === 'ready');
    const summary = await m.start();
    expect(summary.pending).toEqual(['late']);
    expect(summary.ready).toEqual(['quick']);
    expect(m.tools().every((t) => t.server === 'quick')).toBe(true);
    await joined;
    expect(m.tools().some((t) => t.server === 'late' && t.name === 'echo')).toBe(true);
    // Both were starting before either was ready: concurrent, not one after the other.
    const starting = events.filter((e) => e.type === 'server_status' && e.status === 'starting').map((e) => e.server);
    expect(starting.sort()).toEqual(['late', 'quick']);
    expect(events.findIndex((e) => e.type === 'server_status' && e.status === 'starting' && e.server === 'late')).toBeLessThan(
      events.findIndex((e) => e.type === 'server_status' && e.status === 'ready'),
    );
  });

  it('a required late starter is waited for', async () => {
    const m = await manager({ servers: servers({ late: fixture({ required: true, env: { FIXTURE_START_DELAY_MS: '600' } }) }), cwd: tempDir(), optionalStartupGraceMs: 10 });
    expect(await m.start()).toEqual({ ready: ['late'], failed: [], pending: [] });
  });

  it('a required server that fails stops the start with the end of its stderr', async () => {
    const m = await manager({
      servers: servers({ broken: fixture({ required: true, env: { FIXTURE_FAIL_START: 'cannot open the database at /srv/db' } }), ok: fixture() }),
      cwd: tempDir(),
    });
    const error = await m.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpStartupError);
    expect((error as McpStartupError).failures.map((f) => f.server)).toEqual(['broken']);
    expect((error as Error).message).toMatch(
      /^required MCP server "broken" failed to start: the server exited with code 1 before it was ready\nlast stderr of the server:\nfixture: cannot open the database at \/srv\/db\n/,
    );
    expect((error as Error).message).toContain('set required = false');
  });

  it('an optional server that fails is reported, and the others work', async () => {
    const m = await manager({ servers: servers({ broken: { command: '/nonexistent/mcp-server' }, ok: fixture({ required: true }) }), cwd: tempDir() });
    const summary = await m.start();
    expect(summary.ready).toEqual(['ok']);
    expect(summary.failed).toEqual([{ server: 'broken', reason: expect.stringMatching(/^failed to start: cannot start `\/nonexistent\/mcp-server`: spawn \/nonexistent\/mcp-server ENOENT \(no such program/) }]);
  });

  it('a server slower than startup_timeout_sec fails with the setting named', async () => {
    const m = await manager({ servers: servers({ slow: fixture({ startup_timeout_sec: 0.3, env: { FIXTURE_START_DELAY_MS: '5000' } }) }), cwd: tempDir(), optionalStartupGraceMs: 10 });
    const failed = nextEvent(m, (e) => e.type === 'server_status' && e.status === 'failed');
    await m.start();
    expect(await failed).toMatchObject({ reason: expect.stringContaining('failed to start: no answer within 0.3 s (startup_timeout_sec)') });
  });
});

describe('calls', () => {
  it('a call past tool_timeout_sec fails with the configured timeout, not the SDK default', async () => {
    const m = await manager({ servers: servers({ f: fixture({ tool_timeout_sec: 0.3 }) }), cwd: tempDir() });
    await m.start();
    const outcome = await m.callTool('f', 'sleep', { ms: 3000 });
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'timeout',
      message: 'MCP tool f.sleep timed out: no result and no progress for 0.3 s (tool_timeout_sec of this server); it may still be running on the server',
    });
    expect(outcome.durationMs).toBeLessThan(2500);
  });

  it('progress from the fixture restarts the timeout too', async () => {
    // 2 s in all, progress every 0.4 s, a 1 s window.
    const m = await manager({ servers: servers({ f: fixture({ tool_timeout_sec: 1 }) }), cwd: tempDir() });
    await m.start();
    const outcome = await m.callTool('f', 'progress', { steps: 5, every_ms: 400 });
    expect(outcome.ok && mapMcpResult(outcome.result).output).toBe('done after 5 steps');
  });

  it('an interrupt cancels the call', async () => {
    const m = await manager({ servers: servers({ f: fixture() }), cwd: tempDir() });
    await m.start();
    const controller = new AbortController();
    const pending = m.callTool('f', 'sleep', { ms: 20_000 }, { signal: controller.signal });
    controller.abort(new Error('interrupted'));
    expect(await pending).toMatchObject({ ok: false, kind: 'cancelled' });
  });

  it('a server that crashes mid-call: the call fails clearly, the crash is reported, the next call restarts it', async () => {
    const pidFile = path.join(tempDir(), 'pids');
    const m = await manager({
      servers: servers({ f: fixture({ env: { FIXTURE_PID_FILE: pidFile } }) }),
      cwd: tempDir(),
      restartBackoff: { initialMs: 50, maxMs: 200 },
    });
    await m.start();
    const first = await m.callTool('f', 'whoami', {});
    const failed = nextEvent(m, (e) => e.type === 'server_status' && e.status === 'failed');
    const crash = await m.callTool('f', 'crash', { code: 3 });
    expect(crash).toMatchObject({ ok: false, kind: 'crashed' });
    expect(!crash.ok && crash.message).toMatch(/^MCP server "f" stopped during the call to crash: exited with code 3; rig restarts it on the next call\nlast stderr of the server:\n(.|\n)*fixture: about to crash on purpose$/);
    expect(await failed).toMatchObject({ server: 'f', reason: expect.stringContaining('exited with code 3') });
    // Its tools stay offered, so the model's next call can reach it.
    expect(m.tools().some((t) => t.name === 'whoami')).toBe(true);
    const second = await m.callTool('f', 'whoami', {});
    expect(second.ok).toBe(true);
    const pid = (o: typeof first) => (o.ok ? mapMcpResult(o.result).output : '');
    expect(pid(second)).not.toBe(pid(first));
    expect(fs.readFileSync(pidFile, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(m.states()[0]).toMatchObject({ status: 'ready' });
  });

  it('restarts back off: 1, 2, 4 ... times the initial delay, up to the maximum', async () => {
    const m = await manager({ servers: servers({ f: fixture() }), cwd: tempDir(), restartBackoff: { initialMs: 40, maxMs: 100 } });
    await m.start();
    const connection = m.connection('f');
    expect(connection.restartDelayMs()).toBe(0);
    await m.callTool('f', 'crash', { code: 1 });
    const afterOne = connection.restartDelayMs(0);
    await m.callTool('f', 'crash', { code: 1 });
    await m.callTool('f', 'crash', { code: 1 });
    // Measured from the last failure: at that instant the full delay remains.
    const third = connection as unknown as { lastFailureAt: number };
    expect(connection.restartDelayMs(third.lastFailureAt)).toBe(100);
    expect(afterOne).toBeGreaterThan(0);
  });

  it('tools/list_changed from the server updates the list between calls', async () => {
    const m = await manager({ servers: servers({ f: fixture() }), cwd: tempDir() });
    await m.start();
    expect(m.tools().some((t) => t.name === 'late_tool')).toBe(false);
    const changed = nextEvent(m, (e) => e.type === 'tools_changed' && m.tools().some((t) => t.name === 'late_tool'));
    await m.callTool('f', 'add_tool', {});
    await changed;
    const late = await m.callTool('f', 'late_tool', {});
    expect(late.ok && mapMcpResult(late.result).output).toBe('late');
  });

  it('enabled_tools and disabled_tools filter the list; unknown tools and servers are clear errors', async () => {
    const m = await manager({ servers: servers({ f: fixture({ required: true, enabled_tools: ['echo', 'sleep', 'big'], disabled_tools: ['sleep'] }), off: fixture({ enabled: false }) }), cwd: tempDir() });
    await m.start();
    expect(m.tools().map((t) => t.name).sort()).toEqual(['big', 'echo']);
    expect(await m.callTool('f', 'sleep', { ms: 1 })).toMatchObject({ ok: false, kind: 'unknown_tool', message: 'MCP server "f" has no tool "sleep"' });
    expect(await m.callTool('off', 'echo', {})).toMatchObject({ ok: false, message: 'MCP server "off" is disabled (enabled = false in config.toml)' });
    expect(await m.callTool('nope', 'echo', {})).toMatchObject({ ok: false, message: 'unknown MCP server "nope" (configured: f)' });
    expect(m.states().map((s) => [s.server, s.status])).toEqual([['f', 'ready'], ['off', 'disabled']]);
  });

  it('oversized results are cut with a marker', async () => {
    const m = await manager({ servers: servers({ f: fixture() }), cwd: tempDir() });
    await m.start();
    const big = await m.callTool('f', 'big', { bytes: 200_000 });
    const mapped = big.ok ? mapMcpResult(big.result, { maxOutputBytes: 1000 }) : undefined;
    expect(mapped?.truncated).toBe(true);
    expect(mapped?.output).toBe(`${'x'.repeat(1000)}\n[... MCP output truncated: 199000 of 200000 bytes omitted ...]`);
  });
});

describe('close', () => {
  it('kills the server and everything it started: no orphans', async () => {
    const m = await manager({ servers: servers({ f: fixture() }), cwd: tempDir() });
    await m.start();
    const spawned = await m.callTool('f', 'spawn_child', {});
    const grandchild = Number(spawned.ok ? mapMcpResult(spawned.result).output : NaN);
    expect(alive(grandchild)).toBe(true);
    const server = m.connection('f') as unknown as { transport: { pid: number } };
    const serverPid = server.transport.pid;
    await m.close();
    expect(alive(serverPid)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });
});

describe('doctor probe', () => {
  it('starts each configured server once and reports status and tool count', async () => {
    const probes = await probeMcpServers(servers({ good: fixture(), bad: fixture({ env: { FIXTURE_FAIL_START: 'no token' } }), off: fixture({ enabled: false }) }), { cwd: tempDir() });
    expect(probes.map((p) => [p.server, p.status, p.toolCount])).toEqual([
      ['bad', 'failed', 0],
      ['good', 'ready', 11],
      ['off', 'disabled', 0],
    ]);
    expect(probes[0]!.reason).toContain('fixture: no token');
    expect(probes[1]!.startupMs).toBeGreaterThan(0);
  });
});
