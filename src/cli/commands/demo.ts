// rig demo
import { Option, type Command } from 'commander';
import { mergedOptions } from '../options.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('replay a recorded agent session offline (no API key needed): it fixes a bug in a temp copy of an example project')
    .addOption(new Option('--color <when>', 'colour output').choices(['always', 'never', 'auto']).default('auto'))
    .action(async (_flags: unknown, command: Command) => {
      const { runDemo } = await import('../../frontends/demo.js');
      // `rig --color never demo` works too.
      const flags = mergedOptions<{ color: 'always' | 'never' | 'auto' }>(command);
      const color = flags.color === 'always' || (flags.color === 'auto' && Boolean(process.stdout.isTTY) && !process.env['NO_COLOR']);
      process.exitCode = (await runDemo({ color })).exitCode;
    });
}
