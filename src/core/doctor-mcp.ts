// `rig doctor`'s MCP section: every configured server started once, as a thread would start it
// (same config, environment and working folder), with its status, tool count and startup time.
// A server that fails is a problem: its tools would be missing from every session (and a required
// one stops sessions from starting).
import type { RigConfig } from '../config/index.js';
import { rigVersion } from './version.js';

export async function describeMcpServers(
  config: RigConfig,
  where: { cwd: string; env: NodeJS.ProcessEnv },
  lines: string[],
  problem: (text: string) => void,
): Promise<void> {
  const servers = config.mcp_servers;
  const names = Object.keys(servers);
  if (names.length === 0) {
    lines.push('mcp servers: none configured (add one with `rig mcp add`)');
    return;
  }
  // Loaded only here: the SDK costs ~150 ms and doctor without servers does not need it.
  const { probeMcpServers } = await import('../mcp/index.js');
  const probes = await probeMcpServers(servers, { cwd: where.cwd, env: where.env, clientInfo: { name: 'rig', version: rigVersion() } });
  lines.push(`mcp servers: ${names.length} configured`);
  for (const probe of probes) {
    const label = `mcp server ${probe.server} (${probe.transport}${servers[probe.server]?.required ? ', required' : ''})`;
    if (probe.status === 'disabled') lines.push(`  ${label}: disabled (enabled = false)`);
    else if (probe.status === 'ready') {
      const took = probe.startupMs === undefined ? '' : `, started in ${Math.round(probe.startupMs)} ms`;
      lines.push(`  ${label}: ready, ${probe.toolCount} tool${probe.toolCount === 1 ? '' : 's'}${took}`);
    } else problem(`${label}: ${probe.reason ?? 'failed to start'}`);
  }
}
