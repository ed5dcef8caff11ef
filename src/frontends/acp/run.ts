// `rig acp` on stdio: one ACP connection, one engine. Ends when the client closes stdin (or on
// SIGINT/SIGTERM/SIGHUP): every running turn is interrupted and every thread closed, so each is
// saved. stdout carries only protocol; logs go to stderr.
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { Engine } from '../../core/engine.js';
import { acpAgent } from './agent.js';

export async function runAcp(input: { config: string[] }): Promise<number> {
  const engine = new Engine({ env: process.env, source: 'acp' });
  const { app, bind } = acpAgent({ engine, config: input.config });
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  bind(connection.client);
  const stop = () => connection.close();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, stop);
  await connection.closed.catch(() => {});
  for (const signal of signals) process.off(signal, stop);
  await engine.close();
  return 0;
}
