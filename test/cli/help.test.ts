// Every flag, argument and command rig defines is described, and `--help` shows it: checked for
// every command of the program in process, and through the built CLI for `rig`, `rig exec` and
// `rig exec resume`.
import { spawn } from 'node:child_process';
import type { Command, Option } from 'commander';
import { afterAll, describe, expect, test } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { RIG_BIN, removeDir, runRig, tempDir } from '../support/workspace.js';

/** Every command with the words that reach it, e.g. [['exec', 'resume'], cmd]. */
function allCommands(command: Command, path: string[] = []): [string[], Command][] {
  return [[path, command], ...command.commands.flatMap((sub) => allCommands(sub, [...path, sub.name()]))];
}

const squash = (text: string) => text.replace(/\s+/g, ' ');

function visibleOptions(command: Command): Option[] {
  return command.options.filter((option) => !(option as Option & { hidden?: boolean }).hidden);
}

/** What a help page must say about an option: its flags and its description. */
function expectOptionDescribed(help: string, option: Option, where: string): void {
  expect(option.description.trim(), `${where} ${option.flags} has no description`).not.toBe('');
  expect(squash(help), `${where} --help does not show ${option.flags}`).toContain(`${option.flags} `);
  expect(squash(help), `${where} --help does not describe ${option.flags}`).toContain(squash(option.description));
}

const commands = allCommands(buildProgram());

describe.each(commands.map(([path, command]) => ({ name: ['rig', ...path].join(' '), command })))('$name', ({ name, command }) => {
  test('has a description, and every option and argument is described in its help', () => {
    expect(command.description().trim(), `${name} has no description`).not.toBe('');
    const help = command.helpInformation();
    for (const option of visibleOptions(command)) expectOptionDescribed(help, option, name);
    for (const argument of command.registeredArguments) {
      expect(argument.description.trim(), `${name} <${argument.name()}> has no description`).not.toBe('');
      expect(squash(help)).toContain(squash(argument.description));
    }
    for (const sub of command.commands) {
      expect(squash(help), `${name} --help does not list ${sub.name()}`).toContain(` ${sub.name()}`);
    }
  });
});

describe('the built CLI', () => {
  const home = tempDir('help-home');
  afterAll(() => removeDir(home));
  const byName = new Map(commands.map(([path, command]) => [path.join(' '), command]));

  test.each([[[]], [['exec']], [['exec', 'resume']]])('rig %j --help describes every flag', async (path) => {
    const run = await runRig([...path, '--help'], { cwd: home, home });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const command = byName.get(path.join(' '))!;
    for (const option of visibleOptions(command)) expectOptionDescribed(run.stdout, option, `rig ${path.join(' ')}`);
    expect(run.stdout).toContain('-h, --help');
  });

  test('a reader that goes away (rig --help | head) ends rig quietly, with the SIGPIPE status', async () => {
    const child = spawn(process.execPath, [RIG_BIN, '--help'], { cwd: home, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before rig writes anything: its write of the help meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });

  test('rig exec --help lists every flag codex exec takes that rig supports', async () => {
    const run = await runRig(['exec', '--help'], { cwd: home, home });
    for (const flag of [
      '--json', '--experimental-json', '--output-last-message', '--output-schema', '--model', '--sandbox', '--cd', '--add-dir',
      '--image', '--profile', '--config', '--dangerously-bypass-approvals-and-sandbox', '--yolo', '--skip-git-repo-check',
      '--ephemeral', '--ignore-user-config', '--ignore-rules', '--strict-config', '--color',
    ]) {
      expect(run.stdout).toMatch(new RegExp(`(^|[ ,])${flag}[ ,\\n]`, 'm'));
    }
  });

  test.each([[[]], [['exec']], [['exec', 'resume']], [['resume']], [['doctor']]])('rig %j --help says options work before and after the subcommand', async (path) => {
    const run = await runRig([...path, '--help'], { cwd: home, home });
    expect(squash(run.stdout)).toContain(squash('Options may come before or after the subcommand, and after the prompt. Repeatable options (-c, --add-dir, -i) collect the values of every position'));
  });

  test('rig --help describes the exec options the root accepts too (rig --json "x")', async () => {
    const run = await runRig(['--help'], { cwd: home, home });
    for (const flag of ['--json', '--skip-git-repo-check', '--output-last-message', '--image', '--ephemeral']) expect(run.stdout).toContain(flag);
  });

  test('an unknown flag is a usage error (exit 2) with a pointer to --help', async () => {
    const run = await runRig(['exec', '--no-such-flag', 'hi'], { cwd: home, home });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("error: unknown option '--no-such-flag'\n(run with --help for usage)\n");
  });
});
