// Turns through `rig app-server` (the real binary, the loopback mock model): streamed agent message
// deltas inside item/started .. item/completed, a command approval and a file-change approval
// answered by the client, turn/steer joining the running turn, turn/interrupt killing the running
// command. Every message rig sends is checked against Codex's generated JSON Schema.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { membersOf, processGroupsWith, waitUntil } from '../exec/helpers.js';
import { initialize, resultOf, spawnAppServer, text, useAppServerTests, type Peer } from './support.js';

type Json = Record<string, unknown>;

// A mock per test, so a test that fails leaves no scripted turn behind for the next.
let mock: MockProvider;
const { dirs, peers } = useAppServerTests((m) => (mock = m));

interface Session {
  peer: Peer;
  repo: string;
  threadId: string;
}

/** A server on a fresh repo and home, initialized, with one thread started under `policy`. */
async function session(policy: Json = {}): Promise<Session> {
  const repo = tempGitRepo({ 'note.txt': 'one\ntwo\n' });
  const home = tempRigHome({ url: mock.url });
  dirs.push(repo, home);
  const peer = spawnAppServer({ cwd: repo, home, args: ['-c', 'harness="native"'] });
  peers.push(peer);
  await initialize(peer);
  const started = resultOf<{ thread: { id: string } }>(await peer.request('thread/start', policy));
  return { peer, repo, threadId: started.thread.id };
}

const method = (name: string) => (message: Json) => message['method'] === name;
const params = (message: Json) => message['params'] as Json;

async function startTurn(s: Session, prompt: string): Promise<{ turnId: string; from: number }> {
  const from = s.peer.received.length;
  const turn = resultOf<{ turn: { id: string; status: string } }>(await s.peer.request('turn/start', { threadId: s.threadId, input: text(prompt) }));
  expect(turn.turn.status).toBe('inProgress');
  return { turnId: turn.turn.id, from };
}

function completed(s: Session, from: number): Promise<Json> {
  return s.peer.next(method('turn/completed'), from);
}

describe('rig app-server turns', () => {
  it('streams an answer: turn/started, the user message, item/started, deltas, item/completed, turn/completed', async () => {
    const s = await session();
    mock.enqueue({ text: 'The note has two lines.', deltaSize: 5 });
    const { turnId, from } = await startTurn(s, 'what is in the note?');
    const done = params(await completed(s, from));
    expect(done['turn']).toMatchObject({ id: turnId, status: 'completed', error: null });

    const after = s.peer.received.slice(from);
    const names = after.map((message) => message['method']).filter(Boolean);
    expect(names.indexOf('turn/started')).toBeLessThan(names.indexOf('item/started'));
    const user = after.find((message) => method('item/completed')(message) && (params(message)['item'] as Json)['type'] === 'userMessage');
    expect(params(user!)['item']).toMatchObject({ content: [{ type: 'text', text: 'what is in the note?' }] });
    const agentStarted = after.findIndex((message) => method('item/started')(message) && (params(message)['item'] as Json)['type'] === 'agentMessage');
    const agentDone = after.findIndex((message) => method('item/completed')(message) && (params(message)['item'] as Json)['type'] === 'agentMessage');
    const deltas = after.map((message, index) => ({ message, index })).filter(({ message }) => method('item/agentMessage/delta')(message));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map(({ message }) => params(message)['delta']).join('')).toBe('The note has two lines.');
    expect(deltas.every(({ index }) => index > agentStarted && index < agentDone)).toBe(true);
    const itemId = (params(after[agentDone]!)['item'] as Json)['id'];
    expect(deltas.every(({ message }) => params(message)['itemId'] === itemId && params(message)['turnId'] === turnId)).toBe(true);
    expect(params(after[agentDone]!)['item']).toMatchObject({ text: 'The note has two lines.' });
  });

  it('asks the client before a command and runs it once accepted', async () => {
    const s = await session({ approvalPolicy: 'untrusted', sandbox: 'workspace-write' });
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch made-by-rig.txt' } }] }, { text: 'made it' });
    const { turnId, from } = await startTurn(s, 'make a file');
    const ask = await s.peer.next(method('item/commandExecution/requestApproval'), from);
    expect(params(ask)).toMatchObject({ threadId: s.threadId, turnId, cwd: s.repo });
    expect(params(ask)['command']).toContain('touch made-by-rig.txt');
    expect(existsSync(join(s.repo, 'made-by-rig.txt'))).toBe(false);
    s.peer.send({ id: ask['id'], result: { decision: 'accept' } });
    const done = params(await completed(s, from));
    expect(done['turn']).toMatchObject({ status: 'completed' });
    expect(existsSync(join(s.repo, 'made-by-rig.txt'))).toBe(true);
    const resolved = s.peer.received.slice(from).find(method('serverRequest/resolved'));
    expect(params(resolved!)).toEqual({ threadId: s.threadId, requestId: ask['id'] });
    const command = s.peer.received.slice(from).find((m) => method('item/completed')(m) && (params(m)['item'] as Json)['type'] === 'commandExecution');
    expect(params(command!)['item']).toMatchObject({ id: params(ask)['itemId'], status: 'completed', exitCode: 0 });
  });

  it('a declined command does not run and its item says declined', async () => {
    const s = await session({ approvalPolicy: 'untrusted', sandbox: 'workspace-write' });
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch never.txt' } }] }, { text: 'ok' });
    const { from } = await startTurn(s, 'make a file');
    const ask = await s.peer.next(method('item/commandExecution/requestApproval'), from);
    s.peer.send({ id: ask['id'], result: { decision: 'decline' } });
    await completed(s, from);
    expect(existsSync(join(s.repo, 'never.txt'))).toBe(false);
    const command = s.peer.received.slice(from).find((m) => method('item/completed')(m) && (params(m)['item'] as Json)['type'] === 'commandExecution');
    expect(params(command!)['item']).toMatchObject({ status: 'declined' });
  });

  it('asks the client before a file change and applies it once accepted', async () => {
    const s = await session({ approvalPolicy: 'untrusted', sandbox: 'workspace-write' });
    const patch = '*** Begin Patch\n*** Update File: note.txt\n@@\n one\n-two\n+three\n*** End Patch';
    mock.enqueue({ toolCalls: [{ name: 'apply_patch', kind: 'custom', input: patch }] }, { text: 'edited' });
    const { turnId, from } = await startTurn(s, 'edit the note');
    const ask = await s.peer.next(method('item/fileChange/requestApproval'), from);
    expect(params(ask)).toMatchObject({ threadId: s.threadId, turnId });
    // The pending item, with its diff, is announced before the question.
    const pending = s.peer.received.slice(from).find((m) => method('item/started')(m) && (params(m)['item'] as Json)['type'] === 'fileChange');
    expect((params(pending!)['item'] as Json)['id']).toBe(params(ask)['itemId']);
    expect(JSON.stringify((params(pending!)['item'] as Json)['changes'])).toContain('+three');
    expect(readFileSync(join(s.repo, 'note.txt'), 'utf8')).toBe('one\ntwo\n');
    s.peer.send({ id: ask['id'], result: { decision: 'accept' } });
    await completed(s, from);
    expect(readFileSync(join(s.repo, 'note.txt'), 'utf8')).toBe('one\nthree\n');
    const change = s.peer.received.slice(from).find((m) => method('item/completed')(m) && (params(m)['item'] as Json)['type'] === 'fileChange');
    expect(params(change!)['item']).toMatchObject({ status: 'completed' });
  });

  it('turn/steer adds input to the running turn; the next model request carries it', async () => {
    const s = await session({ sandbox: 'workspace-write' });
    const before = mock.requests.length;
    // The command waits for the test's go-ahead, so the steer arrives while the turn runs.
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo waiting; while [ ! -e go ]; do sleep 0.05; done; echo went', yield_time_ms: 30_000 } }] }, { text: 'steered' });
    const { turnId, from } = await startTurn(s, 'wait for go');
    await s.peer.next((m) => method('item/commandExecution/outputDelta')(m) && String(params(m)['delta']).includes('waiting'), from);
    const steer = resultOf<{ turnId: string }>(await s.peer.request('turn/steer', { threadId: s.threadId, expectedTurnId: turnId, input: text('also mention bananas') }));
    expect(steer.turnId).toBe(turnId);
    const stale = await s.peer.request('turn/steer', { threadId: s.threadId, expectedTurnId: 'turn_99', input: text('x') });
    expect(stale['error']).toMatchObject({ code: -32600 });
    writeFileSync(join(s.repo, 'go'), '');
    const done = params(await completed(s, from));
    expect(done['turn']).toMatchObject({ id: turnId, status: 'completed' });
    const second = await mock.waitForRequest(before + 2);
    expect(JSON.stringify(second.body)).toContain('also mention bananas');
  });

  it('turn/interrupt ends the turn as interrupted and kills its command', async () => {
    const s = await session({ sandbox: 'workspace-write' });
    const marker = `rig-as-interrupt-${process.pid}-${Date.now()}`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo ready; sleep 30 # ${marker}`, yield_time_ms: 30_000 } }] }, { text: 'never' });
    const { turnId, from } = await startTurn(s, 'sleep');
    await s.peer.next((m) => method('item/commandExecution/outputDelta')(m) && String(params(m)['delta']).includes('ready'), from);
    const groups = processGroupsWith(marker);
    expect(membersOf(groups).length).toBeGreaterThan(0);
    const wrong = await s.peer.request('turn/interrupt', { threadId: s.threadId, turnId: 'turn_77' });
    expect(wrong['error']).toMatchObject({ code: -32600 });
    expect(resultOf(await s.peer.request('turn/interrupt', { threadId: s.threadId, turnId }))).toEqual({});
    const done = params(await completed(s, from));
    expect(done['turn']).toMatchObject({ id: turnId, status: 'interrupted' });
    await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the interrupted command to be killed');
    // The thread takes the next turn.
    mock.enqueue({ text: 'back' });
    const next = await startTurn(s, 'again');
    expect(params(await completed(s, next.from))['turn']).toMatchObject({ status: 'completed' });
  });
});
