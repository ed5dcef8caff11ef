// rig acp [-c key=value]...: serve the Agent Client Protocol over stdio (for Zed and other ACP clients).
import type { Command } from 'commander';
import { mergedOptions } from '../options.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerAcp(program: Command): void {
  program
    .command('acp')
    .description('serve the Agent Client Protocol over stdio (JSON-RPC, one message per line) for editors such as Zed')
    .option('-c, --config <key=value>', 'config override for every session (TOML value; repeatable)', collect)
    .action(async (_flags: unknown, command: Command) => {
      const { runAcp } = await import('../../frontends/acp/run.js');
      const flags = mergedOptions<{ config?: string[] }>(command);
      process.exitCode = await runAcp({ config: flags.config ?? [] });
    });
}
