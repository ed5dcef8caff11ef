// rig sandbox [-s MODE | --full-auto] [--add-dir DIR] [-c key=value] -- CMD...
import type { Command } from 'commander';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description('run a command under the sandbox model commands get (default read-only; the current directory is the workspace) and exit with its status')
    .argument('<command...>', 'the command and its arguments (after --)')
    .option('-s, --sandbox <mode>', 'read-only, workspace-write or danger-full-access')
    .option('--full-auto', 'workspace-write (as the agent runs with --full-auto)')
    .option('--add-dir <dir>', 'extra writable directory (repeatable)', collect)
    .option('-c, --config <key=value>', 'override a config value, e.g. sandbox_workspace_write.network_access=true (repeatable)', collect)
    .passThroughOptions()
    .action(async (command: string[], flags: { sandbox?: string; fullAuto?: boolean; addDir?: string[]; config?: string[] }) => {
      const { runSandboxCommand } = await import('../../frontends/safety/sandbox.js');
      process.exitCode = await runSandboxCommand({
        command,
        ...(flags.sandbox !== undefined ? { sandbox: flags.sandbox } : {}),
        ...(flags.fullAuto ? { fullAuto: true } : {}),
        ...(flags.addDir ? { addDir: flags.addDir } : {}),
        ...(flags.config ? { config: flags.config } : {}),
      });
    });
}
