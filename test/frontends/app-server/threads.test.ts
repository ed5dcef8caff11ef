// Threads through `rig app-server` (the real binary, the loopback mock model): resume in a new
// server process with its turns, fork, list, read, name/set, archive/unarchive, and a client that
// disconnects mid-turn leaving the thread interrupted, saved and loadable. Every message rig sends
// is checked against Codex's generated JSON Schema.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { membersOf, processGroupsWith, waitUntil } from '../exec/helpers.js';
import { conformanceProblems, initialize, removeCodexProtocol, resultOf, spawnAppServer, text, type Peer } from './support.js';

type Json = Record<string, unknown>;
interface ThreadView {
  id: string;
  name: string | null;
  preview: string;
  forkedFromId: string | null;
  path: string | null;
  status: { type: string };
  turns: { id: string; status: string; items: Json[] }[];
}

let mock: MockProvider;
let repo: string;
let home: string;
const peers: Peer[] = [];

beforeEach(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'note.txt': 'one\n' });
  home = tempRigHome({ url: mock.url });
});

afterEach(async () => {
  for (const peer of peers.splice(0)) {
    await peer.close();
    expect(conformanceProblems(peer)).toEqual([]);
  }
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

afterAll(() => removeCodexProtocol());

async function serve(): Promise<Peer> {
  const peer = spawnAppServer({ cwd: repo, home, args: ['-c', 'harness="native"'] });
  peers.push(peer);
  await initialize(peer);
  return peer;
}

const method = (name: string) => (message: Json) => message['method'] === name;

async function call<T = Json>(peer: Peer, name: string, params: Json): Promise<T> {
  return resultOf<T>(await peer.request(name, params));
}

/** Starts a thread and runs one turn answered with `answer`; returns the thread id. */
async function threadWithTurn(peer: Peer, prompt: string, answer: string): Promise<string> {
  const { thread } = await call<{ thread: ThreadView }>(peer, 'thread/start', {});
  mock.enqueue({ text: answer });
  const from = peer.received.length;
  await call(peer, 'turn/start', { threadId: thread.id, input: text(prompt) });
  await peer.next(method('turn/completed'), from);
  return thread.id;
}

function texts(thread: ThreadView): string[] {
  return thread.turns.flatMap((turn) =>
    turn.items.flatMap((item) => {
      if (item['type'] === 'agentMessage') return [`agent: ${String(item['text'])}`];
      if (item['type'] === 'userMessage') return [`user: ${((item['content'] as Json[])[0] as Json)['text'] as string}`];
      return [];
    }),
  );
}

describe('rig app-server threads', () => {
  it('thread/resume in a new server process brings back the turns; the next turn continues them', async () => {
    const first = await serve();
    const id = await threadWithTurn(first, 'first question', 'first answer');
    await first.close();

    const second = await serve();
    const resumed = await call<{ thread: ThreadView }>(second, 'thread/resume', { threadId: id });
    expect(resumed.thread.id).toBe(id);
    expect(texts(resumed.thread)).toEqual(['user: first question', 'agent: first answer']);
    expect(resumed.thread.turns[0]).toMatchObject({ id: 'turn_0', status: 'completed' });
    mock.enqueue({ text: 'second answer' });
    const from = second.received.length;
    const turn = await call<{ turn: { id: string } }>(second, 'turn/start', { threadId: id, input: text('second question') });
    expect(turn.turn.id).toBe('turn_1');
    await second.next(method('turn/completed'), from);
    // The model saw the history.
    expect(JSON.stringify(mock.requests.at(-1)!.body)).toContain('first answer');
  });

  it('thread/fork copies the history into a new thread that goes its own way', async () => {
    const peer = await serve();
    const id = await threadWithTurn(peer, 'base question', 'base answer');
    const from = peer.received.length;
    const forked = await call<{ thread: ThreadView }>(peer, 'thread/fork', { threadId: id });
    expect(forked.thread.id).not.toBe(id);
    expect(forked.thread.forkedFromId).toBe(id);
    expect(texts(forked.thread)).toEqual(['user: base question', 'agent: base answer']);
    // Announced after the response, as for thread/start.
    await peer.next((m) => method('thread/started')(m) && ((m['params'] as Json)['thread'] as Json)['id'] === forked.thread.id, from);
    mock.enqueue({ text: 'fork answer' });
    const turnFrom = peer.received.length;
    await call(peer, 'turn/start', { threadId: forked.thread.id, input: text('fork question') });
    await peer.next(method('turn/completed'), turnFrom);
    const original = await call<{ thread: ThreadView }>(peer, 'thread/read', { threadId: id, includeTurns: true });
    expect(texts(original.thread)).toEqual(['user: base question', 'agent: base answer']);
    const copy = await call<{ thread: ThreadView }>(peer, 'thread/read', { threadId: forked.thread.id, includeTurns: true });
    expect(texts(copy.thread)).toEqual(['user: base question', 'agent: base answer', 'user: fork question', 'agent: fork answer']);
  });

  it('thread/list, thread/name/set, thread/archive and thread/unarchive', async () => {
    const peer = await serve();
    const a = await threadWithTurn(peer, 'alpha task', 'ok');
    const b = await threadWithTurn(peer, 'beta task', 'ok');
    const listed = await call<{ data: ThreadView[]; nextCursor: string | null }>(peer, 'thread/list', {});
    expect(listed.data.map((thread) => thread.id).sort()).toEqual([a, b].sort());
    expect(listed.data.find((thread) => thread.id === a)?.preview).toBe('alpha task');
    const paged = await call<{ data: ThreadView[]; nextCursor: string | null }>(peer, 'thread/list', { limit: 1 });
    expect(paged.data).toHaveLength(1);
    expect(paged.nextCursor).not.toBeNull();
    const rest = await call<{ data: ThreadView[]; nextCursor: string | null }>(peer, 'thread/list', { limit: 1, cursor: paged.nextCursor });
    expect([...paged.data, ...rest.data].map((thread) => thread.id).sort()).toEqual([a, b].sort());

    let from = peer.received.length;
    await call(peer, 'thread/name/set', { threadId: a, name: 'The alpha one' });
    expect((await peer.next(method('thread/name/updated'), from))['params']).toEqual({ threadId: a, threadName: 'The alpha one' });
    expect((await call<{ thread: ThreadView }>(peer, 'thread/read', { threadId: a })).thread.name).toBe('The alpha one');
    const missing = await peer.request('thread/name/set', { threadId: '01a00000-0000-7000-8000-000000000000', name: 'x' });
    expect(missing['error']).toMatchObject({ code: -32600 });

    from = peer.received.length;
    await call(peer, 'thread/archive', { threadId: b });
    expect((await peer.next(method('thread/archived'), from))['params']).toEqual({ threadId: b });
    expect((await call<{ data: ThreadView[] }>(peer, 'thread/list', {})).data.map((thread) => thread.id)).toEqual([a]);
    expect((await call<{ data: ThreadView[] }>(peer, 'thread/list', { archived: true })).data.map((thread) => thread.id)).toEqual([b]);
    const back = await call<{ thread: ThreadView }>(peer, 'thread/unarchive', { threadId: b });
    expect(back.thread.id).toBe(b);
    expect((await call<{ data: ThreadView[] }>(peer, 'thread/list', {})).data.map((thread) => thread.id).sort()).toEqual([a, b].sort());
  });

  it('a client that disconnects mid-turn leaves the thread interrupted, saved and loadable', async () => {
    const peer = await serve();
    const { thread } = await call<{ thread: ThreadView }>(peer, 'thread/start', { sandbox: 'workspace-write' });
    const marker = `rig-as-disconnect-${process.pid}-${Date.now()}`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo ready; sleep 30 # ${marker}`, yield_time_ms: 30_000 } }] });
    const from = peer.received.length;
    await call(peer, 'turn/start', { threadId: thread.id, input: text('sleep for me') });
    await peer.next((m) => method('item/commandExecution/outputDelta')(m) && String((m['params'] as Json)['delta']).includes('ready'), from);
    const groups = processGroupsWith(marker);
    expect(membersOf(groups).length).toBeGreaterThan(0);

    expect(await peer.close()).toBe(0);
    expect(membersOf(groups)).toEqual([]);
    // Every line of the rollout is whole JSON.
    for (const line of readFileSync(thread.path!, 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();

    const again = await serve();
    const read = await call<{ thread: ThreadView }>(again, 'thread/read', { threadId: thread.id, includeTurns: true });
    expect(read.thread.turns).toHaveLength(1);
    expect(read.thread.turns[0]).toMatchObject({ status: 'interrupted' });
    expect(texts(read.thread)).toEqual(['user: sleep for me']);
    const resumed = await call<{ thread: ThreadView }>(again, 'thread/resume', { threadId: thread.id });
    expect(resumed.thread.turns[0]).toMatchObject({ status: 'interrupted' });
    mock.enqueue({ text: 'awake again' });
    const turnFrom = again.received.length;
    await call(again, 'turn/start', { threadId: thread.id, input: text('continue') });
    const done = await again.next(method('turn/completed'), turnFrom);
    expect(((done['params'] as Json)['turn'] as Json)['status']).toBe('completed');
    await waitUntil(() => mock.requests.length === 2, 5_000, 'the second model request');
  });
});
