// Project role files through the real CLI: `.rig/agents/<role>.toml` in a trusted project define
// roles and override the user's of the same name; an untrusted project's are ignored, with a
// warning that names each file.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo } from '../../support/workspace.js';
import { IMPLEMENTER_INSTRUCTIONS } from '../../support/agents-config.js';
import { agentsHome, CHILD_MODEL, developerTexts, inputTexts, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

const PROJECT_IMPLEMENTER = 'Project rule: implement the change and list every file you touched.';
const PROJECT_REVIEWER = 'Project rule: review the diff; change nothing.';

function project(trusted: boolean): { repo: string; home: string } {
  const repo = tempGitRepo({
    'a.txt': 'alpha\n',
    '.rig/agents/implementer.toml': `developer_instructions = ${JSON.stringify(PROJECT_IMPLEMENTER)}\n`,
    '.rig/agents/reviewer.toml': `description = "Reviews changes."\nmodel = "${CHILD_MODEL}"\ndeveloper_instructions = ${JSON.stringify(PROJECT_REVIEWER)}\n`,
  });
  const trust = trusted ? `[projects.${JSON.stringify(realpathSync(repo))}]\ntrust_level = "trusted"\n` : '';
  const home = agentsHome(mock.url, { extra: trust });
  dirs.push(repo, home);
  return { repo, home };
}

const spawn = (id: string, task: string, role: string) => ({ id, name: 'spawn_agent', arguments: { task_name: task, agent_type: role, fork_turns: 'none', message: `do ${task}` } });

function warningsOf(stdout: string): string[] {
  return jsonLines(stdout)
    .filter((e) => e['type'] === 'item.completed' && (e['item'] as { type: string }).type === 'error')
    .map((e) => (e['item'] as { message: string }).message);
}

test("a trusted project's role files define roles and override the user's", async () => {
  const { repo, home } = project(true);
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [spawn('call_1', 'build', 'implementer'), spawn('call_2', 'check', 'reviewer')] },
      { toolCalls: [{ id: 'call_w1', name: 'wait_agent', arguments: { timeout_ms: 60000 } }] },
      { toolCalls: [{ id: 'call_w2', name: 'wait_agent', arguments: { timeout_ms: 60000 } }] },
      { text: 'root done' },
    ],
    [CHILD_MODEL]: [{ text: 'child answer' }, { text: 'child answer' }],
  });
  const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', 'go'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(warningsOf(run.stdout).filter((w) => w.includes('role file'))).toEqual([]);
  const children = seen[CHILD_MODEL]!.map((request) => developerTexts(request).join('\n'));
  const implementer = children.find((text) => text.includes(PROJECT_IMPLEMENTER));
  const reviewer = children.find((text) => text.includes(PROJECT_REVIEWER));
  expect(implementer).toBeDefined();
  expect(implementer).not.toContain(IMPLEMENTER_INSTRUCTIONS);
  expect(reviewer).toBeDefined();
  // Both spawns were accepted.
  const outputs = inputTexts(seen[ROOT_MODEL]![1]!);
  expect(outputs).toContain(JSON.stringify({ task_name: '/root/build', nickname: 'build' }));
  expect(outputs).toContain(JSON.stringify({ task_name: '/root/check', nickname: 'check' }));
});

test("an untrusted project's role files are ignored, with a warning naming each file", async () => {
  const { repo, home } = project(false);
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [{ toolCalls: [spawn('call_1', 'build', 'implementer'), spawn('call_2', 'check', 'reviewer')] }, { toolCalls: [{ id: 'call_w', name: 'wait_agent', arguments: { timeout_ms: 60000 } }] }, { text: 'root done' }],
    [CHILD_MODEL]: [{ text: 'child answer' }],
  });
  const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', 'go'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const warnings = warningsOf(run.stdout).filter((w) => w.startsWith('agent role file ignored'));
  for (const file of ['implementer.toml', 'reviewer.toml']) {
    expect(warnings.some((w) => w.includes(join(realpathSync(repo), '.rig', 'agents', file)) && w.includes('is not trusted') && w.includes('trust_level = "trusted"'))).toBe(true);
  }
  // The user's implementer, not the project's; no reviewer role at all.
  expect(developerTexts(seen[CHILD_MODEL]![0]!).join('\n')).toContain(IMPLEMENTER_INSTRUCTIONS);
  expect(developerTexts(seen[CHILD_MODEL]![0]!).join('\n')).not.toContain(PROJECT_IMPLEMENTER);
  expect(inputTexts(seen[ROOT_MODEL]![1]!).at(-1)).toContain('unknown agent type "reviewer"');
});
