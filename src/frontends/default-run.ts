// `rig [prompt...]` with no subcommand (what `npm start` runs): on a terminal with a usable provider
// it opens the interactive session (the prompt, if any, sent first); on a pipe it runs the prompt
// as `rig exec` does. With no API key and no prompt it runs the offline demo, so a fresh
// clone shows a real session before any setup; with a prompt it fails (exit 1) saying what to set,
// so a script never mistakes an unsent task for a done one.
import { providerReadiness, rigHomeOf, type Readiness } from '../core/provider-readiness.js';
import type { ThreadStartRequest } from '../core/engine.js';
import type { ExecCommandInput } from './exec/run.js';

export interface DefaultRunOptions {
  /** The exec request the root options describe (-m, -c, --provider, ...); default: none given. */
  exec?: Omit<ExecCommandInput, 'prompt'>;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Where the demo makes its temp copy (default: the OS temp directory). */
  demoTempParent?: string;
  /** The interactive session's request (flags read as `rig resume` reads them) and --no-alt-screen. */
  interactive?: { thread: ThreadStartRequest; altScreen: boolean };
  /** Whether stdin and stdout are a terminal (default: the process's). */
  terminal?: boolean;
}

const USAGE = [
  'rig is ready. Give it a task:',
  '  rig "fix the failing test in src/parser.ts"    (or: rig exec "...")',
  '  rig demo                                        replay a recorded session offline',
  '  rig --help                                      every command and option',
  '',
].join('\n');

export async function runDefault(promptArgs: string[], options: DefaultRunOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const exec = options.exec ?? { thread: { cwd }, json: false, color: 'auto' as const };
  const stdout = options.stdout ?? ((text: string) => void process.stdout.write(text));
  const stderr = options.stderr ?? ((text: string) => void process.stderr.write(text));

  // On a terminal the session's code is read while the provider is checked (the first frame
  // waits for both, not one after the other).
  const terminal = options.terminal ?? Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const session = options.interactive && terminal ? import('./tui/session.js') : undefined;
  session?.catch(() => undefined);
  let readiness: Readiness;
  try {
    readiness = providerReadiness({ ...exec.thread, cwd }, env);
  } catch (error) {
    stderr(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  const prompt = promptArgs.join(' ').trim();
  if (!readiness.ready) {
    const { missingKey, providerName } = readiness;
    const fix = `export ${missingKey}=..., or pick another model_provider in ${rigHomeOf(env)}/config.toml (or --provider ID)`;
    if (prompt !== '') {
      stderr(`rig: no API key for ${providerName}: ${missingKey} is not set, so your prompt was not sent. To run it: ${fix}. \`rig demo\` shows a recorded session offline.\n`);
      return 1;
    }
    stderr(`rig: no API key for ${providerName}: ${missingKey} is not set (${fix}); running the offline demo instead.\n\n`);
    const { runDemo } = await import('./demo.js');
    return (await runDemo({ env, stdout, stderr, ...(options.demoTempParent ? { tempParent: options.demoTempParent } : {}) })).exitCode;
  }

  // Flags that only mean something to a one-shot run (--json, -o, --output-schema) keep it one.
  const oneShot = exec.json || exec.outputLastMessage !== undefined || exec.outputSchemaFile !== undefined;
  if (options.interactive && terminal && !oneShot && session) {
    const { runTuiSession } = await session;
    return runTuiSession(
      { mode: 'new', thread: options.interactive.thread, altScreen: options.interactive.altScreen, ...(prompt ? { prompt } : {}), ...(exec.images?.length ? { images: [...exec.images] } : {}) },
      { env, cwd, stderr },
    );
  }
  if (prompt === '') {
    stdout(USAGE);
    return 0;
  }
  const { runExecCommand } = await import('./exec/run.js');
  return runExecCommand({ ...exec, prompt });
}
