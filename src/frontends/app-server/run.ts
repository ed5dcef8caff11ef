// `rig app-server` on stdio: one connection, one engine. Ends when the client closes stdin (or
// on SIGINT/SIGTERM/SIGHUP): every running turn is interrupted and every thread closed, so each
// is saved as interrupted, never half-written. Logs go to stderr; stdout carries only protocol.
import { Engine } from '../../core/engine.js';
import { AppServer } from './server.js';

export interface AppServerCommandInput {
  config: string[];
  maxPendingRequests?: number;
}

export async function runAppServer(input: AppServerCommandInput): Promise<number> {
  const engine = new Engine({ env: process.env, source: 'app-server' });
  const server = new AppServer({
    engine,
    env: process.env,
    cwd: process.cwd(),
    config: input.config,
    input: process.stdin,
    output: process.stdout,
    ...(input.maxPendingRequests ? { maxPendingRequests: input.maxPendingRequests } : {}),
  });
  const stop = () => void server.shutdown();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, stop);
  server.start();
  await server.closed;
  for (const signal of signals) process.off(signal, stop);
  return 0;
}
