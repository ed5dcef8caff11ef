// Thread goals through the real CLI against the loopback mock: the model creates, reads and
// completes a goal (native harness, Codex's tools); the goal's tokens are accounted against its
// budget; an active goal carries the turn into another round; the rollout keeps it, so resume,
// fork and `rig sessions show` see it; Kimi Code's and Qwen Code's goal tools work on the same goal.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
let chat: MockProvider;
let repo: string;
let home: string;
let chatHome: string;

beforeAll(async () => {
  mock = await startMockProvider();
  chat = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({ url: mock.url });
  chatHome = tempRigHome({ url: chat.url, wire: 'chat' });
});

afterAll(async () => {
  await mock.close();
  await chat.close();
  removeDir(repo);
  removeDir(home);
  removeDir(chatHome);
});

/** The output the model got for one of its calls (Responses wire). */
function outputFor(request: MockRequest, callId: string): string {
  const item = (request.body.input as { type: string; call_id?: string; output?: unknown }[]).find((i) => i.type === 'function_call_output' && i.call_id === callId);
  if (!item) throw new Error(`no output for ${callId} in the request`);
  return typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
}

/** Developer messages of a Responses request. */
function developerTexts(request: MockRequest): string[] {
  return (request.body.input as { type: string; role?: string; content?: { text?: string }[] }[])
    .filter((item) => item.type === 'message' && item.role === 'developer')
    .map((item) => item.content?.map((part) => part.text ?? '').join('') ?? '');
}

function threadIdOf(stdout: string): string {
  return jsonLines(stdout)[0]!['thread_id'] as string;
}

function goalEvents(rolloutPath: string): { type: string; goal?: Record<string, unknown> }[] {
  return readFileSync(rolloutPath, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"thread_goal_'))
    .map((line) => (JSON.parse(line) as { payload: { type: string; goal?: Record<string, unknown> } }).payload);
}

async function show(id: string, where = home): Promise<Record<string, unknown> & { goal: Record<string, unknown> | null; rollout_path: string }> {
  const run = await runRig(['sessions', 'show', id, '--json'], { cwd: repo, home: where });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as never;
}

test('the model creates, reads and completes a goal; its tokens count against the budget; resume and sessions show keep it', async () => {
  const usage = { input_tokens: 1000, cached_input_tokens: 400, output_tokens: 50 };
  mock.enqueue(
    { toolCalls: [{ name: 'create_goal', id: 'c1', arguments: { objective: 'Make the README greet the world', token_budget: 10000 } }], usage },
    { toolCalls: [{ name: 'get_goal', id: 'c2', arguments: {} }], usage },
    { toolCalls: [{ name: 'get_goal', id: 'c2b', arguments: {} }], usage },
    { toolCalls: [{ name: 'update_goal', id: 'c3', arguments: { status: 'complete' } }], usage },
    { text: 'The goal is done.', usage },
  );
  const start = mock.requests.length;
  const run = await runRig(['exec', '--json', 'Set a goal with a 10000 token budget: make the README greet the world'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const requests = mock.requests.slice(start);
  expect(requests).toHaveLength(5);
  const names = (requests[0]!.body.tools as { name: string }[]).map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['get_goal', 'create_goal', 'update_goal']));

  const created = JSON.parse(outputFor(requests[1]!, 'c1')) as { goal: Record<string, unknown>; remainingTokens: number };
  expect(created.goal).toMatchObject({ objective: 'Make the README greet the world', status: 'active', tokenBudget: 10000, tokensUsed: 0 });
  expect(created.remainingTokens).toBe(10000);
  // A request is charged when its usage arrives: not the one that created the goal, then
  // (1000 - 400) + 50 for each, the one that completed it included.
  const read = JSON.parse(outputFor(requests[2]!, 'c2')) as { goal: Record<string, unknown>; remainingTokens: number };
  expect(read.goal).toMatchObject({ status: 'active', tokensUsed: 0 });
  const later = JSON.parse(outputFor(requests[3]!, 'c2b')) as { goal: Record<string, unknown>; remainingTokens: number };
  expect(later.goal).toMatchObject({ status: 'active', tokensUsed: 650 });
  expect(later.remainingTokens).toBe(9350);
  const done = JSON.parse(outputFor(requests[4]!, 'c3')) as { goal: Record<string, unknown>; completionBudgetReport: string };
  expect(done.goal).toMatchObject({ status: 'complete', tokensUsed: 1300 });
  expect(done.completionBudgetReport).toContain('tokens used: 1300 of 10000');
  // A complete goal starts no further round.
  expect(developerTexts(requests[4]!).some((text) => text.includes('<objective>'))).toBe(false);

  const id = threadIdOf(run.stdout);
  const described = await show(id);
  expect(described.goal).toMatchObject({ thread_id: id, objective: 'Make the README greet the world', status: 'complete', token_budget: 10000, tokens_used: 1950 });
  // Created, completed, and the completing request's tokens once its usage came.
  expect(goalEvents(described.rollout_path).map((event) => event.goal?.['status'])).toEqual(['active', 'complete', 'complete']);
  const human = await runRig(['sessions', 'show', id], { cwd: repo, home });
  expect(human.stdout).toMatch(/goal: +Make the README greet the world\n +status: +complete\n +used: +1950 of 10000 tokens/);

  // Resume: the goal comes back from the rollout; a new one may start once it is complete.
  mock.enqueue({ toolCalls: [{ name: 'get_goal', id: 'r1', arguments: {} }] }, { text: 'It is complete.' });
  const resumeStart = mock.requests.length;
  const resumed = await runRig(['exec', '--json', 'resume', id, 'what is the goal?'], { cwd: repo, home });
  expect(resumed.code).toBe(0);
  const again = JSON.parse(outputFor(mock.requests[resumeStart + 1]!, 'r1')) as { goal: Record<string, unknown> };
  expect(again.goal).toMatchObject({ threadId: id, objective: 'Make the README greet the world', status: 'complete', tokensUsed: 1950 });
});

test('a second create_goal is refused while a goal is pending; an active goal carries the turn on; a spent budget stops it with a note', async () => {
  const usage = { input_tokens: 300, cached_input_tokens: 0, output_tokens: 20 };
  mock.enqueue(
    { toolCalls: [{ name: 'create_goal', id: 'g1', arguments: { objective: 'Count to three', token_budget: 700 } }], usage },
    { toolCalls: [{ name: 'create_goal', id: 'g2', arguments: { objective: 'Something else' } }], usage },
    // The model stops talking while the goal is active: rig sends it back to work.
    { text: 'one', usage },
    // 320 + 320 + 320 = 960 tokens after this request: over the 700 budget.
    { toolCalls: [{ name: 'get_goal', id: 'g3', arguments: {} }], usage },
    { text: 'stopping here' },
  );
  const start = mock.requests.length;
  const run = await runRig(['exec', '--json', 'Make it a goal: count to three'], { cwd: repo, home });
  expect(run.code).toBe(0);
  const requests = mock.requests.slice(start);
  expect(requests).toHaveLength(5);
  expect(outputFor(requests[2]!, 'g2')).toMatch(/already has a goal \(status active: "Count to three"\), so no new one was created/);
  const round = developerTexts(requests[3]!).find((text) => text.includes('<objective>'));
  expect(round).toContain('The thread goal is still active');
  expect(round).toContain('Count to three');
  expect(round).toContain('- tokens used: 640');
  expect(round).toContain('update_goal');

  const id = threadIdOf(run.stdout);
  const described = await show(id);
  expect(described.goal).toMatchObject({ status: 'budgetLimited', tokens_used: 960, token_budget: 700 });
  // The wrap-up note went with the request after the budget ran out, once; no round followed the answer.
  const note = developerTexts(requests[4]!).filter((text) => text.includes('used up its budget'));
  expect(note).toHaveLength(1);
  expect(note[0]).toContain('- tokens used: 960');
  expect(developerTexts(requests[3]!).some((text) => text.includes('used up its budget'))).toBe(false);
});

/** The output the model got for one of its calls (Chat wire). */
function chatOutputFor(request: MockRequest, callId: string): string {
  const message = (request.body.messages as { role: string; tool_call_id?: string; content?: unknown }[]).find((m) => m.role === 'tool' && m.tool_call_id === callId);
  if (!message) throw new Error(`no tool message for ${callId} in the request`);
  return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

test('Kimi Code creates, budgets, reads and blocks a goal; Qwen Code resumes the thread, reads it and completes it', async () => {
  chat.enqueue(
    { toolCalls: [{ name: 'CreateGoal', id: 'k1', arguments: { objective: 'Ship the release', completionCriterion: 'the tag is pushed' } }] },
    { toolCalls: [{ name: 'SetGoalBudget', id: 'k2', arguments: { value: 0.5, unit: 'seconds' } }] },
    { toolCalls: [{ name: 'SetGoalBudget', id: 'k3', arguments: { value: 2.6, unit: 'turns' } }] },
    { toolCalls: [{ name: 'GetGoal', id: 'k4', arguments: {} }] },
    { toolCalls: [{ name: 'UpdateGoal', id: 'k5', arguments: { status: 'blocked' } }] },
    { text: 'blocked on the release key' },
  );
  const start = chat.requests.length;
  const run = await runRig(['exec', '--json', '--harness', 'kimi-code', 'goal: ship the release'], { cwd: repo, home: chatHome });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const requests = chat.requests.slice(start);
  expect(requests).toHaveLength(6);
  expect(chatOutputFor(requests[1]!, 'k1')).toMatch(/^Goal created and active\./);
  expect(chatOutputFor(requests[2]!, 'k2')).toContain('Goal budget not set: 0.5 seconds is not a reasonable time budget; give between 1 second and 24 hours');
  expect(chatOutputFor(requests[3]!, 'k3')).toMatch(/^Goal budget set to 3 turns\./);
  const got = JSON.parse(chatOutputFor(requests[4]!, 'k4')) as Record<string, unknown>;
  expect(got).toMatchObject({ objective: 'Ship the release', completionCriterion: 'the tag is pushed', status: 'active', budget: { turns: 3 }, usage: { turns: 1 } });
  expect(chatOutputFor(requests[5]!, 'k5')).toMatch(/^Goal marked blocked after \d+ seconds and \d+ tokens\.$/);

  const id = threadIdOf(run.stdout);
  expect((await show(id, chatHome)).goal).toMatchObject({ status: 'blocked', completion_criterion: 'the tag is pushed', turn_budget: 3 });

  chat.enqueue(
    { toolCalls: [{ name: 'update_goal', id: 'q1', arguments: { status: 'complete' } }] },
    { toolCalls: [{ name: 'get_goal', id: 'q2', arguments: {} }, { name: 'update_goal', id: 'q3', arguments: { status: 'complete', reason: 'the tag is pushed' } }] },
    { text: 'released' },
  );
  const qwenStart = chat.requests.length;
  const qwen = await runRig(['exec', '--json', '--harness', 'qwen-code', 'resume', id, 'the key is back, finish it'], { cwd: repo, home: chatHome });
  expect(qwen.code).toBe(0);
  const qwenRequests = chat.requests.slice(qwenStart);
  expect(chatOutputFor(qwenRequests[1]!, 'q1')).toMatch(/"reason" is required/);
  expect(JSON.parse(chatOutputFor(qwenRequests[2]!, 'q2'))).toMatchObject({ objective: 'Ship the release', status: 'blocked' });
  expect(chatOutputFor(qwenRequests[2]!, 'q3')).toMatch(/^Goal marked complete: the tag is pushed\n/);
  expect((await show(id, chatHome)).goal).toMatchObject({ status: 'complete' });
});
