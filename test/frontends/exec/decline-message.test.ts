// `rig exec` has nobody to ask: a command the policy wants a person for is declined saying so (the
// policy, and how to allow it) rather than "rejected by user", both in the stream and to the model.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { toolResult } from './helpers.js';

let mock: MockProvider;
let repo: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  mkdirSync(join(repo, 'build'));
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

test.each([
  { policy: 'never', flags: [] as string[] },
  { policy: 'on-request', flags: ['--full-auto'] },
])('a destructive command under $policy is declined without asking, naming the policy', async ({ policy, flags }) => {
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'rm -rf build' } }] }, { text: 'ok' });
  const run = await runRig(['exec', '--json', '--harness', 'native', ...flags, 'clean up'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  const item = jsonLines(run.stdout).find((event) => event.type === 'item.completed' && (event.item as { type: string }).type === 'command_execution');
  const output = (item!.item as { aggregated_output: string; status: string });
  expect(output.status).toBe('declined');
  expect(output.aggregated_output).not.toMatch(/rejected by user/);
  expect(output.aggregated_output).toMatch(new RegExp(`^declined without asking: approval policy ${policy} requires approval for the command .*rm -rf build.*, and this session has no one to ask\\. To allow it: `));
  // The model is told the same, so it can tell the user what to do.
  expect(toolResult('responses', mock.requests.at(-1)!.body).text).toContain(`approval policy ${policy} requires approval`);
  expect(existsSync(join(repo, 'build'))).toBe(true);
});
