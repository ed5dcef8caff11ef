// rig unarchive ID
import type { Command } from 'commander';

export function registerUnarchive(program: Command): void {
  program
    .command('unarchive')
    .description('bring an archived thread back (moves its rollout back under $RIG_HOME/sessions/)')
    .argument('<id>', 'thread id or unique prefix (see `rig sessions list --all --archived`)')
    .action(async (id: string) => {
      const { runSetArchived } = await import('../../frontends/sessions/manage.js');
      process.exitCode = await runSetArchived(id, false);
    });
}
