// Entry of `rig mcp-server`: one engine for the server's life (threads stay loaded for rig-reply).
import { Engine } from '../../core/engine.js';
import { runMcpServer } from './server.js';

export async function startMcpServer(): Promise<number> {
  const engine = new Engine({ env: process.env, source: 'mcp' });
  await runMcpServer({ engine, cwd: process.cwd() });
  return 0;
}
