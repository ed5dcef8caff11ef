// rig doctor [-c key=value]
import type { Command } from 'commander';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check this setup: sandbox, RIG_HOME, config files, provider and API key (never printed), harness, node')
    .option('-c, --config <key=value>', 'override a config value (repeatable)', collect)
    .action(async (flags: { config?: string[] }) => {
      const { runDoctor } = await import('../../frontends/safety/doctor.js');
      process.exitCode = await runDoctor(flags.config ? { config: flags.config } : {});
    });
}
