// commander wiring only: parse flags, then hand off to a front end. Each action imports its front
// end lazily so a command pays only for what it uses.
import { Command, Option } from 'commander';
import { rigVersion } from '../core/version.js';
import type { SessionFlags as CommonFlags } from '../core/settings.js';
import { CliError } from './errors.js';
import { registerApplyPatch } from './commands/apply-patch.js';
import { registerSessions } from './commands/sessions.js';
import { registerResume } from './commands/resume.js';
import { registerFork } from './commands/fork.js';
import { registerArchive } from './commands/archive.js';
import { registerUnarchive } from './commands/unarchive.js';
import { registerDelete } from './commands/delete.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerDoctor } from './commands/doctor.js';
import { registerExecpolicy } from './commands/execpolicy.js';
import { registerDemo } from './commands/demo.js';
import { registerHarness } from './commands/harness.js';
import { registerMcp } from './commands/mcp.js';
import { registerTuiDemo } from './commands/tui-demo.js';
import { registerSkills } from './commands/skills.js';
import { registerHooks } from './commands/hooks.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function collectImages(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').filter((part) => part !== '')];
}

/** Options every engine command accepts (root and exec, and again after `exec resume`). */
export function addCommonOptions(command: Command): Command {
  return command
    .option('-c, --config <key=value>', 'override a config value (dotted key, TOML value; repeatable)', collect)
    .option('-p, --profile <name>', 'layer the named config profile ([profiles.NAME] or $RIG_HOME/NAME.config.toml)')
    .option('-m, --model <model>', 'model to use')
    .option('--provider <id>', 'model provider id (openai, anthropic, openrouter, deepseek, moonshot, dashscope, zai, ollama, lmstudio, replay, or one from config)')
    .option('--harness <id>', 'present rig to the model as this harness (see `rig harness list`)')
    .option('-C, --cd <dir>', 'working root for the agent')
    .addOption(new Option('-s, --sandbox <mode>', 'sandbox for model-run commands').choices(['read-only', 'workspace-write', 'danger-full-access']))
    .addOption(new Option('-a, --ask-for-approval <policy>', 'when to ask before running a command').choices(['untrusted', 'on-request', 'on-failure', 'never']))
    .option('--add-dir <dir>', 'extra writable directory (repeatable)', collect)
    .option('--full-auto', 'workspace-write sandbox and on-request approvals')
    .option('--dangerously-bypass-approvals-and-sandbox', 'run every command without sandbox or approval (DANGEROUS)')
    .option('--yolo', 'alias of --dangerously-bypass-approvals-and-sandbox')
    .option('--replay <rollout>', 'serve model responses recorded in a rollout file (offline; implies --provider replay)')
    .option('--ignore-user-config', 'do not read $RIG_HOME/config.toml')
    .option('--ignore-rules', 'do not load exec-policy .rules files')
    .option('--strict-config', 'treat unknown config keys as errors');
}

function addExecOptions(command: Command): Command {
  return addCommonOptions(command)
    .option('--json', 'print one JSON event per line on stdout (Codex exec event format)')
    .option('--experimental-json', 'alias of --json')
    .option('-o, --output-last-message <file>', 'write the final agent message to FILE')
    .option('--output-schema <file>', 'JSON Schema the final answer must follow')
    .option('-i, --image <file>', 'attach image(s) to the prompt (repeatable or comma-separated)', collectImages)
    .option('--skip-git-repo-check', 'allow running outside a git repository')
    .option('--ephemeral', 'do not write a rollout for this session')
    .addOption(new Option('--color <when>', 'colour human output').choices(['always', 'never', 'auto']).default('auto'))
    // The Codex SDK passes these when its threadSource / cyberAccessProgram options are set.
    .option('--thread-source <source>', 'accepted for Codex SDK compatibility (its threadSource option); not used yet')
    .option('--cyber-access-program <program>', 'accepted for Codex SDK compatibility (an OpenAI-only turn option); ignored');
}

export function buildProgram(): Command {
  const program = new Command('rig')
    .description('A coding agent for the terminal: streams a model, runs its commands and edits under a sandbox, loops until done.')
    .version(`rig ${rigVersion()}`, '-V, --version', 'print the version')
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions();

  const exec = addExecOptions(
    program
      .command('exec')
      .alias('e')
      .description('run one task non-interactively; the prompt is the argument, or stdin when it is "-" or absent')
      .argument('[prompt]', 'the task; "-" or absent reads stdin; exactly "/compact" compacts the thread')
      .passThroughOptions(),
  ).action(async (prompt: string | undefined, flags: CommonFlags) => {
    const { runExecCommand } = await import('../frontends/exec/run.js');
    // Engine flags given before the subcommand (`rig -m x exec ...`) apply too; later ones win.
    process.exitCode = await runExecCommand({ prompt, flags: { ...program.opts(), ...flags } as CommonFlags });
  });

  addExecOptions(
    exec
      .command('resume')
      .description('continue a thread non-interactively')
      .argument('[id]', 'thread id (or prefix); with --last, the prompt')
      .argument('[prompt]', 'the follow-up prompt; "-" or absent reads stdin')
      .option('--last', 'continue the most recent thread in this directory')
      .option('--all', 'with --last, consider threads from every directory'),
  ).action(async (id: string | undefined, prompt: string | undefined, flags: CommonFlags, command: Command) => {
    const { runExecCommand } = await import('../frontends/exec/run.js');
    const merged = { ...program.opts(), ...command.parent!.opts(), ...flags } as CommonFlags;
    const resume = flags.last ? { last: true, all: Boolean(flags.all) } : { id };
    const text = flags.last ? id ?? prompt : prompt;
    if (!flags.last && !id) throw new CliError('exec resume needs a thread id, or --last (see `rig sessions list`)');
    process.exitCode = await runExecCommand({ prompt: text, flags: merged, resume });
  });

  registerApplyPatch(program);
  registerSessions(program);
  registerResume(program);
  registerFork(program);
  registerArchive(program);
  registerUnarchive(program);
  registerDelete(program);
  registerSandbox(program);
  registerDoctor(program);
  registerExecpolicy(program);
  registerDemo(program);
  registerTuiDemo(program);

  // `rig [prompt...]`: run a task like `rig exec`; with no API key configured, the offline demo.
  addCommonOptions(program)
    .argument('[prompt...]', 'a task to run as `rig exec` does; with no API key set, runs `rig demo`')
    .action(async (prompt: string[], flags: CommonFlags) => {
      const { runDefault } = await import('../frontends/default-run.js');
      process.exitCode = await runDefault(prompt, { flags });
    });
  registerHarness(program);
  registerMcp(program);
  registerSkills(program);
  registerHooks(program);

  return program;
}

export async function runCli(args: string[]): Promise<void> {
  const program = buildProgram();
  // Subcommands copy settings when created, so each needs its own override to reach reportError.
  const overrideExits = (command: Command): void => {
    command.exitOverride();
    for (const sub of command.commands) overrideExits(sub);
  };
  overrideExits(program);
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

function reportError(error: unknown): number {
  const code = (error as { code?: string }).code;
  if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return 0;
  // A usage error (unknown flag, bad choice, missing argument): commander printed it; 2 as clap and getopt use.
  if (typeof code === 'string' && code.startsWith('commander.')) return 2;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`rig: ${message}\n`);
  return error instanceof CliError ? error.exitCode : 1;
}
