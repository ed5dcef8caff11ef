// rig delete ID [--yes]
import type { Command } from 'commander';

export function registerDelete(program: Command): void {
  program
    .command('delete')
    .description('delete a thread and its rollout file for good (asks first unless --yes)')
    .argument('<id>', 'thread id or unique prefix')
    .option('-y, --yes', 'do not ask; required when stdin is not a terminal')
    .action(async (id: string, flags: { yes?: boolean }) => {
      const { runDelete } = await import('../../frontends/sessions/manage.js');
      process.exitCode = await runDelete({ id, yes: Boolean(flags.yes) });
    });
}
