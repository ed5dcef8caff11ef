// Plan mode (`rig exec --plan`): a read-only sandbox and no file-changing tools, for the root and
// every child, enforced by the engine. Edits by shell and by edit tool are refused; the files stay.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo } from '../../support/workspace.js';
import { agentsHome, CHILD_MODEL, inputTexts, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+CHANGED\n*** End Patch\n';

test('--plan: the root cannot edit by shell or by apply_patch, and neither can its child', async () => {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url);
  dirs.push(repo, home);
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [{ id: 'call_sh', name: 'exec_command', arguments: { cmd: 'echo CHANGED > a.txt && git commit -qam planned' } }] },
      { toolCalls: [{ id: 'call_patch', name: 'apply_patch', kind: 'custom', input: PATCH }] },
      { toolCalls: [{ id: 'call_esc', name: 'exec_command', arguments: { cmd: 'echo CHANGED > a.txt', sandbox_permissions: 'require_escalated', justification: 'need to write' } }] },
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_agent', arguments: { task_name: 'editor', agent_type: 'implementer', fork_turns: 'none', message: 'change a.txt' } }] },
      { toolCalls: [{ id: 'call_wait', name: 'wait_agent', arguments: { timeout_ms: 60000 } }] },
      { text: 'Plan: change a.txt once accepted.' },
    ],
    [CHILD_MODEL]: [
      { toolCalls: [{ id: 'call_csh', name: 'exec_command', arguments: { cmd: 'echo CHILD > a.txt' } }] },
      { toolCalls: [{ id: 'call_cpatch', name: 'apply_patch', kind: 'custom', input: PATCH }] },
      { text: 'could not change anything' },
    ],
  });
  const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'danger-full-access', '--plan', 'plan the change'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');

  // The edit tool is not offered, and refuses when called anyway; the shell is read-only.
  for (const request of [...seen[ROOT_MODEL]!, ...seen[CHILD_MODEL]!]) {
    const names = request.body.tools.map((t: { name: string }) => t.name);
    expect(names).not.toContain('apply_patch');
    expect(names).toContain('exec_command');
    expect(inputTexts(request).join('\n')).toContain('<sandbox_mode>read-only</sandbox_mode>');
  }
  const root = seen[ROOT_MODEL]!;
  expect(inputTexts(root[1]!).at(-1)).toMatch(/Read-only file system|Permission denied/);
  expect(inputTexts(root[2]!).at(-1)).toContain('apply_patch is not available in plan mode');
  expect(inputTexts(root[3]!).at(-1)).toContain('you cannot ask for escalated permissions');
  const child = seen[CHILD_MODEL]!;
  expect(inputTexts(child[1]!).at(-1)).toMatch(/Read-only file system|Permission denied/);
  expect(inputTexts(child[2]!).at(-1)).toContain('apply_patch is not available in plan mode');
  expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'turn.completed' });
});
