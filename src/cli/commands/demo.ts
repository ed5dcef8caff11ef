// rig demo
import { Option, type Command } from 'commander';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('replay a recorded agent session offline (no API key needed): it fixes a bug in a temp copy of an example project')
    .addOption(new Option('--color <when>', 'colour output').choices(['always', 'never', 'auto']).default('auto'))
    .action(async (flags: { color: 'always' | 'never' | 'auto' }) => {
      const { runDemo } = await import('../../frontends/demo.js');
      const color = flags.color === 'always' || (flags.color === 'auto' && Boolean(process.stdout.isTTY) && !process.env['NO_COLOR']);
      process.exitCode = (await runDemo({ color })).exitCode;
    });
}
