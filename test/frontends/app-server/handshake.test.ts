// `rig app-server` as a JSON-RPC peer, through the real binary: the initialize handshake, Codex's
// error codes for requests before it, unknown methods and bad params, a malformed line answered
// while the connection stays up, and the info methods (model/list, config/read). Every message rig
// sends is checked against the JSON Schema the installed Codex generates.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { CodexValidator, codexProtocol, conformanceProblems, initialize, removeCodexProtocol, resultOf, spawnAppServer, type Peer } from './support.js';

let mock: MockProvider;
let repo: string;
let home: string;
const peers: Peer[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'note.txt': 'alpha\n' });
  home = tempRigHome({ url: mock.url });
});

afterEach(async () => {
  for (const peer of peers.splice(0)) {
    await peer.close();
    expect(conformanceProblems(peer)).toEqual([]);
  }
});

afterAll(async () => {
  removeCodexProtocol();
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

function serve(args: string[] = []): Peer {
  const peer = spawnAppServer({ cwd: repo, home, args });
  peers.push(peer);
  return peer;
}

describe('rig app-server handshake and errors', () => {
  it('answers initialize with the user agent and home, then serves requests', async () => {
    const peer = serve();
    const result = resultOf(await initialize(peer));
    expect(result['userAgent']).toMatch(/^rig\/\S+ \(linux; \w+\) rig-test\/1\.0\.0$/);
    expect(result['codexHome']).toBe(home);
    expect(result).toMatchObject({ platformFamily: 'unix', platformOs: 'linux' });
    const again = await peer.request('initialize', { clientInfo: { name: 'x', title: null, version: '1' }, capabilities: null });
    expect(again['error']).toMatchObject({ code: -32600, message: 'Already initialized' });
  });

  it('refuses requests before initialize with -32600', async () => {
    const peer = serve();
    const early = await peer.request('thread/list', {});
    expect(early['error']).toMatchObject({ code: -32600, message: 'Not initialized' });
    await initialize(peer);
    expect(resultOf(await peer.request('thread/list', {}))).toMatchObject({ data: [] });
  });

  it('answers an unknown method with -32601 and bad params with -32602 naming the field', async () => {
    const peer = serve();
    await initialize(peer);
    const unknown = await peer.request('thread/teleport', {});
    expect(unknown['error']).toMatchObject({ code: -32601 });
    expect((unknown['error'] as { message: string }).message).toContain('thread/teleport');
    const bad = await peer.request('turn/start', { threadId: 42, input: 'not a list' });
    expect(bad['error']).toMatchObject({ code: -32602 });
    expect((bad['error'] as { message: string }).message).toMatch(/threadId/);
    expect((bad['error'] as { message: string }).message).toMatch(/input/);
  });

  it('answers a malformed line with a parse error and keeps the connection up', async () => {
    const peer = serve();
    await initialize(peer);
    const from = peer.received.length;
    peer.child.stdin!.write('{"id": 7, "method": "thread/list", \n');
    const parseError = await peer.next((message) => 'error' in message, from);
    expect(parseError).toMatchObject({ id: null, error: { code: -32700 } });
    peer.child.stdin!.write('[1, 2]\n');
    const notObject = await peer.next((message) => 'error' in message && message !== parseError, from);
    expect(notObject).toMatchObject({ id: null, error: { code: -32600 } });
    // Still serving.
    expect(resultOf(await peer.request('thread/list', {}))).toMatchObject({ data: [] });
    expect(peer.child.exitCode).toBeNull();
  });

  it('refuses requests beyond --max-pending-requests with -32001 and serves the next ones', async () => {
    const peer = serve(['--max-pending-requests', '1']);
    await initialize(peer);
    const from = peer.received.length;
    for (const id of [1, 2, 3]) peer.noteRequest(id, 'thread/start');
    // One write, so the second and third arrive while the first is still being worked on.
    peer.child.stdin!.write([1, 2, 3].map((id) => JSON.stringify({ id, method: 'thread/start', params: { ephemeral: true } })).join('\n') + '\n');
    const answers = await Promise.all([1, 2, 3].map((id) => peer.next((message) => message['id'] === id && !('method' in message), from)));
    expect(answers[0]).toHaveProperty('result');
    expect(answers[1]!['error']).toEqual({ code: -32001, message: 'Server overloaded; retry later.' });
    expect(answers[2]!['error']).toMatchObject({ code: -32001 });
    expect(resultOf(await peer.request('thread/list', {}))).toHaveProperty('data');
  });

  it('lists the configured model and reads the effective config', async () => {
    const peer = serve();
    await initialize(peer);
    const models = resultOf<{ data: { id: string; model: string; isDefault: boolean }[] }>(await peer.request('model/list', {}));
    expect(models.data.map((model) => model.model)).toContain('mock-model');
    expect(models.data.find((model) => model.model === 'mock-model')?.isDefault).toBe(true);
    const config = resultOf<{ config: Record<string, unknown> }>(await peer.request('config/read', { includeLayers: false }));
    expect(config.config).toMatchObject({ model: 'mock-model', model_provider: 'mock' });
  });

  it("the conformance check rejects what Codex's schema does not allow", () => {
    const validator = new CodexValidator(codexProtocol().schemaDir);
    expect(validator.problems({ method: 'turn/started', params: { threadId: 't' } }, () => undefined)).not.toEqual([]);
    expect(validator.problems({ method: 'item/agentMessage/delta', params: { threadId: 't', turnId: 'u', itemId: 'i', delta: 5 } }, () => undefined)).not.toEqual([]);
    expect(validator.problems({ id: 1, result: { data: 'x' } }, () => 'thread/list')).not.toEqual([]);
    expect(validator.problems({ id: 1, result: { data: [], nextCursor: null, backwardsCursor: null } }, () => 'thread/list')).toEqual([]);
  });
});
