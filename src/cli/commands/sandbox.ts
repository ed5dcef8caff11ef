// rig sandbox [-s MODE | --full-auto] [--add-dir DIR] [-c key=value] [-p NAME] [-C DIR] -- CMD...
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { addSharedOptions, mergedOptions, POSITIONS_HELP } from '../options.js';
import type { SessionFlags } from '../session-flags.js';

export function registerSandbox(program: Command): void {
  addSharedOptions(
    program
      .command('sandbox')
      .description('run a command under the sandbox model commands get (default read-only; the current directory is the workspace) and exit with its status')
      .argument('<command...>', 'the command and its arguments (after --)')
      .passThroughOptions()
      .addHelpText('after', POSITIONS_HELP),
    ['sandbox', 'fullAuto', 'addDir', 'config', 'profile', 'cd', 'ignoreUserConfig'],
  ).action(async (command: string[], _flags: unknown, self: Command) => {
    const { runSandboxCommand } = await import('../../frontends/safety/sandbox.js');
    const flags = mergedOptions<SessionFlags>(self);
    process.exitCode = await runSandboxCommand({
      command,
      ...(flags.sandbox !== undefined ? { sandbox: flags.sandbox } : {}),
      ...(flags.fullAuto ? { fullAuto: true } : {}),
      ...(flags.addDir ? { addDir: flags.addDir } : {}),
      ...(flags.config ? { config: flags.config } : {}),
      ...(flags.profile ? { profile: flags.profile } : {}),
      ...(flags.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
      ...(flags.cd ? { cwd: resolve(flags.cd) } : {}),
    });
  });
}
