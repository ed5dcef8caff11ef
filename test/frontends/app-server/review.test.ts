// review/start through `rig app-server` (the real binary, the loopback mock): Codex's result
// ({turn, reviewThreadId}) at once, then enteredReviewMode after turn/started and exitedReviewMode
// (the review text and rig's structured findings) before turn/completed. The turn is read-only;
// the thread gets its edit tools back afterwards. Every message is checked against Codex's schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { MockProvider, MockRequest } from '../../support/mock-provider/index.js';
import { tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { inputTexts } from '../../support/agents-home.js';
import { initialize, resultOf, spawnAppServer, text, useAppServerTests, type Peer } from './support.js';

type Json = Record<string, unknown>;

let mock: MockProvider;
const { dirs, peers } = useAppServerTests((m) => (mock = m));

const PATCH = '*** Begin Patch\n*** Update File: calc.js\n@@\n-  return a - b;\n+  return a + b;\n*** End Patch\n';
const toolNames = (request: MockRequest): string[] => (request.body.tools ?? []).map((t: { name?: string; type?: string }) => t.name ?? t.type);
const method = (name: string) => (message: Json) => message['method'] === name;

async function seeded(): Promise<{ peer: Peer; repo: string; threadId: string }> {
  const repo = tempGitRepo({ 'calc.js': 'function add(a, b) {\n  return a + b;\n}\n' });
  const home = tempRigHome({ url: mock.url });
  dirs.push(repo, home);
  writeFileSync(join(repo, 'calc.js'), 'function add(a, b) {\n  return a - b;\n}\n');
  const peer = spawnAppServer({ cwd: repo, home, args: ['-c', 'harness="native"'] });
  peers.push(peer);
  await initialize(peer);
  const started = resultOf<{ thread: { id: string } }>(await peer.request('thread/start', { sandbox: 'workspace-write', approvalPolicy: 'never' }));
  return { peer, repo, threadId: started.thread.id };
}

test('review/start runs a read-only review turn and reports its findings in exitedReviewMode', async () => {
  const { peer, repo, threadId } = await seeded();
  const findings = {
    findings: [{ title: '[P0] add() subtracts', body: 'add(2, 3) is -1.', priority: 0, confidence_score: 0.95, code_location: { absolute_file_path: join(repo, 'calc.js'), line_range: { start: 2, end: 2 } } }],
    overall_correctness: 'patch is incorrect',
    overall_explanation: 'add() is broken.',
    overall_confidence_score: 0.9,
  };
  const before = mock.requests.length;
  mock.enqueue(
    { toolCalls: [{ id: 'call_read', name: 'exec_command', arguments: { cmd: 'cat calc.js' } }] },
    { toolCalls: [{ id: 'call_fix', name: 'apply_patch', kind: 'custom', input: PATCH }] },
    { text: '```json\n' + JSON.stringify(findings) + '\n```' },
  );
  const from = peer.received.length;
  const result = resultOf<{ turn: { id: string; status: string }; reviewThreadId: string }>(await peer.request('review/start', { threadId, target: { type: 'uncommittedChanges' } }));
  expect(result.reviewThreadId).toBe(threadId);
  expect(result.turn.status).toBe('inProgress');
  const completed = await peer.next(method('turn/completed'), from);
  expect((completed['params'] as { turn: { status: string } }).turn.status).toBe('completed');

  const sent = peer.received.slice(from).filter((m) => 'method' in m);
  const all = sent.map((m) => {
    const item = (m['params'] as { item?: { type: string } }).item;
    return item ? `${m['method']}:${item.type}` : m['method'];
  });
  // Framed as Codex frames a review: entered right after turn/started, exited right before turn/completed.
  // (thread/start's own notifications may still be arriving: they go out after its response.)
  const order = all.slice(all.indexOf('turn/started'), all.indexOf('turn/completed') + 1);
  expect(order[0]).toBe('turn/started');
  expect(order.slice(1, 3)).toEqual(['item/started:enteredReviewMode', 'item/completed:enteredReviewMode']);
  expect(order.slice(-3)).toEqual(['item/started:exitedReviewMode', 'item/completed:exitedReviewMode', 'turn/completed']);
  const exited = sent.filter((m) => m['method'] === 'item/completed').map((m) => (m['params'] as { item: Json }).item).find((item) => item['type'] === 'exitedReviewMode')!;
  expect(exited['review']).toContain('- [P0] add() subtracts (critical) — calc.js:2');
  expect(exited['reviewOutput']).toMatchObject({ overall_correctness: 'patch is incorrect', findings: [{ title: '[P0] add() subtracts', severity: 'critical', code_location: { line_range: { start: 2, end: 2 } } }] });
  const entered = sent.map((m) => (m['params'] as { item?: Json }).item).find((item) => item?.['type'] === 'enteredReviewMode')!;
  expect(entered['review']).toBe('uncommitted changes');

  // Read-only: no edit tool offered, the edit refused, the file as it was.
  const requests = mock.requests.slice(before);
  expect(requests).toHaveLength(3);
  expect(inputTexts(requests[0]!).join('\n')).toContain('+  return a - b;');
  for (const request of requests) expect(toolNames(request)).not.toContain('apply_patch');
  expect(inputTexts(requests[2]!).at(-1)).toContain('apply_patch is not available in plan mode or a review');
  expect(readFileSync(join(repo, 'calc.js'), 'utf8')).toContain('a - b');

  // The next ordinary turn has its edit tools back.
  mock.enqueue({ text: 'ok' });
  const next = peer.received.length;
  resultOf(await peer.request('turn/start', { threadId, input: text('go on') }));
  await peer.next(method('turn/completed'), next);
  expect(toolNames(mock.requests.at(-1)!)).toContain('apply_patch');
});

test('review/start: a malformed answer is kept in reviewError; a clean tree is refused; detached runs on a new thread', async () => {
  const { peer, repo, threadId } = await seeded();
  mock.enqueue({ text: 'no JSON here' });
  let from = peer.received.length;
  resultOf(await peer.request('review/start', { threadId, target: { type: 'custom', instructions: 'look at calc.js' } }));
  await peer.next(method('turn/completed'), from);
  const exited = peer.received.slice(from).map((m) => (m['params'] as { item?: Json } | undefined)?.item).find((item) => item?.['type'] === 'exitedReviewMode')!;
  expect(exited['reviewOutput']).toBeNull();
  expect(exited['reviewError']).toEqual({ message: "the reviewer's answer holds no JSON object", raw: 'no JSON here' });

  const bad = await peer.request('review/start', { threadId, target: { type: 'baseBranch', branch: 'nope' } });
  expect(bad['error']).toMatchObject({ code: -32602 });
  expect(JSON.stringify(bad['error'])).toContain('branch nope is not in this repository');

  mock.enqueue({ text: JSON.stringify({ findings: [], overall_correctness: 'patch is correct', overall_explanation: 'fine' }) });
  from = peer.received.length;
  const detached = resultOf<{ reviewThreadId: string }>(await peer.request('review/start', { threadId, target: { type: 'commit', sha: 'HEAD' }, delivery: 'detached' }));
  expect(detached.reviewThreadId).not.toBe(threadId);
  const done = await peer.next((m) => m['method'] === 'turn/completed' && (m['params'] as { threadId: string }).threadId === detached.reviewThreadId, from);
  expect(done).toBeDefined();
  expect(repo).toBeTruthy();
});
