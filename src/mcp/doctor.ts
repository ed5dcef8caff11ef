// What `rig doctor` reports about MCP: each configured server started once, its status and how
// many tools it offers, then closed.
import type { ResolvedMcpServer } from '../config/index.js';
import { createMcpManager } from './manager.js';

export interface McpServerProbe {
  server: string;
  transport: 'stdio' | 'streamable_http';
  status: 'ready' | 'failed' | 'disabled';
  toolCount: number;
  startupMs?: number;
  reason?: string;
}

export async function probeMcpServers(
  servers: Record<string, ResolvedMcpServer>,
  options: { cwd: string; env?: NodeJS.ProcessEnv; clientInfo?: { name: string; version: string } },
): Promise<McpServerProbe[]> {
  const manager = await createMcpManager({ servers, ...options });
  try {
    // Every server gets its whole startup_timeout here: doctor is about finding slow ones.
    await manager.settled();
    return manager.states().map((state) => ({
      server: state.server,
      transport: state.transport,
      status: state.status === 'disabled' ? 'disabled' : state.status === 'ready' ? 'ready' : 'failed',
      toolCount: state.toolCount,
      ...('startupMs' in state && state.startupMs !== undefined ? { startupMs: state.startupMs } : {}),
      ...('reason' in state && state.reason !== undefined ? { reason: state.reason } : {}),
    }));
  } finally {
    await manager.close();
  }
}
