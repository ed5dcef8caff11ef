// rig app-server [-c key=value]... [--max-pending-requests N] | rig app-server generate-json-schema --out DIR | generate-ts --out DIR
import type { Command } from 'commander';
import { mergedOptions } from '../options.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--max-pending-requests expects a positive whole number, got "${value}"`);
  return n;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerAppServer(program: Command): void {
  const appServer = program
    .command('app-server')
    .description("serve Codex's app-server protocol (v2, JSON-RPC over stdio, one JSON message per line) for IDEs and other clients")
    .option('-c, --config <key=value>', 'config override for every thread (TOML value; repeatable)', collect)
    .option('--max-pending-requests <n>', 'requests worked on at once before new ones are refused with -32001 "Server overloaded" (default 128)', positiveInt)
    .action(async (_flags: unknown, command: Command) => {
      const { runAppServer } = await import('../../frontends/app-server/run.js');
      const flags = mergedOptions<{ config?: string[]; maxPendingRequests?: number }>(command);
      process.exitCode = await runAppServer({ config: flags.config ?? [], ...(flags.maxPendingRequests ? { maxPendingRequests: flags.maxPendingRequests } : {}) });
    });

  appServer
    .command('generate-json-schema')
    .description('write the JSON Schema of the protocol rig speaks (from its own definitions) into DIR')
    .requiredOption('-o, --out <dir>', 'output directory (created if missing)')
    .action(async (flags: { out: string }) => {
      const { writeJsonSchemas } = await import('../../frontends/app-server/generate.js');
      const files = writeJsonSchemas(flags.out);
      process.stdout.write(`wrote ${files.length} files to ${flags.out}\n`);
    });

  appServer
    .command('generate-ts')
    .description('write TypeScript types of the protocol rig speaks (from its own definitions) into DIR')
    .requiredOption('-o, --out <dir>', 'output directory (created if missing)')
    .action(async (flags: { out: string }) => {
      const { writeTypeScript } = await import('../../frontends/app-server/generate.js');
      const files = writeTypeScript(flags.out);
      process.stdout.write(`wrote ${files.length} files to ${flags.out}\n`);
    });
}
