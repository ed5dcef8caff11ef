// Sub-agents cannot ask the person (Codex drops request_user_input for children): the root's
// requests offer it, its child's do not.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo } from '../support/workspace.js';
import { agentsHome, CHILD_MODEL, ROOT_MODEL, scriptByModel } from '../support/agents-home.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

test('a child thread is not offered request_user_input; its parent is', async () => {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url);
  dirs.push(repo, home);
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_agent', arguments: { task_name: 'helper', agent_type: 'implementer', fork_turns: 'none', message: 'look at a.txt' } }] },
      { toolCalls: [{ id: 'call_wait', name: 'wait_agent', arguments: { timeout_ms: 60000 } }] },
      { text: 'done' },
    ],
    [CHILD_MODEL]: [{ text: 'a.txt says alpha' }],
  });
  const run = await runRig(['exec', '--json', '--harness', 'native', 'delegate it'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  const names = (request: { body: { tools: { name: string }[] } }) => request.body.tools.map((tool) => tool.name);
  expect(seen[ROOT_MODEL]!.length).toBeGreaterThan(0);
  for (const request of seen[ROOT_MODEL]!) expect(names(request)).toContain('request_user_input');
  expect(seen[CHILD_MODEL]!.length).toBeGreaterThan(0);
  for (const request of seen[CHILD_MODEL]!) {
    expect(names(request)).not.toContain('request_user_input');
    expect(names(request)).toContain('exec_command');
  }
});
