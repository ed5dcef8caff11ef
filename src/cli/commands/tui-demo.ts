// rig tui-demo: the interactive session against a scripted session, to try the TUI in a terminal
// (or tmux) before it is wired to the engine. Listed in --help (the help test wants every
// command there); the engine wiring replaces it.
import { Option, type Command } from 'commander';

export function registerTuiDemo(program: Command): void {
  program
    .command('tui-demo')
    .description('preview of the interactive session on a scripted conversation (no model, runs nothing)')
    .addOption(new Option('--speed <factor>', 'play the script faster (2) or slower (0.5)').default('1'))
    .action(async (flags: { speed: string }) => {
      const { runTuiDemo } = await import('../../frontends/tui/demo/run-demo.js');
      process.exitCode = await runTuiDemo({ speed: Number(flags.speed) });
    });
}
