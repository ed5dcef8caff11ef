// A throwaway redis-server (Debian's /usr/bin/redis-server) on a free loopback port with a temp
// folder and no persistence; stopped (and its folder removed) by stop().
import { spawn, type ChildProcess } from 'node:child_process';
import { closedPort } from '../../frontends/exec/helpers.js';
import { removeDir, tempDir } from '../../support/workspace.js';

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function start(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve(child);
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
  });
}

export async function startRedis(): Promise<RedisServer> {
  const dir = tempDir('redis');
  let lastError: unknown;
  // A port found free may be taken before redis binds it: try another.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await closedPort();
    try {
      const child = await start(port, dir);
      return {
        url: `redis://127.0.0.1:${port}/0`,
        port,
        async stop() {
          const closed = new Promise((resolve) => child.on('close', resolve));
          child.kill('SIGTERM');
          await closed;
          removeDir(dir);
        },
      };
    } catch (error) {
      lastError = error;
    }
  }
  removeDir(dir);
  throw lastError;
}
