// rig sessions [list] [--all] [--cwd DIR] [--archived] [--json] | rig sessions show ID [--json] | rig sessions archive|unarchive|delete ID | rig sessions reindex
import type { Command } from 'commander';
import { mergedOptions } from '../options.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--limit expects a positive whole number, got "${value}"`);
  return n;
}

export function registerSessions(program: Command): void {
  const sessions = program
    .command('sessions')
    .description('list saved threads, or rebuild their index');

  sessions
    .command('list', { isDefault: true })
    .description("list threads, newest first (default: this directory's unarchived threads)")
    .option('--all', 'threads from every directory')
    .option('--cwd <dir>', 'threads started in DIR instead of the current directory')
    .option('--archived', 'only archived threads')
    .option('--json', 'print a JSON array of thread objects')
    .option('-n, --limit <n>', 'at most N threads', positiveInt)
    .action(async (_flags: unknown, command: Command) => {
      const { runSessionsList } = await import('../../frontends/sessions/list.js');
      // `rig --json sessions` works too.
      const flags = mergedOptions<{ all?: boolean; cwd?: string; archived?: boolean; json?: boolean; limit?: number }>(command);
      process.exitCode = await runSessionsList(flags);
    });

  sessions
    .command('show')
    .description('describe one thread: where and with what it ran, its turns, and its goal')
    .argument('<id>', 'thread id or unique prefix')
    .option('--json', 'print the thread as a JSON object')
    .action(async (id: string, _flags: unknown, command: Command) => {
      const { runSessionsShow } = await import('../../frontends/sessions/show.js');
      const flags = mergedOptions<{ json?: boolean }>(command);
      process.exitCode = await runSessionsShow({ id, ...(flags.json ? { json: true } : {}) });
    });

  // The thread verbs also live under `rig sessions`, where users look for them first.
  sessions
    .command('archive')
    .description('hide a thread from listings and --last (same as `rig archive`)')
    .argument('<id>', 'thread id or unique prefix')
    .action(async (id: string) => {
      const { runSetArchived } = await import('../../frontends/sessions/manage.js');
      process.exitCode = await runSetArchived(id, true);
    });

  sessions
    .command('unarchive')
    .description('bring an archived thread back (same as `rig unarchive`)')
    .argument('<id>', 'thread id or unique prefix (see `rig sessions list --all --archived`)')
    .action(async (id: string) => {
      const { runSetArchived } = await import('../../frontends/sessions/manage.js');
      process.exitCode = await runSetArchived(id, false);
    });

  sessions
    .command('delete')
    .description('delete a thread and its rollout file for good (same as `rig delete`; asks first unless --yes)')
    .argument('<id>', 'thread id or unique prefix')
    .option('-y, --yes', 'do not ask; required when stdin is not a terminal')
    .action(async (id: string, flags: { yes?: boolean }) => {
      const { runDelete } = await import('../../frontends/sessions/manage.js');
      process.exitCode = await runDelete({ id, yes: Boolean(flags.yes) });
    });

  sessions
    .command('reindex')
    .description('rebuild $RIG_HOME/state.sqlite from the rollout files')
    .action(async () => {
      const { runSessionsReindex } = await import('../../frontends/sessions/list.js');
      process.exitCode = await runSessionsReindex();
    });
}
