// rig harness list [--json] | rig harness show ID [--wire W] [--provider P] [-m MODEL] [--json]
import type { Command } from 'commander';
import { mergedOptions } from '../options.js';

export function registerHarness(program: Command): void {
  const harness = program
    .command('harness')
    .description('list the harness profiles rig can present itself as, or show the first request one sends');

  harness
    .command('list', { isDefault: true })
    .description('every harness (built-in, $RIG_HOME/harnesses/, trusted projects) with its wires, protocol and tools')
    .option('--json', 'print a JSON array')
    .action(async (_flags: unknown, command: Command) => {
      const { runHarnessList } = await import('../../frontends/harness/list.js');
      const flags = mergedOptions<{ json?: boolean }>(command);
      process.exitCode = await runHarnessList(flags);
    });

  harness
    .command('show')
    .description('print the exact first request body rig would send with this harness (nothing is sent)')
    .argument('<id>', 'harness id (see `rig harness list`)')
    .option('--wire <wire>', 'responses, chat or messages (default: the provider\'s wire_api)')
    .option('--provider <id>', 'model provider whose wire and settings to use (default: the configured one)')
    .option('-m, --model <model>', 'model name in the request (default: the configured one)')
    .option('-c, --config <key=value>', 'override a config value (dotted key, TOML value; repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('-p, --profile <name>', 'layer the named config profile')
    .option('--prompt <text>', 'the sample user prompt')
    .option('--json', 'print {harness, provider, wire, model, body}')
    .action(async (id: string, _flags: unknown, command: Command) => {
      const { runHarnessShow } = await import('../../frontends/harness/show.js');
      // `rig -m x harness show ID` and `rig -c k=v harness show ID` apply too.
      const flags = mergedOptions<{ wire?: string; provider?: string; model?: string; prompt?: string; json?: boolean; config?: string[]; profile?: string }>(command);
      process.exitCode = await runHarnessShow(id, flags);
    });
}
