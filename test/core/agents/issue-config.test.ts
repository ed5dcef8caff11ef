// Issue 14's configuration end to end through the real CLI against the loopback mock on two
// models: the planner (gpt-6-astra, high) spawns the implementer role (gpt-5.6-sol, medium, the
// role's developer instructions), the child edits only the file it was told to, and the root
// receives its result and finishes.
import { readFileSync } from 'node:fs';
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

const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** End Patch\n';

test("the issue's configuration: the planner delegates to the implementer and receives its result", async () => {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
  const home = agentsHome(mock.url);
  dirs.push(repo, home);
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      {
        toolCalls: [
          {
            id: 'call_spawn',
            name: 'spawn_agent',
            arguments: { task_name: 'implement_fix', agent_type: 'implementer', model: CHILD_MODEL, reasoning_effort: 'medium', fork_turns: 'none', message: 'Change only named files. In a.txt, replace alpha with ALPHA.' },
          },
        ],
      },
      { toolCalls: [{ id: 'call_wait', name: 'wait_agent', arguments: { timeout_ms: 60000 } }] },
      { text: 'The implementer changed a.txt; done.' },
    ],
    [CHILD_MODEL]: [
      { toolCalls: [{ id: 'call_patch', name: 'apply_patch', kind: 'custom', input: PATCH }] },
      { text: 'Changed a.txt: alpha -> ALPHA. No tests to run.' },
    ],
  });

  const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', 'fix a.txt through the implementer'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);

  // Root: its model and effort; child: the role's model, effort and developer instructions.
  expect(seen[ROOT_MODEL]).toHaveLength(3);
  for (const request of seen[ROOT_MODEL]!) {
    expect(request.body.reasoning.effort).toBe('high');
    expect(developerTexts(request).join('\n')).not.toContain(IMPLEMENTER_INSTRUCTIONS);
  }
  expect(seen[CHILD_MODEL]).toHaveLength(2);
  for (const request of seen[CHILD_MODEL]!) {
    expect(request.body.reasoning.effort).toBe('medium');
    expect(developerTexts(request)).toContain(IMPLEMENTER_INSTRUCTIONS);
    expect(request.body.tools.map((t: { name: string }) => t.name)).toContain('apply_patch');
  }
  expect(inputTexts(seen[CHILD_MODEL]![0]!)).toContain('Change only named files. In a.txt, replace alpha with ALPHA.');

  // The child changed what it was told, nothing else.
  expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('ALPHA\n');
  expect(readFileSync(join(repo, 'b.txt'), 'utf8')).toBe('beta\n');

  // The root heard of the child's result, as Codex's subagent notification, before finishing.
  const last = inputTexts(seen[ROOT_MODEL]![2]!).join('\n');
  expect(last).toContain('<subagent_notification>');
  expect(last).toContain('/root/implement_fix');
  expect(last).toContain('Changed a.txt: alpha -> ALPHA.');
  const spawnOutput = JSON.parse(inputTexts(seen[ROOT_MODEL]![1]!).at(-1)!);
  expect(spawnOutput).toEqual({ task_name: '/root/implement_fix', nickname: 'implement_fix' });

  // --json: collab items in the root's stream, the child's items marked with its thread id.
  const events = jsonLines(run.stdout);
  const rootId = events[0]!['thread_id'];
  const collab = events.filter((e) => e['type'] === 'item.completed' && (e['item'] as { type: string }).type === 'collab_agent_tool_call' && !('thread_id' in e));
  expect(collab.map((e) => (e['item'] as { tool: string }).tool)).toEqual(['spawn_agent', 'wait_agent']);
  const spawned = collab[0]!['item'] as { sender_thread_id: string; receiver_thread_ids: string[]; agent_paths: string[]; status: string };
  expect(spawned).toMatchObject({ sender_thread_id: rootId, agent_paths: ['/root/implement_fix'], status: 'completed' });
  const childId = spawned.receiver_thread_ids[0];
  const childItems = events.filter((e) => e['thread_id'] === childId);
  expect(childItems.map((e) => (e['item'] as { type: string }).type)).toEqual(['file_change', 'agent_message']);
  expect(events.at(-1)).toMatchObject({ type: 'turn.completed' });
  expect(events.filter((e) => e['type'] === 'turn.completed')).toHaveLength(1);
});
