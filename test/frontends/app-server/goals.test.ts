// Thread goals through `rig app-server` (the real binary, the loopback mock): thread/goal/set,
// get and clear round trip with thread/goal/updated|cleared notifications; the model hears of a
// person's change with its next request and then works on the goal; resume announces the goal
// and fork keeps it. Every message rig sends is checked against Codex's generated JSON Schema.
import { describe, expect, it } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { initialize, resultOf, spawnAppServer, text, useAppServerTests, type Peer } from './support.js';

type Json = Record<string, unknown>;

let mock: MockProvider;
const { dirs, peers } = useAppServerTests((m) => (mock = m));

async function serve(home: string, repo: string): Promise<Peer> {
  const peer = spawnAppServer({ cwd: repo, home, args: ['-c', 'harness="native"'] });
  peers.push(peer);
  await initialize(peer);
  return peer;
}

function setup(): { home: string; repo: string } {
  const repo = tempGitRepo({ 'note.txt': 'one\n' });
  const home = tempRigHome({ url: mock.url });
  dirs.push(repo, home);
  return { home, repo };
}

const method = (name: string) => (message: Json) => message['method'] === name;

async function call<T = Json>(peer: Peer, name: string, params: Json): Promise<T> {
  return resultOf<T>(await peer.request(name, params));
}

function developerTexts(body: Json): string[] {
  return (body['input'] as { type: string; role?: string; content?: { text?: string }[] }[])
    .filter((item) => item.type === 'message' && item.role === 'developer')
    .map((item) => item.content?.map((part) => part.text ?? '').join('') ?? '');
}

describe('rig app-server thread goals', () => {
  it('set, get and clear round trip with notifications; the model is told and works on the goal', async () => {
    const { home, repo } = setup();
    const peer = await serve(home, repo);
    const { thread } = await call<{ thread: { id: string } }>(peer, 'thread/start', {});
    expect(await call(peer, 'thread/goal/get', { threadId: thread.id })).toEqual({ goal: null });

    const from = peer.received.length;
    const set = await call<{ goal: Json }>(peer, 'thread/goal/set', { threadId: thread.id, objective: 'Rename note.txt to notes.txt', tokenBudget: 5000, origin: 'user' });
    expect(set.goal).toMatchObject({ threadId: thread.id, objective: 'Rename note.txt to notes.txt', status: 'active', tokenBudget: 5000, tokensUsed: 0, timeUsedSeconds: 0 });
    const updated = await peer.next(method('thread/goal/updated'), from);
    expect(updated['params']).toEqual({ threadId: thread.id, turnId: null, goal: set.goal });

    // Without an objective, a set changes the goal there is and keeps its accounting.
    const paused = await call<{ goal: Json }>(peer, 'thread/goal/set', { threadId: thread.id, status: 'paused' });
    expect(paused.goal).toMatchObject({ status: 'paused', createdAt: set.goal['createdAt'] });
    await call(peer, 'thread/goal/set', { threadId: thread.id, status: 'active' });
    const refused = await peer.request('thread/goal/set', { threadId: thread.id, tokenBudget: -3 });
    expect(refused['error']).toMatchObject({ code: -32602, message: 'the token budget must be a positive number, got -3' });

    // The next turn tells the model of the change; it works on the goal and completes it.
    mock.enqueue({ toolCalls: [{ name: 'update_goal', id: 'u1', arguments: { status: 'complete' } }], usage: { input_tokens: 200, output_tokens: 10 } }, { text: 'renamed' });
    const turnFrom = peer.received.length;
    await call(peer, 'turn/start', { threadId: thread.id, input: text('go') });
    await peer.next(method('turn/completed'), turnFrom);
    const notes = developerTexts(mock.requests.at(-2)!.body);
    expect(notes.filter((note) => note.startsWith('The user changed the thread goal')).map((note) => /status is now (\w+)/.exec(note)?.[1])).toEqual(['active', 'paused', 'active']);
    const completed = peer.received.slice(turnFrom).filter(method('thread/goal/updated')).map((m) => m['params'] as { turnId: string | null; goal: Json });
    expect(completed.map((n) => [n.turnId, n.goal['status']])).toEqual([
      ['turn_0', 'complete'],
      ['turn_0', 'complete'],
    ]);
    expect(completed.at(-1)!.goal['tokensUsed']).toBe(210);

    const clearFrom = peer.received.length;
    expect(await call(peer, 'thread/goal/clear', { threadId: thread.id, origin: 'user' })).toEqual({ cleared: true });
    expect((await peer.next(method('thread/goal/cleared'), clearFrom))['params']).toEqual({ threadId: thread.id });
    expect(await call(peer, 'thread/goal/get', { threadId: thread.id })).toEqual({ goal: null });
    expect(await call(peer, 'thread/goal/clear', { threadId: thread.id })).toEqual({ cleared: false });
    const none = await peer.request('thread/goal/set', { threadId: thread.id, status: 'complete' });
    expect(none['error']).toMatchObject({ code: -32602, message: 'this thread has no goal to change; create one first (give an objective)' });
  });

  it('resume in a new server announces the goal from the rollout; fork keeps it under the new id', async () => {
    const { home, repo } = setup();
    const first = await serve(home, repo);
    const { thread } = await call<{ thread: { id: string } }>(first, 'thread/start', {});
    await call(first, 'thread/goal/set', { threadId: thread.id, objective: 'Keep the docs current', status: 'paused' });
    await first.close();

    const second = await serve(home, repo);
    const from = second.received.length;
    await call(second, 'thread/resume', { threadId: thread.id });
    // Announced after the response, before any turn.
    const announced = await second.next(method('thread/goal/updated'), from);
    expect(announced['params']).toMatchObject({ threadId: thread.id, turnId: null, goal: { objective: 'Keep the docs current', status: 'paused' } });
    expect((await call<{ goal: Json }>(second, 'thread/goal/get', { threadId: thread.id })).goal).toMatchObject({ objective: 'Keep the docs current', status: 'paused' });

    const forked = await call<{ thread: { id: string } }>(second, 'thread/fork', { threadId: thread.id });
    expect((await call<{ goal: Json }>(second, 'thread/goal/get', { threadId: forked.thread.id })).goal).toMatchObject({ threadId: forked.thread.id, objective: 'Keep the docs current', status: 'paused' });
  });
});
