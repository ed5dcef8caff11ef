// rig harness list [--json] | rig harness show ID [--wire W] [--provider P] [-m MODEL] [--json]
// | rig harness capture AGENT [--bin PATH] [--wire W] [--refresh] | rig harness diff ID [--wire W]
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

  harness
    .command('capture')
    .description(
      "run your installed original (claude, qwen, opencode, pi, codex, kimi) once against a loopback recorder, without network, and write its exact harness to $RIG_HOME/harnesses/<id>.json",
    )
    .argument('<agent>', 'harness id or the original\'s command (pi, opencode, claude-code/claude, qwen-code/qwen, native/codex, kimi-code, kimi-cli)')
    .option('--bin <path>', 'the original\'s executable (default: found on PATH)')
    .option('--wire <wire>', 'capture one wire only (default: every wire the original speaks)')
    .option('--model <model>', 'model id the original is told to use')
    .option('--refresh', 'capture again and replace an earlier capture (after the original updates)')
    .option('--unsandboxed', 'run without the network namespace (where bubblewrap is missing); the original keeps its network')
    .option('--timeout <seconds>', 'stop a run that takes longer (default 180)')
    .option('--json', 'print a JSON summary')
    .action(async (agent: string, _flags: unknown, command: Command) => {
      const { runHarnessCapture } = await import('../../frontends/harness/capture.js');
      process.exitCode = await runHarnessCapture(agent, mergedOptions(command));
    });

  harness
    .command('diff')
    .description('what differs between the built-in profile and your capture of its original: request fields, tools, schemas, prompt size')
    .argument('<id>', 'harness id of a capture (see `rig harness capture`)')
    .option('--wire <wire>', 'one captured wire only')
    .option('--json', 'print the differences as JSON')
    .action(async (id: string, _flags: unknown, command: Command) => {
      const { runHarnessDiff } = await import('../../frontends/harness/diff.js');
      process.exitCode = await runHarnessDiff(id, mergedOptions(command));
    });
}
