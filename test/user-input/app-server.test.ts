// request_user_input through `rig app-server` as Codex's `item/tool/requestUserInput` server
// request: the client answers by question id, the model reads the answers in Codex's shape; an
// interrupt while the question is open cancels it. Every message is checked against Codex's schema
// (useAppServerTests).
import { describe, expect, it } from 'vitest';
import type { MockProvider } from '../support/mock-provider/index.js';
import { tempGitRepo, tempRigHome } from '../support/workspace.js';
import { initialize, resultOf, spawnAppServer, text, useAppServerTests, type Peer } from '../frontends/app-server/support.js';
import { toolResult } from '../frontends/exec/helpers.js';

type Json = Record<string, unknown>;

let mock: MockProvider;
const { dirs, peers } = useAppServerTests((m) => (mock = m));

const method = (name: string) => (message: Json) => message['method'] === name;
const params = (message: Json) => message['params'] as Json;

async function session(): Promise<{ peer: Peer; threadId: string }> {
  const repo = tempGitRepo({ 'note.txt': 'one\n' });
  const home = tempRigHome({ url: mock.url });
  dirs.push(repo, home);
  const peer = spawnAppServer({ cwd: repo, home, args: ['-c', 'harness="native"'] });
  peers.push(peer);
  await initialize(peer);
  const started = resultOf<{ thread: { id: string } }>(await peer.request('thread/start', {}));
  return { peer, threadId: started.thread.id };
}

const questions = {
  questions: [
    { id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'SQLite', description: 'one file' }, { label: 'Postgres (Recommended)', description: 'a server' }] },
    { id: 'name', header: 'Name', question: 'What is the app called?', options: [{ label: 'shop', description: 'short' }, { label: 'store', description: 'plain' }] },
  ],
};

describe('rig app-server request_user_input', () => {
  it('asks item/tool/requestUserInput and gives the model the answers by question id', async () => {
    const s = await session();
    mock.enqueue({ toolCalls: [{ id: 'call_ask', name: 'request_user_input', arguments: questions }] }, { text: 'Postgres it is.' });
    const from = s.peer.received.length;
    await s.peer.request('turn/start', { threadId: s.threadId, input: text('set up storage') });
    const ask = await s.peer.next(method('item/tool/requestUserInput'), from);
    expect(params(ask)).toMatchObject({
      threadId: s.threadId,
      isBlocking: true,
      questions: [
        { id: 'db', header: 'Database', question: 'Which database?', isOther: true, isSecret: false, options: questions.questions[0]!.options },
        { id: 'name', header: 'Name', question: 'What is the app called?', isOther: true },
      ],
    });
    // A label picks that choice; other text is the person's own answer.
    s.peer.send({ id: ask['id'], result: { answers: { db: { answers: ['Postgres (Recommended)'] }, name: { answers: ['pantry'] } } } });
    await s.peer.next(method('turn/completed'), from);
    const result = toolResult('responses', mock.requests.at(-1)!.body);
    expect(result.callId).toBe('call_ask');
    expect(JSON.parse(result.text)).toEqual({ answers: { db: { answers: ['Postgres (Recommended)'] }, name: { answers: ['user_note: pantry'] } } });
  });

  it('an interrupt while the question is open cancels it and ends the turn', async () => {
    const s = await session();
    mock.enqueue({ toolCalls: [{ id: 'call_ask', name: 'request_user_input', arguments: questions }] }, { text: 'after the interrupt' });
    const from = s.peer.received.length;
    const started = resultOf<{ turn: { id: string } }>(await s.peer.request('turn/start', { threadId: s.threadId, input: text('set up storage') }));
    const ask = await s.peer.next(method('item/tool/requestUserInput'), from);
    await s.peer.request('turn/interrupt', { threadId: s.threadId, turnId: started.turn.id });
    const done = await s.peer.next(method('turn/completed'), from);
    expect((params(done)['turn'] as Json)['status']).toBe('interrupted');
    const resolved = await s.peer.next(method('serverRequest/resolved'), from);
    expect(params(resolved)['requestId']).toBe(ask['id']);
    // The next turn carries the cancelled call's result to the model.
    const next = s.peer.received.length;
    await s.peer.request('turn/start', { threadId: s.threadId, input: text('go on') });
    await s.peer.next(method('turn/completed'), next);
    expect(toolResult('responses', mock.requests.at(-1)!.body).text).toContain('cancelled before the user answered');
  });
});
