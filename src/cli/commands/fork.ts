// rig fork [ID] [--last [--all]] [--print-only] [engine flags]
import type { Command } from 'commander';
import { addSharedOptions, mergedOptions, POSITIONS_HELP, SESSION_OPTIONS, TUI_OPTIONS } from '../options.js';
import { threadRequestFromFlags } from '../session-flags.js';
import type { ReplFlags } from './resume.js';

export function registerFork(program: Command): void {
  addSharedOptions(
    program
      .command('fork')
      .description('start a new thread from a copy of another thread\'s history, then continue it interactively')
      .argument('[id]', 'thread id or unique prefix (see `rig sessions list`); absent: pick one')
      .option('--last', 'fork the most recent thread in this directory')
      .option('--all', 'with --last or the picker, consider threads from every directory')
      .option('--full-history', 'print every turn of the history, not only the latest 20')
      .option('--lines', 'read prompts line by line, as on a pipe, instead of opening the interactive session')
      .option('--print-only', 'print the history that would be copied and exit (creates no thread)')
      .addHelpText('after', POSITIONS_HELP),
    [...SESSION_OPTIONS, ...TUI_OPTIONS],
  ).action(async (id: string | undefined, _own: ReplFlags, command: Command) => {
    // Engine flags given before the subcommand (`rig -m x fork ...`) apply too (see options.ts).
    const flags = mergedOptions<ReplFlags>(command);
    const target = { ...(id ? { id } : {}), ...(flags.last ? { last: true } : {}), all: Boolean(flags.all) };
    if (process.stdin.isTTY && process.stdout.isTTY && !flags.printOnly && !flags.lines) {
      const { runTuiSession } = await import('../../frontends/tui/session.js');
      process.exitCode = await runTuiSession({ mode: 'fork', target, thread: threadRequestFromFlags(flags, 'interactive'), altScreen: flags.altScreen !== false });
      return;
    }
    const { runReplCommand } = await import('../../frontends/repl/run.js');
    process.exitCode = await runReplCommand({
      target,
      fork: true,
      thread: threadRequestFromFlags(flags, 'interactive'),
      printOnly: Boolean(flags.printOnly),
      fullHistory: Boolean(flags.fullHistory),
    });
  });
}
