// spawn_agent's `fork_turns: N` through the real CLI: the child's first request carries the
// parent's last N turns (and the summary of a compaction before them), nothing earlier; the
// parent's rollout is left as it was.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { findRolloutFile } from '../../../src/store/index.js';
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

const FLAGS = ['exec', '--json', '--harness', 'native', '-s', 'workspace-write'];
const SUMMARY = 'SUMMARY: the user asked for turn one and got answer one.';

async function turn(repo: string, home: string, threadId: string | undefined, prompt: string, root: Parameters<typeof scriptByModel>[1][string], child: Parameters<typeof scriptByModel>[1][string] = []) {
  const seen = scriptByModel(mock, { [ROOT_MODEL]: root, ...(child.length ? { [CHILD_MODEL]: child } : {}) });
  const run = await runRig([...FLAGS, ...(threadId ? ['resume', threadId] : []), prompt], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return { seen, events: jsonLines(run.stdout) };
}

/** Three turns (optionally a compaction after the first), the third spawning with fork_turns "2". */
async function forkLastTwo(compact: boolean) {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url);
  dirs.push(repo, home);
  const first = await turn(repo, home, undefined, 'turn one', [{ text: 'answer one' }]);
  const threadId = first.events[0]!['thread_id'] as string;
  if (compact) await turn(repo, home, threadId, '/compact', [{ text: SUMMARY }]);
  await turn(repo, home, threadId, 'turn two', [{ text: 'answer two' }]);
  const rolloutBefore = rolloutOf(home, threadId);
  const third = await turn(
    repo,
    home,
    threadId,
    'turn three',
    [
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_agent', arguments: { task_name: 'helper', fork_turns: '2', message: 'child task' } }] },
      { toolCalls: [{ id: 'call_wait', name: 'wait_agent', arguments: { timeout_ms: 60000 } }] },
      { text: 'root done' },
    ],
    [{ text: 'child done' }],
  );
  // The parent's rollout grew by its third turn; what it had before is unchanged.
  expect(rolloutOf(home, threadId).startsWith(rolloutBefore)).toBe(true);
  return { childTexts: inputTexts(third.seen[CHILD_MODEL]![0]!), rootTexts: inputTexts(third.seen[ROOT_MODEL]!.at(-1)!) };
}

function rolloutOf(home: string, threadId: string): string {
  return readFileSync(findRolloutFile(home, threadId)!.path, 'utf8');
}

test('fork_turns "2": the child starts with the parent\'s last two turns, nothing earlier', async () => {
  const { childTexts, rootTexts } = await forkLastTwo(false);
  const start = childTexts.indexOf('turn two');
  expect(start).toBeGreaterThan(0);
  expect(childTexts.slice(start)).toEqual(['turn two', 'answer two', 'turn three', 'child task']);
  expect(childTexts).not.toContain('turn one');
  expect(childTexts).not.toContain('answer one');
  // The child's own opening context comes first (its environment, not a copy of the parent's).
  expect(childTexts.slice(0, start).some((text) => text.includes('<environment_context>'))).toBe(true);
  expect(childTexts.slice(0, start).filter((text) => text.includes('<environment_context>'))).toHaveLength(1);
  expect(rootTexts.at(-1)).toContain('/root/helper');
});

test('fork_turns "2" after a compaction: the summary leads the copied turns', async () => {
  const { childTexts } = await forkLastTwo(true);
  const start = childTexts.findIndex((text) => text.includes(SUMMARY));
  expect(start).toBeGreaterThan(0);
  expect(childTexts[start]).toMatch(/^\[Context summary\]/);
  expect(childTexts.slice(start + 1)).toEqual(['turn two', 'answer two', 'turn three', 'child task']);
  expect(childTexts).not.toContain('turn one');
});
