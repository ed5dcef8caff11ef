// v2 notifications while the parent is idle, through `rig app-server` (a long-lived engine): a
// background child that finishes after its parent's turn ended is queued, as Codex queues a
// child's completion without starting a turn, and the parent's next turn carries it. In `rig
// exec` the run ends when the model ends the root's turn (codex exec shuts down on the primary
// thread's turn completion, not waiting for children).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo } from '../../support/workspace.js';
import { processesWith, waitUntil } from '../../frontends/exec/helpers.js';
import { agentsHome, CHILD_MODEL, inputTexts, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';
import { initialize, resultOf, spawnAppServer, text } from '../../frontends/app-server/support.js';

type Json = Record<string, unknown>;

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

const params = (message: Json) => (message['params'] ?? {}) as Json;
const turnCompletedFor = (threadId: string) => (message: Json) =>
  message['method'] === 'turn/completed' && params(message)['threadId'] === threadId;

test("a child that finishes while its parent is idle is reported at the parent's next turn", async () => {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url);
  dirs.push(repo, home);
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_agent', arguments: { task_name: 'background', fork_turns: 'none', message: 'wait for the go file' } }] },
      { text: 'started it; ending my turn' },
      { text: 'noted the result' },
    ],
    [CHILD_MODEL]: [
      // Bounded (30 s) wait for the file the test writes once the root's turn is over.
      { toolCalls: [{ id: 'call_wait_go', name: 'exec_command', arguments: { cmd: 'for i in $(seq 1 600); do [ -e go ] && break; sleep 0.05; done; ls go', yield_time_ms: 30000 } }] },
      { text: 'background result: 42' },
    ],
  });
  const peer = spawnAppServer({ cwd: repo, home, args: ['-c', 'harness="native"'] });
  try {
    await initialize(peer);
    const rootId = resultOf<{ thread: { id: string } }>(await peer.request('thread/start', { sandbox: 'workspace-write' })).thread.id;
    const from = peer.received.length;
    await peer.request('turn/start', { threadId: rootId, input: text('start a background agent') });
    const rootDone = await peer.next(turnCompletedFor(rootId), from);
    expect((params(rootDone)['turn'] as Json)['status']).toBe('completed');
    const childStarted = peer.received.slice(from).find((m) => m['method'] === 'thread/started' && (params(m)['thread'] as Json)['id'] !== rootId);
    const childId = (params(childStarted!)['thread'] as Json)['id'] as string;

    // The root is idle now; let the child finish.
    writeFileSync(join(repo, 'go'), '');
    await peer.next(turnCompletedFor(childId), from);
    expect(seen[ROOT_MODEL]).toHaveLength(2);

    const next = peer.received.length;
    await peer.request('turn/start', { threadId: rootId, input: text('anything new?') });
    await peer.next(turnCompletedFor(rootId), next);
    const texts = inputTexts(seen[ROOT_MODEL]![2]!);
    const notification = texts.find((t) => t.startsWith('<subagent_notification>'));
    expect(notification).toBeDefined();
    expect(JSON.parse(notification!.replace(/^<subagent_notification>\n/, '').replace(/\n<\/subagent_notification>$/, ''))).toEqual({
      agent_path: '/root/background',
      status: { completed: 'background result: 42' },
    });
    expect(texts.indexOf(notification!)).toBeGreaterThan(texts.indexOf('anything new?'));
    // Heard once: not again with a later turn.
    expect(seen[ROOT_MODEL]).toHaveLength(3);
  } finally {
    await peer.close();
  }
});

test('rig exec: the root ending its turn ends the run, as codex exec does; its background child stops with it, leaving no process', async () => {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url);
  dirs.push(repo, home);
  const marker = `rig-background-child-${process.pid}-${Date.now()}`;
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_agent', arguments: { task_name: 'sleeper', fork_turns: 'none', message: 'run the long command' } }] },
      { toolCalls: [{ id: 'call_poll', name: 'exec_command', arguments: { cmd: 'for i in $(seq 1 600); do [ -e child-started ] && break; sleep 0.05; done; ls child-started' } }] },
      { text: 'done without waiting' },
    ],
    [CHILD_MODEL]: [{ toolCalls: [{ id: 'call_long', name: 'exec_command', arguments: { cmd: `touch child-started; sleep 60 # ${marker}`, yield_time_ms: 60000 } }] }],
  });
  const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', 'start it and finish'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const events = jsonLines(run.stdout);
  const last = events.filter((e) => e['type'] === 'item.completed' && (e['item'] as { type: string }).type === 'agent_message').at(-1);
  expect((last!['item'] as { text: string }).text).toBe('done without waiting');
  // The root's own stream ends with its turn; what follows are its child's last items, stopped.
  expect(events.filter((e) => e['thread_id'] === undefined).at(-1)!['type']).toBe('turn.completed');
  expect(seen[ROOT_MODEL]).toHaveLength(3);
  await waitUntil(() => processesWith(marker).length === 0, 5_000, "the child's command to be gone");
});
