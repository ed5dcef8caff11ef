// `rig demo`: a real agent session with no API key and no network. The example project is copied
// to a fresh temp directory and the agent runs there for real (commands, patches, tests); only the
// model is replaced, by the recorded responses in examples/bugfix.session.jsonl (replay provider).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../core/engine.js';
import type { SandboxModeName } from '../protocol/index.js';
import { createHumanRenderer } from './exec/human.js';

/** The task the recorded session was given (scripts/record-demo.ts records with it). */
export const DEMO_PROMPT = 'The tests in this project fail. Find the bug, fix it, and make sure the tests pass.';
export const DEMO_EXAMPLE = 'bugfix';
/** The recording sits next to the example, not in it, so it is never part of the copied project. */
export const DEMO_RECORDING = 'bugfix.session.jsonl';
/** The harness the recording was made with; replay must present the same tools. */
export const DEMO_HARNESS = 'native';

export interface DemoOptions {
  /** Environment for the session (API keys are never needed); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  color?: boolean;
  /** The example project to copy (default: examples/bugfix of this checkout). */
  exampleDir?: string;
  /** The recording to replay (default: examples/bugfix.session.jsonl). */
  recording?: string;
  /** Where to make the temp copy (default: the OS temp directory). */
  tempParent?: string;
}

export interface DemoResult {
  exitCode: number;
  /** The temp copy the agent worked in. */
  workdir: string;
  testsPass: boolean;
  error?: string;
}

/** The directory holding the example projects: found by walking up from this module (src/ or dist/). */
export function findExamplesDir(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'examples', DEMO_RECORDING))) return join(dir, 'examples');
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function initGitRepo(dir: string): boolean {
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.email=demo@rig.invalid', '-c', 'user.name=rig demo', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      stdio: 'ignore',
    }).status === 0;
  return git('-c', 'init.defaultBranch=main', 'init', '-q') && git('add', '-A') && git('commit', '-q', '-m', 'example project');
}

/** workspace-write when this machine can sandbox commands, else full access (the commands are the recording's). */
async function chooseSandbox(): Promise<{ mode: SandboxModeName; note?: string }> {
  const { sandboxAvailability } = await import('../core/safety-commands.js');
  const availability = await sandboxAvailability();
  if (availability.available) return { mode: 'workspace-write' };
  return { mode: 'danger-full-access', note: `no sandbox here (${availability.reason}); the recorded commands run unsandboxed in the temp copy` };
}

export interface TestRun {
  pass: boolean;
  summary: string;
}

/** Runs the example's tests (`node --test`) and sums them up in a line. */
export function runExampleTests(dir: string): TestRun {
  // TAP explicitly: newer Node versions default to another reporter.
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const count = (name: string) => output.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1];
  const pass = count('pass');
  const fail = count('fail');
  const summary = pass !== undefined && fail !== undefined ? `${pass} passed, ${fail} failed` : `exit ${run.status ?? run.signal}`;
  return { pass: run.status === 0, summary };
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? ((text: string) => void process.stdout.write(text));
  const stderr = options.stderr ?? ((text: string) => void process.stderr.write(text));
  const color = options.color ?? (Boolean(process.stdout.isTTY) && !env['NO_COLOR']);
  const bold = (text: string) => (color ? `\x1b[1m${text}\x1b[22m` : text);

  const examples = findExamplesDir();
  const exampleDir = options.exampleDir ?? (examples ? join(examples, DEMO_EXAMPLE) : undefined);
  const recording = options.recording ?? (examples ? join(examples, DEMO_RECORDING) : undefined);
  if (!exampleDir || !recording || !existsSync(exampleDir) || !existsSync(recording)) {
    const message = `the demo files are missing (looked for examples/${DEMO_EXAMPLE}/ and examples/${DEMO_RECORDING} above ${dirname(fileURLToPath(import.meta.url))}); run rig from a checkout of its repository`;
    stderr(`rig: ${message}\n`);
    return { exitCode: 1, workdir: '', testsPass: false, error: message };
  }

  const root = realpathSync(mkdtempSync(join(options.tempParent ?? tmpdir(), 'rig-demo-')));
  const workdir = join(root, DEMO_EXAMPLE);
  cpSync(exampleDir, workdir, { recursive: true });
  const git = initGitRepo(workdir);
  // A private home: the user's config, rules and session list stay out of the demo (and it out of them).
  const home = join(root, 'rig-home');
  mkdirSync(home);
  const sandbox = await chooseSandbox();

  stderr(`${bold('rig demo')}: a recorded agent session replayed offline (no API key, no network).\n`);
  stderr(`The agent works for real in a temp copy of examples/${DEMO_EXAMPLE}: ${workdir}\n`);
  if (sandbox.note) stderr(`note: ${sandbox.note}\n`);
  const before = runExampleTests(workdir);
  stderr(`Tests before: ${before.summary}\n\n${bold('>')} ${DEMO_PROMPT}\n\n`);

  let error: string | undefined;
  const engine = new Engine({ env: { ...env, RIG_HOME: home }, source: 'exec' });
  try {
    const thread = await engine.startThread({
      cwd: workdir,
      overrides: { replayFile: resolve(recording), harness: DEMO_HARNESS, sandbox: sandbox.mode, approvalPolicy: 'never' },
      ignoreRules: true,
      requireTrustedDirectory: git,
      // The recording asks for nothing; anything that still wants approval is declined, as in exec.
      canAskApproval: false,
    });
    const render = createHumanRenderer({ stdout, stderr, color });
    thread.subscribe((envelope) => render(envelope.event));
    const result = await thread.startTurn({ text: DEMO_PROMPT }).done;
    if (result.status !== 'completed') error = result.error ?? `the turn ended ${result.status}`;
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  } finally {
    await engine.close();
  }

  const after = runExampleTests(workdir);
  stderr('\n');
  if (git) {
    const diff = spawnSync('git', ['diff', '--no-ext-diff', `--color=${color ? 'always' : 'never'}`], { cwd: workdir, encoding: 'utf8' });
    if (diff.status === 0 && diff.stdout.trim() !== '') stderr(`${bold('The change the agent made:')}\n${diff.stdout}\n`);
  }
  if (error) stderr(`rig: the demo session failed: ${error}\n`);
  stderr(`Tests after: ${after.summary}${after.pass ? ' — the bug is fixed.' : '.'}\n`);
  stderr(`The patched copy is in ${workdir} (cd there and run node --test, or git diff).\n`);
  stderr('To run rig on your own code, set an API key (e.g. export OPENAI_API_KEY=...) and run: rig "your task"\n');
  const exitCode = !error && after.pass ? 0 : 1;
  return { exitCode, workdir, testsPass: after.pass, ...(error ? { error } : {}) };
}
