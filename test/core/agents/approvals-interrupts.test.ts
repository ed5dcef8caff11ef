// A child's approval surfaces in the parent's stream, labelled with the child's path, and the
// parent's answer reaches the child; interrupting the parent stops its children and leaves no
// process behind (through the real CLI, with Ctrl-C).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestThread } from '../../support/engine.js';
import { ScriptedClient, call, callTools, say } from '../../support/scripted-client.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, tempDir, tempGitRepo } from '../../support/workspace.js';
import { writeTestHome } from '../../support/engine.js';
import { agentsHome, CHILD_MODEL, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';
import { processesWith, startRig, waitUntil } from '../../frontends/exec/helpers.js';
import type { ExecApprovalRequest } from '../../../src/protocol/index.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

const AGENTS = '[agents]\nenabled = true\n[features]\nmulti_agent_v2 = true\n';

test("a child's approval is asked in the parent's stream, labelled with its path, and the parent's answer reaches it", async () => {
  const home = tempDir('agents-approval-home');
  const repo = tempGitRepo({ 'a.txt': 'a\n' });
  dirs.push(home, repo);
  writeTestHome(home, AGENTS);
  const root = new ScriptedClient([
    callTools(call('spawn_agent', { task_name: 'toucher', fork_turns: 'none', message: 'create made-by-child.txt' }, 'call_spawn')),
    callTools(call('wait_agent', { timeout_ms: 60000 }, 'call_wait')),
    say('root done'),
  ]);
  const child = new ScriptedClient([callTools(call('exec_command', { cmd: 'touch made-by-child.txt' }, 'call_touch')), say('child done')]);
  const t = await startTestThread({
    home,
    cwd: repo,
    client: (index) => (index === 0 ? root : child),
    request: { overrides: { harness: 'native', sandbox: 'workspace-write', approvalPolicy: 'untrusted' } },
  });
  const asked = t.next('approval.requested');
  const turn = t.thread.startTurn({ text: 'go' });
  const { request } = await asked;
  expect(request).toMatchObject({ kind: 'exec', agent_path: '/root/toucher', command_text: expect.stringContaining('touch made-by-child.txt') });
  expect((request as ExecApprovalRequest).agent_thread_id).not.toBe(t.thread.id);
  expect(existsSync(join(repo, 'made-by-child.txt'))).toBe(false);
  t.thread.answerApproval(request.id, 'approve');
  const result = await turn.done;
  expect(result).toMatchObject({ status: 'completed', lastAgentMessage: 'root done' });
  expect(existsSync(join(repo, 'made-by-child.txt'))).toBe(true);
  expect(child.requests).toHaveLength(2);
  await t.close();
});

test("interrupting a parent interrupts its running children (they stop before anything is closed)", async () => {
  const home = tempDir('agents-interrupt-home');
  const repo = tempGitRepo({ 'a.txt': 'a\n' });
  dirs.push(home, repo);
  writeTestHome(home, AGENTS);
  const root = new ScriptedClient([
    callTools(call('spawn_agent', { task_name: 'busy', fork_turns: 'none', message: 'think forever' }, 'call_spawn')),
    callTools(call('wait_agent', { timeout_ms: 600000 }, 'call_wait')),
  ]);
  let childAsked!: () => void;
  const childStarted = new Promise<void>((resolve) => (childAsked = resolve));
  // The child's model never answers; only an abort ends its request.
  const child = new ScriptedClient([
    async function* (_request, signal) {
      childAsked();
      await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
      yield { type: 'error', error: { kind: 'aborted', message: 'aborted' } };
    },
  ]);
  const t = await startTestThread({ home, cwd: repo, client: (index) => (index === 0 ? root : child), request: { overrides: { harness: 'native', sandbox: 'workspace-write' } } });
  const childInterrupted = new Promise<string>((resolve) =>
    t.engine.subscribe((envelope) => {
      if (envelope.thread_id !== t.thread.id && envelope.event.type === 'turn.interrupted') resolve(envelope.thread_id);
    }),
  );
  const turn = t.thread.startTurn({ text: 'go' });
  await childStarted;
  await t.next('item.started', (event) => event.item.type === 'collab_agent_tool_call' && event.item.tool === 'wait_agent');
  await t.thread.interrupt();
  expect((await turn.done).status).toBe('interrupted');
  const childId = await childInterrupted;
  expect(t.engine.thread(childId)?.isRunning).toBe(false);
  await t.close();
});

test('Ctrl-C on rig exec interrupts the root and its running child; no process outlives them', async () => {
  const repo = tempGitRepo({ 'a.txt': 'a\n' });
  const home = agentsHome(mock.url);
  dirs.push(repo, home);
  const marker = `rig-agent-interrupt-${process.pid}-${Date.now()}`;
  scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_agent', arguments: { task_name: 'sleeper', agent_type: 'implementer', fork_turns: 'none', message: 'wait a long time' } }] },
      { toolCalls: [{ id: 'call_wait', name: 'wait_agent', arguments: { timeout_ms: 600000 } }] },
    ],
    [CHILD_MODEL]: [{ toolCalls: [{ id: 'call_sleep', name: 'exec_command', arguments: { cmd: `sleep 60 # ${marker}`, yield_time_ms: 60000 } }] }],
  });
  const rig = startRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', 'delegate and wait'], { cwd: repo, home });
  await waitUntil(() => processesWith(marker).length >= 1, 15_000, "the child's command to start");
  await rig.waitForStdout('"wait_agent"');
  rig.child.kill('SIGINT');
  expect((await rig.exited).code).toBe(130);
  await waitUntil(() => processesWith(marker).length === 0, 5_000, "the child's command to be gone");
  // The child's own rollout says its turn was interrupted.
  const day = join(home, 'sessions');
  const files = readdirSync(day, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
  const childRollout = files.map((f) => readFileSync(join(day, f), 'utf8')).find((text) => text.split('\n')[0]!.includes('"agent_path":"/root/sleeper"'));
  expect(childRollout).toBeDefined();
  expect(childRollout).toContain('"type":"turn_aborted"');
});
