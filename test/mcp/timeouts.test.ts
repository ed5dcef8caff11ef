// The timeout rules without waiting for them: an SDK client and server joined in memory, the clock
// faked. A configured 120 s timeout holds past the SDK's 60 s default; progress restarts it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { formatDuration, requestOptions } from '../../src/mcp/request-options.js';
import { REPO_ROOT } from '../support/workspace.js';

afterEach(() => {
  vi.useRealTimers();
});

async function pair(): Promise<{ client: Client; release: () => void; progress: () => Promise<void> }> {
  let release: () => void = () => undefined;
  let sendProgress: () => Promise<void> = async () => undefined;
  const server = new McpServer({ name: 't', version: '1' });
  server.registerTool('wait', { inputSchema: { n: z.number() } }, async (_args, extra) => {
    let step = 0;
    sendProgress = () => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta!.progressToken!, progress: ++step } });
    await new Promise<void>((resolve) => (release = resolve));
    return { content: [{ type: 'text', text: 'released' }] };
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(b);
  await client.listTools({}, requestOptions({ timeoutMs: 1000 }));
  return { client, release: () => release(), progress: () => sendProgress() };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe('request timeouts', () => {
  it('a configured 300 s timeout is passed as is (the SDK default is 60 s)', () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MSEC).toBe(60_000);
    const options = requestOptions({ timeoutMs: 300_000 });
    expect(options).toMatchObject({ timeout: 300_000, resetTimeoutOnProgress: true });
    expect(typeof options.onprogress).toBe('function');
    expect(() => requestOptions({ timeoutMs: 0 })).toThrow('an MCP request needs a positive timeout, got 0 ms');
    expect(formatDuration(300_000)).toBe('5 min');
    expect(formatDuration(500)).toBe('0.5 s');
  });

  it('a call with a 120 s timeout is still waiting at 61 s and times out at 120 s', async () => {
    const { client } = await pair();
    vi.useFakeTimers();
    let outcome: unknown = 'pending';
    void client.callTool({ name: 'wait', arguments: { n: 1 } }, undefined, requestOptions({ timeoutMs: 120_000 })).then(
      () => (outcome = 'resolved'),
      (error: Error) => (outcome = error.message),
    );
    await settle();
    await vi.advanceTimersByTimeAsync(61_000);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(59_001);
    expect(outcome).toMatch(/Request timed out/);
  });

  it('progress restarts the window: 3 x 50 s with progress in between outlives a 60 s timeout', async () => {
    const { client, release, progress } = await pair();
    vi.useFakeTimers();
    let outcome: unknown = 'pending';
    void client.callTool({ name: 'wait', arguments: { n: 1 } }, undefined, requestOptions({ timeoutMs: 60_000 })).then(
      () => (outcome = 'resolved'),
      (error: Error) => (outcome = error.message),
    );
    await settle();
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(50_000);
      await progress();
      await settle();
    }
    expect(outcome).toBe('pending');
    release();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe('resolved');
  });

  it('no request in src/mcp reaches the SDK without explicit options', () => {
    // Every client call must pass requestOptions(...) (or an `options` built by it).
    const dir = join(REPO_ROOT, 'src', 'mcp');
    const offenders: string[] = [];
    let calls = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const match of text.matchAll(/client\.(connect|callTool|listTools|listResources|listResourceTemplates|readResource|request|ping|complete|getPrompt|listPrompts)\(([^;]*?)\)[;,\n]/gs)) {
        calls++;
        if (!/requestOptions\(|options\)?$/.test(match[2]!.trim())) offenders.push(`${file}: client.${match[1]}(${match[2]})`);
      }
    }
    expect(calls).toBeGreaterThanOrEqual(6);
    expect(offenders).toEqual([]);
  });
});
