// rig mcp-server: rig as an MCP server over stdio (tools rig and rig-reply).
import type { Command } from 'commander';

export function registerMcpServer(program: Command): void {
  program
    .command('mcp-server')
    .description('run rig as an MCP server over stdio: tool "rig" runs a turn in a new session, "rig-reply" continues one (codex / codex-reply accepted)')
    .action(async () => {
      const { startMcpServer } = await import('../../frontends/mcp-server/index.js');
      process.exitCode = await startMcpServer();
    });
}
