// commander wiring only: parse flags, then hand off to a front end. Each action imports its front
// end lazily so a command pays only for what it uses. Shared options and how their positions
// merge: options.ts.
import { Command } from 'commander';
import { rigVersion } from '../core/version.js';
import { execInputFromFlags, threadRequestFromFlags, type SessionFlags as CommonFlags } from './session-flags.js';
import { CliError } from './errors.js';
import {
  addSharedOptions,
  checkInheritedOptions,
  EXEC_OPTIONS,
  mergedOptions,
  optionWarnings,
  POSITIONS_HELP,
  SESSION_OPTIONS,
  TUI_OPTIONS,
} from './options.js';
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
import { registerMcpServer } from './commands/mcp-server.js';
import { registerTuiDemo } from './commands/tui-demo.js';
import { registerEval } from './commands/eval.js';
import { registerWorker } from './commands/worker.js';
import { registerSkills } from './commands/skills.js';
import { registerHooks } from './commands/hooks.js';
import { registerAppServer } from './commands/app-server.js';
import { registerAcp } from './commands/acp.js';
import { registerUndo } from './commands/undo.js';
import { registerReview } from './commands/review.js';

/** Options every engine command accepts (root and exec, and again after `exec resume`). */
export function addCommonOptions(command: Command): Command {
  return addSharedOptions(command, SESSION_OPTIONS);
}

function addExecOptions(command: Command): Command {
  return addSharedOptions(command, [...SESSION_OPTIONS, ...EXEC_OPTIONS]);
}

/**
 * The whole program, or with `args` only what parsing them can reach: when the first word is `exec`
 * (or `e`), the other commands are never reached (options are positional), so their option objects
 * are not built, ~1.5-2.5 ms of every `rig exec` start. Any other first word gets them all.
 */
export function buildProgram(args?: readonly string[]): Command {
  const execOnly = args !== undefined && (args[0] === 'exec' || args[0] === 'e');
  const program = new Command('rig')
    .description('A coding agent for the terminal: streams a model, runs its commands and edits under a sandbox, loops until done.')
    .version(`rig ${rigVersion()}`, '-V, --version', 'print the version')
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions()
    .addHelpText('after', POSITIONS_HELP);

  const exec = addExecOptions(
    program
      .command('exec')
      .alias('e')
      .description('run one task non-interactively; the prompt is the argument, or stdin when it is "-" or absent')
      .argument('[prompt]', 'the task; "-" or absent reads stdin; exactly "/compact" compacts the thread')
      .addHelpText('after', POSITIONS_HELP),
  ).action(async (prompt: string | undefined, _flags: CommonFlags, command: Command) => {
    const { runExecCommand } = await import('../frontends/exec/run.js');
    process.exitCode = await runExecCommand({ prompt, ...execInputFromFlags(mergedOptions<CommonFlags>(command)) });
  });

  addExecOptions(
    exec
      .command('resume')
      .description('continue a thread non-interactively')
      .argument('[id]', 'thread id (or prefix); with --last, the prompt')
      .argument('[prompt]', 'the follow-up prompt; "-" or absent reads stdin')
      .option('--last', 'continue the most recent thread in this directory')
      .option('--all', 'with --last, consider threads from every directory')
      .addHelpText('after', POSITIONS_HELP),
  ).action(async (id: string | undefined, prompt: string | undefined, _flags: CommonFlags, command: Command) => {
    const { runExecCommand } = await import('../frontends/exec/run.js');
    const flags = mergedOptions<CommonFlags>(command);
    const resume = flags.last ? { last: true, all: Boolean(flags.all) } : { id };
    const text = flags.last ? id ?? prompt : prompt;
    if (!flags.last && !id) throw new CliError('exec resume needs a thread id, or --last (see `rig sessions list`)');
    process.exitCode = await runExecCommand({ prompt: text, ...execInputFromFlags(flags), resume });
  });

  if (!execOnly) registerCommandsBeforeRoot(program);

  // `rig [prompt...]`: run a task as `rig exec` does; with no prompt and no API key, the offline demo.
  addSharedOptions(addExecOptions(program), TUI_OPTIONS)
    .argument('[prompt...]', 'on a terminal: open the interactive session (the prompt sent first); on a pipe: run it as `rig exec` does; with no prompt and no API key set, runs `rig demo`')
    .action(async (prompt: string[], _flags: CommonFlags, command: Command) => {
      const { runDefault } = await import('../frontends/default-run.js');
      const flags = mergedOptions<CommonFlags>(command);
      process.exitCode = await runDefault(prompt, { exec: execInputFromFlags(flags), interactive: { thread: threadRequestFromFlags(flags, 'interactive'), altScreen: flags.altScreen !== false } });
    });
  if (!execOnly) registerCommandsAfterRoot(program);

  // An option before a subcommand that means nothing to it is an error, not silently dropped.
  program.hook('preAction', (_root, actionCommand) => {
    checkInheritedOptions(actionCommand);
    for (const warning of optionWarnings.splice(0)) process.stderr.write(`rig: warning: ${warning}\n`);
  });

  return program;
}

// Two groups, so `rig --help` lists the commands in the order they always had.
function registerCommandsBeforeRoot(program: Command): void {
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
  registerEval(program);
  registerWorker(program);
}

function registerCommandsAfterRoot(program: Command): void {
  registerHarness(program);
  registerMcp(program);
  registerMcpServer(program);
  registerSkills(program);
  registerHooks(program);
  registerAppServer(program);
  registerAcp(program);
  registerUndo(program);
  registerReview(program);
}

export async function runCli(args: string[]): Promise<void> {
  endQuietlyWhenStdoutCloses();
  const program = buildProgram(args);
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

/** What a program ended by SIGPIPE reports: 128 + 13. */
const CLOSED_STDOUT_EXIT_CODE = 141;

/**
 * A reader that goes away (`rig --help | head -1`) ends rig quietly, as SIGPIPE ends a C program,
 * instead of an unhandled EPIPE with a stack trace. Front ends that watch their own output (the
 * REPL and the TUI notice a terminal hanging up) add listeners of their own and decide themselves.
 */
function endQuietlyWhenStdoutCloses(): void {
  const onError = (error: NodeJS.ErrnoException): void => {
    if (process.stdout.listenerCount('error') > 1) return;
    if (error.code === 'EPIPE') process.exit(CLOSED_STDOUT_EXIT_CODE);
    throw error;
  };
  process.stdout.on('error', onError);
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
