// MCP servers in threads: started with the thread, their tools offered under each harness's
// names, calls through the orchestrator as mcp_tool_call items, late servers, list_changed,
// crashes, timeouts reset by progress.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../config/tmp.js';
import { call, callTools, say } from '../support/scripted-client.js';
import type { McpToolCallItem, ThreadEvent } from '../../src/protocol/index.js';
import { FIXTURE_SERVER, alive } from './support/servers.js';
import { outputFor, outputText, serverToml, startMcpThread, toolNames, type McpThread } from './support/thread.js';

const fixture = (name = 'fixture', extra?: string, env?: Record<string, string>) =>
  serverToml(name, { command: process.execPath, args: [FIXTURE_SERVER], ...(extra ? { extra } : {}), ...(env ? { env } : {}) });

const open: McpThread[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function thread(options: Parameters<typeof startMcpThread>[0]): Promise<McpThread> {
  const t = await startMcpThread(options);
  open.push(t);
  return t;
}

function mcpItems(events: ThreadEvent[]): McpToolCallItem[] {
  return events.flatMap((e) => (e.type === 'item.completed' && e.item.type === 'mcp_tool_call' ? [e.item] : []));
}

describe('MCP tools in threads', () => {
  it('offers the tools as mcp__server__tool in the native harness and runs a call as an mcp_tool_call item', async () => {
    const home = tempDir();
    const t = await thread({
      home,
      cwd: tempDir(),
      toml: fixture('fixture', 'required = true'),
      steps: [callTools(call('mcp__fixture__echo', { text: 'hello' }, 'c1')), say('done')],
    });
    const status = t.events().filter((e) => e.type === 'mcp.server_status');
    expect(status.map((e) => e.type === 'mcp.server_status' && e.status)).toEqual(['starting', 'ready']);
    const result = await t.thread.startTurn({ text: 'echo' }).done;
    expect(result.status).toBe('completed');
    const names = toolNames(t.client.requests[0]);
    expect(names).toEqual(expect.arrayContaining(['mcp__fixture__echo', 'mcp__fixture__sleep', 'list_mcp_resources', 'read_mcp_resource']));
    const echo = t.client.requests[0]!.tools!.find((tool) => tool.name === 'mcp__fixture__echo');
    expect(echo).toMatchObject({ kind: 'function', parameters: { type: 'object', properties: { text: { type: 'string' } } } });
    expect(outputText(outputFor(t.client.requests[1], 'c1'))).toBe('hello');
    const [item] = mcpItems(t.events());
    expect(item).toMatchObject({ server: 'fixture', tool: 'echo', arguments: { text: 'hello' }, status: 'completed', error: null });
    expect(item!.result).toEqual({ content: [{ type: 'text', text: 'hello' }], structured_content: null });
    expect(typeof item!.duration_ms).toBe('number');
  });

  it('defers them behind ToolSearch in claude-code, as Claude Code does', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('my-srv', 'required = true'),
      steps: [
        callTools(call('ToolSearch', { query: 'select:mcp__my-srv__echo' }, 'c0')),
        callTools(call('mcp__my-srv__echo', { text: 'loaded' }, 'c1')),
        say('done'),
      ],
      request: { overrides: { harness: 'claude-code' } },
    });
    await t.thread.startTurn({ text: 'go' }).done;
    expect(toolNames(t.client.requests[0]).some((n) => n.startsWith('mcp__'))).toBe(false);
    expect(outputText(outputFor(t.client.requests[1], 'c0'))).toContain('"name":"mcp__my-srv__echo"');
    expect(toolNames(t.client.requests[1])).toContain('mcp__my-srv__echo');
    expect(toolNames(t.client.requests[1])).not.toContain('mcp__my-srv__sleep');
    expect(outputText(outputFor(t.client.requests[2], 'c1'))).toBe('loaded');
  });

  it('defers them behind tool_search in qwen-code and runs them through tool_call, as Qwen Code does', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('my-srv', 'required = true'),
      steps: [
        callTools(call('tool_search', { query: 'select:mcp__my-srv__echo' }, 'c0')),
        callTools(call('tool_call', { name: 'mcp__my-srv__echo', arguments: { text: 'through tool_call' } }, 'c1')),
        say('done'),
      ],
      request: { overrides: { harness: 'qwen-code' } },
    });
    await t.thread.startTurn({ text: 'go' }).done;
    // Qwen Code's declaration list never changes: MCP tools are found by search, run by tool_call.
    for (const request of t.client.requests) expect(toolNames(request).some((n) => n.startsWith('mcp__'))).toBe(false);
    expect(toolNames(t.client.requests[0])).toEqual(expect.arrayContaining(['tool_search', 'tool_call']));
    const found = outputText(outputFor(t.client.requests[1], 'c0'));
    expect(found).toContain('"name":"mcp__my-srv__echo"');
    expect(found).toContain('"properties":{"text":{"type":"string"}}');
    expect(outputText(outputFor(t.client.requests[2], 'c1'))).toBe('through tool_call');
    const [item] = mcpItems(t.events());
    expect(item).toMatchObject({ server: 'my-srv', tool: 'echo', arguments: { text: 'through tool_call' }, status: 'completed' });
  });

  it.each([
    ['claude-code-bare', 'mcp__my-srv__echo'],
    ['opencode', 'my-srv_echo'],
    ['native', 'mcp__my_srv__echo'],
  ])('names the tools the way %s does', async (harness, expected) => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('my-srv', 'required = true'),
      steps: [callTools(call(expected, { text: 'via ' + harness }, 'c1')), say('done')],
      request: { overrides: { harness } },
    });
    await t.thread.startTurn({ text: 'go' }).done;
    expect(toolNames(t.client.requests[0])).toContain(expected);
    const echo = t.client.requests[0]!.tools!.find((tool) => tool.name === expected);
    // The server's schema as sent; opencode adds additionalProperties: false to every MCP schema.
    const sent = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], $schema: 'http://json-schema.org/draft-07/schema#' };
    // (opencode's profile also drops $schema from every tool, as its requests show.)
    const { $schema: _dropped, ...withoutSchemaUri } = sent;
    expect(echo).toMatchObject({ parameters: harness === 'opencode' ? { ...withoutSchemaUri, additionalProperties: false } : sent });
    if (harness !== 'opencode') expect(echo && 'parameters' in echo && 'additionalProperties' in echo.parameters).toBe(false);
    expect(outputText(outputFor(t.client.requests[1], 'c1'))).toBe(`via ${harness}`);
  });

  it('refuses to start when a required server fails, with its stderr', async () => {
    const home = tempDir();
    const started = startMcpThread({
      home,
      cwd: tempDir(),
      toml: fixture('broken', 'required = true', { FIXTURE_FAIL_START: 'database password missing' }),
      steps: [],
    });
    await expect(started).rejects.toThrow(/required MCP server "broken"[\s\S]*database password missing/);
  });

  it('starts without a failing optional server and reports it failed', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: [fixture('good', 'required = true'), fixture('bad', undefined, { FIXTURE_FAIL_START: 'no token' })].join('\n'),
      steps: [say('hi')],
    });
    const failing = t.next('mcp.server_status', (e) => e.server === 'bad' && e.status === 'failed');
    await t.thread.startTurn({ text: 'hi' }).done;
    // It may still be failing when the grace ends (a loaded machine): its event comes when it does.
    const failed = t.events().find((e) => e.type === 'mcp.server_status' && e.server === 'bad' && e.status === 'failed') ?? (await failing);
    expect(failed).toMatchObject({ required: false, error: expect.stringContaining('no token') });
    expect(toolNames(t.client.requests[0])).toContain('mcp__good__echo');
    expect(toolNames(t.client.requests[0]).some((n) => n.startsWith('mcp__bad__'))).toBe(false);
  });

  it('a late server joins the next request; list_changed refreshes the list between requests', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: [fixture('late', undefined, { FIXTURE_START_DELAY_MS: '1500' }), fixture('now', 'required = true\ndefault_tools_approval_mode = "approve"')].join('\n'),
      steps: [say('first'), callTools(call('mcp__now__add_tool', {}, 'c1')), say('second')],
    });
    await t.thread.startTurn({ text: 'one' }).done;
    expect(toolNames(t.client.requests[0]).some((n) => n.startsWith('mcp__late__'))).toBe(false);
    const joined = t.events().some((e) => e.type === 'mcp.tools_changed' && e.server === 'late')
      ? undefined
      : await t.next('mcp.tools_changed', (e) => e.server === 'late');
    expect(joined === undefined || joined.tool_count > 0).toBe(true);
    const changed = t.next('mcp.tools_changed', (e) => e.server === 'now');
    await t.thread.startTurn({ text: 'two' }).done;
    await changed;
    expect(toolNames(t.client.requests[1])).toContain('mcp__late__echo');
    expect(toolNames(t.client.requests[1])).not.toContain('mcp__now__late_tool');
    expect(toolNames(t.client.requests[2])).toContain('mcp__now__late_tool');
  });

  it('a crash mid-call fails the call with a clear result; the next call restarts the server', async () => {
    const pids = path.join(tempDir(), 'pids');
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('fx', 'required = true\ndefault_tools_approval_mode = "approve"', { FIXTURE_PID_FILE: pids }),
      steps: [callTools(call('mcp__fx__crash', { code: 3 }, 'c1')), callTools(call('mcp__fx__whoami', {}, 'c2')), say('done')],
    });
    await t.thread.startTurn({ text: 'crash' }).done;
    const crashed = outputText(outputFor(t.client.requests[1], 'c1'));
    expect(crashed).toMatch(/MCP server "fx" stopped during the call to crash: exited with code 3/);
    expect(crashed).toContain('about to crash on purpose');
    const started = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(started).toHaveLength(2);
    expect(outputText(outputFor(t.client.requests[2], 'c2'))).toBe(String(started[1]));
    const items = mcpItems(t.events());
    expect(items.map((i) => i.status)).toEqual(['failed', 'completed']);
    expect(t.events().filter((e) => e.type === 'mcp.server_status' && e.server === 'fx').map((e) => e.type === 'mcp.server_status' && e.status)).toEqual([
      'starting',
      'ready',
      'failed',
      'starting',
      'ready',
    ]);
    await t.close();
    expect(started.filter(alive)).toEqual([]);
  });

  it('a long call with progress outlives a short tool_timeout_sec; one without progress times out', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('fx', 'required = true\ntool_timeout_sec = 0.4\ndefault_tools_approval_mode = "approve"'),
      steps: [
        callTools(call('mcp__fx__progress', { steps: 6, every_ms: 150 }, 'c1'), call('mcp__fx__sleep', { ms: 1500 }, 'c2')),
        say('done'),
      ],
    });
    await t.thread.startTurn({ text: 'long' }).done;
    expect(outputText(outputFor(t.client.requests[1], 'c1'))).toBe('done after 6 steps');
    expect(outputText(outputFor(t.client.requests[1], 'c2'))).toMatch(/timed out: no result and no progress for 0\.4 s \(tool_timeout_sec/);
    expect(t.events().filter((e) => e.type === 'item.mcp_tool_call.progress').length).toBeGreaterThanOrEqual(5);
  });
});

describe('interrupting a turn', () => {
  it('cancels the MCP call in flight', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('fx', 'required = true\ndefault_tools_approval_mode = "approve"'),
      steps: [callTools(call('mcp__fx__sleep', { ms: 60_000 }, 'c1'))],
    });
    const began = t.next('item.started', (e) => e.item.type === 'mcp_tool_call');
    const turn = t.thread.startTurn({ text: 'sleep' });
    await began;
    const ended = performance.now();
    await t.thread.interrupt();
    const result = await turn.done;
    expect(result.status).toBe('interrupted');
    expect(performance.now() - ended).toBeLessThan(10_000);
    const [item] = mcpItems(t.events());
    expect(item).toMatchObject({ tool: 'sleep', status: 'failed', error: { message: 'the call to fx.sleep was cancelled' } });
  });
});

describe('a turn signal shared by many calls', () => {
  it('keeps no abort listener per call (the SDK never removes its own)', async () => {
    const { createMcpManager } = await import('../../src/mcp/index.js');
    const { servers, nodeServer } = await import('./support/servers.js');
    const { EventEmitter } = await import('node:events');
    const manager = await createMcpManager({ servers: servers({ fx: nodeServer(FIXTURE_SERVER) }), cwd: tempDir() });
    try {
      await manager.start();
      const turn = new AbortController();
      for (let i = 0; i < 12; i++) {
        const outcome = await manager.callTool('fx', 'echo', { text: String(i) }, { signal: turn.signal });
        expect(outcome.ok).toBe(true);
      }
      expect(EventEmitter.getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    } finally {
      await manager.close();
    }
  });
});
