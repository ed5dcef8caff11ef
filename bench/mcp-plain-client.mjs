// The bench's reference for MCP start-up (bench/mcp.ts): a plain Node script that launches the
// tiny servers given (spawn() in the order given, each sent initialize at once) and prints, as
// JSON, the wall time until all answered minus the slowest one's own time, as bench/mcp.ts counts
// it for rig. Usage: node mcp-plain-client.mjs <tiny-server.mjs> <init delay ms>...
import { spawn } from 'node:child_process';

const [server, ...delays] = process.argv.slice(2);
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'plain', version: '1' } },
};

const began = performance.now();
const answers = delays.map(
  (delay) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [server], { env: { TINY_INIT_DELAY_MS: delay }, stdio: ['pipe', 'pipe', 'inherit'] });
      child.on('error', reject);
      child.stdin.write(`${JSON.stringify(initialize)}\n`);
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
        const end = text.indexOf('\n');
        if (end < 0) return;
        resolve({ child, report: JSON.parse(JSON.parse(text.slice(0, end)).result.instructions) });
      });
    }),
);
const settled = await Promise.all(answers);
const wallMs = performance.now() - began;
// A server's own time, as bench/mcp.ts's ownMs: its uptime when it answered, less any wait for the client.
const own = settled.map(({ report }) => report.readyAtMs - (report.initReceivedAtMs - report.listeningAtMs));
process.stdout.write(JSON.stringify({ wallMs, overheadMs: wallMs - Math.max(...own) }));
for (const { child } of settled) child.stdin.end();
