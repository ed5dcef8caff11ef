// A stdio server is sent initialize the moment it is spawned, before any SDK client attaches (the
// SDK takes ~150 ms to import, and the thread's set-up keeps the event loop busy meanwhile); the
// client's own initialize is then answered with that reply, so the server initializes once.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { initializeParams, MCP_CLIENT_CAPABILITIES, MCP_CLIENT_PROTOCOL_VERSION, stdioTransportFor } from '../../src/mcp/connection.js';
import type { StdioProcessTransport } from '../../src/mcp/stdio-transport.js';
import { tempDir } from '../config/tmp.js';
import { nodeServer, servers, TINY_SERVER } from './support/servers.js';

const open: StdioProcessTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

it("rig's early initialize asks for the protocol version the SDK's client asks for", () => {
  expect(MCP_CLIENT_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION);
});

it('the server is initialized before a client attaches, once, and the client gets that answer', async () => {
  const dir = tempDir();
  const report = path.join(dir, 'report.jsonl');
  const clientInfo = { name: 'rig', version: 'test' };
  const config = servers({ tiny: nodeServer(TINY_SERVER, { env: { TINY_REPORT_FILE: report } }) })['tiny']!;
  if (config.transport !== 'stdio') throw new Error('expected a stdio server');
  const transport = stdioTransportFor(config, { cwd: dir, env: process.env, clientInfo });
  open.push(transport);
  await transport.spawnNow();
  // No client yet: the server answers the transport's own initialize.
  await transport.earlyInitializeAnswered;
  expect(fs.readFileSync(report, 'utf8').trim().split('\n')).toHaveLength(1);

  const client = new Client(clientInfo, { capabilities: MCP_CLIENT_CAPABILITIES });
  await client.connect(transport);
  expect(transport.earlyInitializeMismatch).toBe(false);
  expect(client.getServerVersion()).toEqual({ name: 'tiny', version: '1' });
  const instructions = JSON.parse(client.getInstructions() ?? '{}') as { readyAtMs?: number };
  expect(instructions.readyAtMs).toBeGreaterThan(0);
  const listed = await client.listTools();
  expect(listed.tools.map((t) => t.name)).toEqual(['echo']);
  // The client's initialize was answered from the early one, not sent again.
  expect(fs.readFileSync(report, 'utf8').trim().split('\n')).toHaveLength(1);
  expect(initializeParams(clientInfo)).toEqual({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { elicitation: {} }, clientInfo });
});
