// `rig exec ...` builds only the exec command (src/cli/program.ts): what it parses, the help it
// prints and the root options it inherits must be exactly those of the whole program.
import type { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

const exec = (program: Command): Command => program.commands.find((command) => command.name() === 'exec')!;

function optionsOf(command: Command): string[] {
  return command.options.map((option) => `${option.flags}=${JSON.stringify(option.defaultValue)}`);
}

function parsedFlags(args: string[], whole: boolean): Record<string, unknown> {
  let seen: Record<string, unknown> = {};
  const program = whole ? buildProgram() : buildProgram(args);
  const target = exec(program);
  const resume = target.commands.find((command) => command.name() === 'resume')!;
  for (const command of [target, resume]) {
    command.exitOverride();
    command.action((...actionArgs: unknown[]) => {
      const self = actionArgs[actionArgs.length - 1] as Command;
      seen = { command: self.name(), args: self.args, flags: self.optsWithGlobals() };
    });
  }
  program.exitOverride();
  program.parse(args, { from: 'user' });
  return seen;
}

describe('buildProgram for an exec run', () => {
  test('leaves out the other commands, and only for exec and its alias', () => {
    expect(buildProgram(['exec', 'hi']).commands.map((command) => command.name())).toEqual(['exec']);
    expect(buildProgram(['e', 'hi']).commands.map((command) => command.name())).toEqual(['exec']);
    expect(buildProgram(['sessions']).commands.length).toBe(buildProgram().commands.length);
    expect(buildProgram(['-m', 'x', 'exec']).commands.length).toBe(buildProgram().commands.length);
  });

  test('exec and exec resume have the same options, arguments and help as in the whole program', () => {
    const whole = buildProgram();
    const only = buildProgram(['exec']);
    expect(optionsOf(only)).toEqual(optionsOf(whole));
    expect(optionsOf(exec(only))).toEqual(optionsOf(exec(whole)));
    expect(exec(only).helpInformation()).toBe(exec(whole).helpInformation());
    const resume = (program: Command) => exec(program).commands.find((command) => command.name() === 'resume')!;
    expect(resume(only).helpInformation()).toBe(resume(whole).helpInformation());
  });

  test('parses an exec command line to the same flags either way', () => {
    const lines = [
      ['exec', '--json', '-c', 'model="m"', '--sandbox', 'workspace-write', 'do it'],
      ['e', '-m', 'gpt', '--skip-git-repo-check', '--ephemeral', 'task'],
      ['exec', 'resume', '--last', 'follow up'],
    ];
    for (const line of lines) {
      const viaWhole = parsedFlags(line, true);
      expect(viaWhole['command'], line.join(' ')).toBeDefined();
      expect(parsedFlags(line, false), line.join(' ')).toEqual(viaWhole);
    }
  });
});
