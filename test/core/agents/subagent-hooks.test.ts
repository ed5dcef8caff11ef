// SubagentStart and SubagentStop through the real CLI: the parent thread's hooks (a hooks.json in
// RIG_HOME) run when a child is spawned and when it would finish. SubagentStart's context reaches
// the child's first request; a blocking SubagentStop sends the child on once with its reason, and
// the second run says stop_hook_active.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, runRig, tempDir, tempGitRepo } from '../../support/workspace.js';
import { agentsHome, CHILD_MODEL, inputTexts, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';
import { HookRecorder } from '../../hooks/recorder.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

test('SubagentStart gives the child context; a blocking SubagentStop sends it on once', async () => {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url);
  const hookDir = tempDir('subagent-hooks');
  dirs.push(repo, home, hookDir);
  const hooks = new HookRecorder(hookDir);
  writeFileSync(join(home, 'hooks.json'), hooks.hooksJson([{ event: 'SubagentStart' }, { event: 'SubagentStop' }]));
  hooks.answer('SubagentStart', { stdout: { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'The release branch is frozen.' } } });
  hooks.answer('SubagentStop', { stdout: { decision: 'block', reason: 'Also say which file you read.' } }, { once: true });

  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_agent', arguments: { task_name: 'look', agent_type: 'implementer', message: 'Read a.txt and report.' } }] },
      { toolCalls: [{ id: 'call_wait', name: 'wait_agent', arguments: { timeout_ms: 30_000 } }] },
      { text: 'Done.' },
    ],
    [CHILD_MODEL]: [{ text: 'It says alpha.' }, { text: 'It says alpha; I read a.txt.' }],
  });
  const run = await runRig(['exec', '--json', '-s', 'workspace-write', 'look at a.txt'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);

  const [started] = hooks.of('SubagentStart');
  expect(started).toMatchObject({ hook_event_name: 'SubagentStart', agent_type: 'implementer' });
  expect(typeof started!['agent_id']).toBe('string');
  expect(seen[CHILD_MODEL]).toHaveLength(2);
  const first = inputTexts(seen[CHILD_MODEL]![0]!).join('\n');
  expect(first).toContain('The release branch is frozen.');
  expect(first).toContain('Read a.txt and report.');
  expect(inputTexts(seen[CHILD_MODEL]![1]!).join('\n')).toContain('Also say which file you read.');

  const stops = hooks.of('SubagentStop');
  expect(stops.map((stop) => [stop['last_assistant_message'], stop['stop_hook_active']])).toEqual([
    ['It says alpha.', false],
    ['It says alpha; I read a.txt.', true],
  ]);
  expect(stops[0]!['agent_id']).toBe(started!['agent_id']);
});
