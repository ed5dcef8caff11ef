// `rig exec [resume ID] /compact` compacts the thread instead of running a turn; in --json it is
// framed as a turn of its own, as codex exec frames it, and rig's own item types stay out.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
let repo: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

test('/compact on a resumed thread is one turn: started, a warning item, completed with usage', async () => {
  mock.enqueue({ text: 'first answer' });
  const first = await runRig(['exec', '--json', 'remember the plan'], { cwd: repo, home });
  const threadId = jsonLines(first.stdout)[0]!['thread_id'] as string;
  const before = mock.requests.length;
  mock.enqueue({ text: 'SUMMARY: the user asked to remember the plan.', usage: { input_tokens: 50, output_tokens: 12 } });

  const run = await runRig(['exec', '--json', 'resume', threadId, '/compact'], { cwd: repo, home });

  expect(run.code).toBe(0);
  expect(mock.requests.length).toBe(before + 1);
  expect(JSON.stringify(mock.requests.at(-1)!.body.input)).toContain('remember the plan');
  const events = jsonLines(run.stdout);
  expect(events.map((e) => e.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
  expect(events[0]).toEqual({ type: 'thread.started', thread_id: threadId });
  expect(events[2]).toMatchObject({ type: 'item.completed', item: { type: 'error', message: expect.stringMatching(/compacted/) } });
  // The thread's running totals, at least the first turn's (10 + 5). The summary request's own
  // usage (50 + 12) is not counted yet: compaction does not add it to the thread's totals.
  expect(events[3]).toMatchObject({ type: 'turn.completed', usage: { cache_write_input_tokens: 0, reasoning_output_tokens: 0 } });
  const usage = (events[3] as { usage: { input_tokens: number; output_tokens: number } }).usage;
  expect(usage.input_tokens).toBeGreaterThanOrEqual(10);
  expect(usage.output_tokens).toBeGreaterThanOrEqual(5);
});

test('a failed /compact is a failed turn with the reason', async () => {
  mock.enqueue({ status: 400, message: 'too long' });
  const run = await runRig(['exec', '--json', '/compact'], { cwd: repo, home });
  expect(run.code).toBe(1);
  const events = jsonLines(run.stdout);
  expect(events.map((e) => e.type)).toEqual(['thread.started', 'turn.started', 'error', 'turn.failed']);
  expect(events[3]).toEqual({ type: 'turn.failed', error: { message: expect.stringMatching(/^compaction failed: .*too long/) } });
});
