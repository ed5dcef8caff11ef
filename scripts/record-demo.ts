// Records examples/bugfix.session.jsonl, the session `rig demo` replays. The loopback mock provider
// plays the model with the script below; the real, built `rig exec` runs the session in a temp copy
// of examples/bugfix, so the recorded tool outputs are real. Run: node scripts/record-demo.mjs
//
// Every scripted tool call uses paths relative to the session directory: replay compares tool
// calls, so an absolute temp path in one would diverge on any other machine.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockProvider, type MockTurn } from '../test/support/mock-provider/index.js';
import { DEMO_EXAMPLE, DEMO_HARNESS, DEMO_PROMPT, DEMO_RECORDING, runDemo, runExampleTests } from '../src/frontends/demo.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Stands in for the temp directory in the committed file, so re-recording does not churn paths. */
const PLACEHOLDER_ROOT = '/tmp/rig-demo';

const FIX_PATCH = [
  '*** Begin Patch',
  '*** Update File: src/cart.js',
  '@@ export function subtotal(lines) {',
  '   let cents = 0;',
  '-  for (let i = 1; i < lines.length; i++) {',
  '+  for (let i = 0; i < lines.length; i++) {',
  '     cents += lines[i].price * lines[i].quantity;',
  '*** End Patch',
].join('\n');

const exec = (cmd: string) => ({ name: 'exec_command', arguments: { cmd } });

/** The "model": what a careful agent does with this task, one response per request. */
export const DEMO_SCRIPT: MockTurn[] = [
  {
    reasoning: 'Start with the layout and the test command.',
    text: "I'll look at the project layout and how its tests run.",
    toolCalls: [exec('cat package.json && ls src test')],
  },
  {
    reasoning: 'Tests run with node --test; run them to see the failure.',
    text: 'The tests run with `node --test`. Running them to see what fails.',
    toolCalls: [exec('node --test')],
  },
  {
    reasoning: 'subtotal is 1959 instead of 2859: short by 900, exactly the first line (2 x 450). Read the loop.',
    text: 'Two tests fail: `subtotal` returns 1959 instead of 2859, short by exactly 900, which is the first cart line (2 × 450). Reading the implementation.',
    toolCalls: [exec('cat src/cart.js')],
  },
  {
    reasoning: 'The loop starts at index 1 and skips the first line.',
    text: 'The loop in `subtotal` starts at index 1, so it skips the first line of every cart. Starting it at 0.',
    toolCalls: [{ name: 'apply_patch', kind: 'custom', input: FIX_PATCH }],
  },
  {
    text: 'Running the tests again.',
    toolCalls: [exec('node --test')],
  },
  {
    text: [
      'Fixed the bug in `src/cart.js`: `subtotal` started its loop at index 1, so it skipped the first cart line',
      'and every subtotal (and every discounted `total`) came out too low. The loop now starts at 0, and all 4',
      'tests pass (`node --test`).',
    ].join(' '),
  },
];

function runRigExec(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'rig.js'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function findRollouts(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findRollouts(path));
    else if (name.endsWith('.jsonl')) found.push(path);
  }
  return found;
}

function git(cwd: string, ...args: string[]): Promise<unknown> {
  return new Promise((done, fail) => {
    const child = spawn('git', ['-c', 'user.email=demo@rig.invalid', '-c', 'user.name=rig demo', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'ignore' });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(undefined) : fail(new Error(`git ${args.join(' ')} exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'rig-record-demo-')));
  const workdir = join(root, DEMO_EXAMPLE);
  const home = join(root, 'rig-home');
  cpSync(join(REPO, 'examples', DEMO_EXAMPLE), workdir, { recursive: true });
  await git(workdir, '-c', 'init.defaultBranch=main', 'init', '-q');
  await git(workdir, 'add', '-A');
  await git(workdir, 'commit', '-q', '-m', 'example project');
  mkdirSync(home);

  const mock = await startMockProvider();
  try {
    writeFileSync(
      join(home, 'config.toml'),
      [
        'model_provider = "scripted"',
        'model = "scripted-demo"',
        '',
        '[model_providers.scripted]',
        'name = "Scripted demo model (scripts/record-demo.ts)"',
        `base_url = "${mock.url}"`,
        'wire_api = "responses"',
        'env_key = "SCRIPTED_API_KEY"',
        '',
      ].join('\n'),
    );
    mock.enqueue(...DEMO_SCRIPT);
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, SCRIPTED_API_KEY: 'not-a-real-key' };
    const run = await runRigExec(['exec', '--harness', DEMO_HARNESS, '--sandbox', 'workspace-write', '--color', 'never', DEMO_PROMPT], workdir, env);
    process.stderr.write(run.stderr);
    process.stdout.write(run.stdout);
    if (run.code !== 0) throw new Error(`rig exec exited ${run.code}`);
    if (mock.remaining() !== 0) throw new Error(`the session stopped early: ${mock.remaining()} scripted responses were not requested`);
    const tests = runExampleTests(workdir);
    if (!tests.pass) throw new Error(`the tests still fail after the recorded session (${tests.summary})`);

    const rollouts = findRollouts(join(home, 'sessions'));
    if (rollouts.length !== 1) throw new Error(`expected one rollout under ${home}/sessions, found ${rollouts.length}`);
    const text = readFileSync(rollouts[0]!, 'utf8').split(root).join(PLACEHOLDER_ROOT);
    const target = join(REPO, 'examples', DEMO_RECORDING);
    writeFileSync(target, text);
    process.stderr.write(`\nrecorded ${text.split('\n').filter(Boolean).length} records (${text.length} bytes) to ${target}; tests after: ${tests.summary}\n`);
    // The proof that matters: the new recording replays in another directory, with no key.
    const replayed = await runDemo({ env: { PATH: env.PATH, HOME: home }, tempParent: root, stdout: () => {}, stderr: () => {} });
    if (replayed.exitCode !== 0) throw new Error(`the new recording does not replay: ${replayed.error ?? 'the tests still fail'}`);
    process.stderr.write('replayed it offline in a fresh copy: the tests pass\n');
  } finally {
    await mock.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
