// Server configs for the MCP tests, resolved by the real config code (as config.toml would be).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { resolveMcpServers, type McpServerTable, type ResolvedMcpServer } from '../../../src/config/index.js';
import { REPO_ROOT } from '../../support/workspace.js';
import type { McpConnectionManager, McpEvent } from '../../../src/mcp/index.js';

const requireHere = createRequire(import.meta.url);

/** The bin of a reference server from npm, run with this Node (offline, from node_modules). */
export function referenceServer(pkg: '@modelcontextprotocol/server-everything' | '@modelcontextprotocol/server-filesystem'): string {
  const manifest = requireHere.resolve(`${pkg}/package.json`);
  const bin = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin;
  return path.join(path.dirname(manifest), Object.values(bin)[0]!);
}

export const FIXTURE_SERVER = path.join(REPO_ROOT, 'test', 'mcp', 'fixtures', 'fixture-server.mjs');
export const TINY_SERVER = path.join(REPO_ROOT, 'test', 'mcp', 'fixtures', 'tiny-server.mjs');

export function servers(tables: Record<string, McpServerTable>): Record<string, ResolvedMcpServer> {
  return resolveMcpServers(tables);
}

/** A stdio server run as `node <script> ...args`. */
export function nodeServer(script: string, extra: McpServerTable = {}, args: string[] = []): McpServerTable {
  return { command: process.execPath, args: [script, ...args], ...extra };
}

/** The first event for which `match` is true (listening starts now). */
export function nextEvent(manager: McpConnectionManager, match: (event: McpEvent) => boolean): Promise<McpEvent> {
  return new Promise((resolve) => {
    const off = manager.onEvent((event) => {
      if (!match(event)) return;
      off();
      resolve(event);
    });
  });
}

/** True while a process with this pid runs (a zombie waiting to be reaped has ended). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
