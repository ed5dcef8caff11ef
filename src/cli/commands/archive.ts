// rig archive ID
import type { Command } from 'commander';

export function registerArchive(program: Command): void {
  program
    .command('archive')
    .description('hide a thread from listings and --last (moves its rollout to $RIG_HOME/archived_sessions/)')
    .argument('<id>', 'thread id or unique prefix')
    .action(async (id: string) => {
      const { runSetArchived } = await import('../../frontends/sessions/manage.js');
      process.exitCode = await runSetArchived(id, true);
    });
}
