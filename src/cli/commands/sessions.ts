// rig sessions [list] [--all] [--cwd DIR] [--archived] [--json] | rig sessions reindex
import type { Command } from 'commander';

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
    .action(async (flags: { all?: boolean; cwd?: string; archived?: boolean; json?: boolean; limit?: number }) => {
      const { runSessionsList } = await import('../../frontends/sessions/list.js');
      process.exitCode = await runSessionsList(flags);
    });

  sessions
    .command('reindex')
    .description('rebuild $RIG_HOME/state.sqlite from the rollout files')
    .action(async () => {
      const { runSessionsReindex } = await import('../../frontends/sessions/list.js');
      process.exitCode = await runSessionsReindex();
    });
}
