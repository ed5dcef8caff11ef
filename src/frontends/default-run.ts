// `rig [prompt...]` with no subcommand (what `npm start` runs): with a usable provider it runs the
// prompt as `rig exec` does; with no API key it says which variable to set and runs the offline
// demo instead, so a fresh clone shows a real session before any setup.
import { providerReadiness, rigHomeOf, type Readiness } from '../core/provider-readiness.js';
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

  let readiness: Readiness;
  try {
    readiness = providerReadiness({ ...exec.thread, cwd }, env);
  } catch (error) {
    stderr(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  if (!readiness.ready) {
    const { missingKey, providerName } = readiness;
    const ignored = promptArgs.length > 0 ? ' (your prompt was not sent)' : '';
    stderr(
      `rig: no API key for ${providerName}: ${missingKey} is not set (export ${missingKey}=... or pick another model_provider in ${rigHomeOf(env)}/config.toml); running the offline demo instead${ignored}.\n\n`,
    );
    const { runDemo } = await import('./demo.js');
    return (await runDemo({ env, stdout, stderr, ...(options.demoTempParent ? { tempParent: options.demoTempParent } : {}) })).exitCode;
  }

  const prompt = promptArgs.join(' ').trim();
  if (prompt === '') {
    stdout(USAGE);
    return 0;
  }
  const { runExecCommand } = await import('./exec/run.js');
  return runExecCommand({ ...exec, prompt });
}
