// rig doctor [--offline] [-c key=value] [-p NAME] [-m MODEL] [--provider ID] [--harness ID] ...
import type { Command } from 'commander';
import { addSharedOptions, mergedOptions, POSITIONS_HELP } from '../options.js';
import type { SessionFlags } from '../session-flags.js';

export function registerDoctor(program: Command): void {
  addSharedOptions(
    program
      .command('doctor')
      .description('check this setup: sandbox, RIG_HOME, config files, provider and API key (never printed), whether the provider answers, harness, node')
      .option('--offline', 'do not contact the provider (skip the reachability check)')
      .addHelpText('after', POSITIONS_HELP),
    ['config', 'profile', 'model', 'provider', 'harness', 'cd', 'sandbox', 'addDir', 'ignoreUserConfig'],
  ).action(async (_flags: unknown, command: Command) => {
    const { runDoctor } = await import('../../frontends/safety/doctor.js');
    const flags = mergedOptions<SessionFlags & { offline?: boolean }>(command);
    process.exitCode = await runDoctor({
      ...(flags.config ? { config: flags.config } : {}),
      ...(flags.profile ? { profile: flags.profile } : {}),
      ...(flags.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
      ...(flags.addDir ? { addDirs: flags.addDir } : {}),
      choices: {
        ...(flags.model ? { model: flags.model } : {}),
        ...(flags.provider ? { provider: flags.provider } : {}),
        ...(flags.harness ? { harness: flags.harness } : {}),
        ...(flags.sandbox ? { sandbox: flags.sandbox } : {}),
        ...(flags.cd ? { cwd: flags.cd } : {}),
      },
      ...(flags.offline ? { offline: true } : {}),
    });
  });
}
