// `rig sandbox` and `rig doctor` show what a session's commands get because they use the session's
// code (safetyFromConfig): the environment `rig sandbox -- env` sees is the one a model-run command
// sees, and `rig doctor` lists the same variables and the provider keys it withholds.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { toolResult } from '../frontends/exec/helpers.js';
import { UNIFIED_EXEC_ENV } from '../../src/exec/unified-exec.js';

let mock: MockProvider;
let repo: string;
let home: string;
const env = { OPENAI_API_KEY: 'sk-openai-should-not-pass', ANTHROPIC_API_KEY: 'sk-ant-should-not-pass', RIG_TEST_VISIBLE: 'yes' };

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({ url: mock.url, extra: '[shell_environment_policy]\nset = { RIG_TEST_SET = "from-config" }\n' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

/** Variables the shell running a session command maintains itself. */
const SHELL_SET = new Set(['SHLVL', '_', 'PWD', 'OLDPWD']);

function parseEnv(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match) vars.set(match[1]!, match[2]!);
  }
  return vars;
}

test('rig sandbox -- env sees exactly the environment of a session command', async () => {
  const sandboxed = await runRig(['sandbox', '--', 'env'], { cwd: repo, home, env });
  expect(sandboxed.code, sandboxed.stderr).toBe(0);
  const fromSandbox = parseEnv(sandboxed.stdout);

  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'env' } }] }, { text: 'ok' });
  const run = await runRig(['exec', '--json', '--harness', 'native', '--sandbox', 'read-only', 'show env'], { cwd: repo, home, env });
  expect(run.code, run.stderr).toBe(0);
  expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'turn.completed' });
  const output = toolResult('responses', mock.requests.at(-1)!.body).text;
  const fromSession = parseEnv(output.slice(output.indexOf('Output:\n') + 'Output:\n'.length));

  // exec_command adds its own plain-output variables on top, and its shell sets a few of its own;
  // the thread id and process scope differ per thread.
  const base = (vars: Map<string, string>) => new Map([...vars].filter(([name]) => !(name in UNIFIED_EXEC_ENV) && !SHELL_SET.has(name)));
  const sessionBase = base(fromSession);
  const sandboxBase = base(fromSandbox);
  expect([...sandboxBase.keys()].sort()).toEqual([...sessionBase.keys()].sort());
  for (const [name, value] of sessionBase) if (name !== 'RIG_THREAD_ID' && name !== 'RIG_PROCESS_SCOPE') expect(sandboxBase.get(name), name).toBe(value);
  expect(sessionBase.get('RIG_TEST_VISIBLE')).toBe('yes');
  expect(sessionBase.get('RIG_TEST_SET')).toBe('from-config');
  for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'MOCK_API_KEY']) expect(sessionBase.has(key), key).toBe(false);
});

test('rig doctor lists the variables a session passes and the keys it withholds', async () => {
  const doctor = await runRig(['doctor'], { cwd: repo, home, env });
  const line = doctor.stdout.split('\n').find((text) => text.startsWith('command environment: '));
  expect(line, doctor.stdout).toBeDefined();
  const names = line!.slice(line!.indexOf(': ', 'command environment: '.length) + 2).split(' ');
  expect(names).toContain('RIG_TEST_VISIBLE');
  expect(names).toContain('RIG_TEST_SET');
  expect(names).not.toContain('OPENAI_API_KEY');
  expect(doctor.stdout).toMatch(/withheld \(provider keys\): .*ANTHROPIC_API_KEY/);
  expect(doctor.stdout).toMatch(/withheld \(provider keys\): .*MOCK_API_KEY/);
  expect(doctor.stdout).not.toContain('sk-openai-should-not-pass');
});
