// rig's own app-server methods (the `rig/` prefix) through the real binary: the harness list, a
// thread started with a chosen harness and wire, its info, and a harness switch that takes effect
// from the next turn. The Codex-named messages around them are still checked against Codex's schema.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { conformanceProblems, initialize, removeCodexProtocol, resultOf, spawnAppServer, text, type Peer } from './support.js';

type Json = Record<string, unknown>;
interface RigInfo {
  threadId: string;
  harness: string;
  wire: string;
  modelProvider: string;
}

let mock: MockProvider;
let repo: string;
let home: string;
const peers: Peer[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'note.txt': 'one\n' });
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

function toolNames(body: Json): string[] {
  const tools = (body['tools'] as Json[] | undefined) ?? [];
  return tools.map((tool) => String(tool['name'] ?? (tool['function'] as Json | undefined)?.['name']));
}

describe('rig/ extensions of rig app-server', () => {
  it('lists harnesses, starts a thread with a harness and wire, and switches harness for the next turn', async () => {
    const peer = spawnAppServer({ cwd: repo, home });
    peers.push(peer);
    await initialize(peer);
    const harnesses = resultOf<{ data: { id: string; wires: string[] }[] }>(await peer.request('rig/harness/list', {}));
    expect(harnesses.data.map((harness) => harness.id)).toEqual(expect.arrayContaining(['native', 'claude-code']));

    const started = resultOf<{ thread: { id: string }; rig: RigInfo }>(await peer.request('rig/thread/start', { harness: 'native', wire: 'chat' }));
    expect(started.rig).toMatchObject({ threadId: started.thread.id, harness: 'native', wire: 'chat', modelProvider: 'mock' });
    const threadId = started.thread.id;
    expect(resultOf<RigInfo>(await peer.request('rig/thread/info', { threadId }))).toMatchObject({ harness: 'native', wire: 'chat' });

    mock.enqueue({ text: 'native answer' });
    let from = peer.received.length;
    resultOf(await peer.request('turn/start', { threadId, input: text('hello') }));
    await peer.next((message) => message['method'] === 'turn/completed', from);
    const first = mock.requests.at(-1)!;
    expect(first.wire).toBe('chat');
    expect(toolNames(first.body)).toContain('exec_command');

    expect(resultOf<RigInfo>(await peer.request('rig/thread/harness/set', { threadId, harness: 'claude-code' }))).toMatchObject({ harness: 'claude-code' });
    const unknown = await peer.request('rig/thread/harness/set', { threadId, harness: 'no-such-harness' });
    expect(unknown['error']).toMatchObject({ code: -32602 });
    expect((unknown['error'] as { message: string }).message).toContain('no-such-harness');

    mock.enqueue({ text: 'claude answer' });
    from = peer.received.length;
    resultOf(await peer.request('turn/start', { threadId, input: text('again') }));
    await peer.next((message) => message['method'] === 'turn/completed', from);
    expect(toolNames(mock.requests.at(-1)!.body)).toContain('Bash');
  });
});
