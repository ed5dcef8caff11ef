// [agents] interrupt_message (Codex's key, default true) through the real CLI: an agent whose turn
// is interrupted (interrupt_agent) finds a <turn_aborted> note in its next request — a developer
// message with multi_agent_v2 — and none when the key is false.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo } from '../../support/workspace.js';
import { ISSUE_CONFIG } from '../../support/agents-config.js';
import { agentsHome, CHILD_MODEL, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';
import type { MockRequest } from '../../support/mock-provider/index.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

type InputItem = { type: string; role?: string; content?: { text?: string }[] };

function abortedNotes(request: MockRequest): { role: string; text: string }[] {
  const input = (request.body as { input?: InputItem[] }).input ?? [];
  return input
    .filter((item) => item.type === 'message')
    .map((item) => ({ role: item.role ?? '', text: (item.content ?? []).map((part) => part.text ?? '').join('') }))
    .filter((message) => message.text.startsWith('<turn_aborted>'));
}

/** The root spawns a child, waits until its command runs, interrupts it, then gives it a follow-up. */
async function interruptAndFollowUp(config: string): Promise<MockRequest> {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url, { config });
  dirs.push(repo, home);
  const marker = `rig-interrupt-message-${process.pid}-${Date.now()}`;
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [{ id: 'call_spawn', name: 'spawn_agent', arguments: { task_name: 'helper', fork_turns: 'none', message: 'run the long command' } }] },
      // Bounded wait (at most 30 s) for the child's command to have started.
      { toolCalls: [{ id: 'call_poll', name: 'exec_command', arguments: { cmd: 'for i in $(seq 1 600); do [ -e child-started ] && break; sleep 0.05; done; ls child-started' } }] },
      { toolCalls: [{ id: 'call_stop', name: 'interrupt_agent', arguments: { target: '/root/helper' } }] },
      { toolCalls: [{ id: 'call_again', name: 'followup_task', arguments: { target: '/root/helper', message: 'report instead' } }] },
      { toolCalls: [{ id: 'call_wait', name: 'wait_agent', arguments: { timeout_ms: 60000 } }] },
      { text: 'root done' },
    ],
    [CHILD_MODEL]: [
      { toolCalls: [{ id: 'call_long', name: 'exec_command', arguments: { cmd: `touch child-started; sleep 60 # ${marker}`, yield_time_ms: 60000 } }] },
      { text: 'reported' },
    ],
  });
  const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', 'delegate, then stop it'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(seen[CHILD_MODEL]).toHaveLength(2);
  return seen[CHILD_MODEL]![1]!;
}

test('with multi_agent_v2 an interrupted agent gets a developer <turn_aborted> note (interrupt_message defaults to true)', async () => {
  const notes = abortedNotes(await interruptAndFollowUp(ISSUE_CONFIG));
  expect(notes).toHaveLength(1);
  expect(notes[0]!.role).toBe('developer');
});

test('[agents] interrupt_message = false: an interrupted agent gets no note', async () => {
  const config = ISSUE_CONFIG.replace('enabled = true', 'enabled = true\ninterrupt_message = false');
  const notes = abortedNotes(await interruptAndFollowUp(config));
  expect(notes).toEqual([]);
});
