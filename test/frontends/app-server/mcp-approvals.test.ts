// The approvals Codex's app-server asks without an item request of their own, through `rig
// app-server` (the real binary, the loopback mock model, a stdio MCP server from the fixtures):
// an MCP tool call's approval and an MCP server's form question as `mcpServer/elicitation/request`
// (the former with `_meta.codex_approval_kind = "mcp_tool_call"`), and web_fetch's network access
// as `item/permissions/requestApproval`. Every message rig sends is checked against Codex's schema.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { REPO_ROOT, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { initialize, resultOf, spawnAppServer, text, useAppServerTests, type Peer } from './support.js';

type Json = Record<string, unknown>;

const ASK_SERVER = join(REPO_ROOT, 'test', 'frontends', 'fixtures', 'ask-server.mjs');

let mock: MockProvider;
const { dirs, peers } = useAppServerTests((m) => (mock = m));

const method = (name: string) => (message: Json) => message['method'] === name;
const params = (message: Json) => message['params'] as Json;

async function session(harness: string): Promise<{ peer: Peer; threadId: string }> {
  const repo = tempGitRepo({ 'note.txt': 'one\n' });
  const servers = ['[mcp_servers.ask]', `command = ${JSON.stringify(process.execPath)}`, `args = ${JSON.stringify([ASK_SERVER])}`, 'required = true'].join('\n');
  const home = tempRigHome({ url: mock.url, extra: servers });
  dirs.push(repo, home);
  const peer = spawnAppServer({ cwd: repo, home, args: ['-c', `harness="${harness}"`] });
  peers.push(peer);
  await initialize(peer);
  const started = resultOf<{ thread: { id: string } }>(await peer.request('thread/start', { approvalPolicy: 'on-request', sandbox: 'workspace-write' }));
  return { peer, threadId: started.thread.id };
}

async function turn(s: { peer: Peer; threadId: string }, prompt: string): Promise<number> {
  const from = s.peer.received.length;
  await s.peer.request('turn/start', { threadId: s.threadId, input: text(prompt) });
  return from;
}

describe('rig app-server MCP and network approvals', () => {
  it('asks an MCP tool call as mcpServer/elicitation/request (codex_approval_kind mcp_tool_call); "session" persists it', async () => {
    const s = await session('native');
    mock.enqueue(
      { toolCalls: [{ id: 'call_plain_1', name: 'mcp__ask__plain', arguments: { why: 'first' } }] },
      { text: 'once' },
      { toolCalls: [{ id: 'call_plain_2', name: 'mcp__ask__plain', arguments: { why: 'second' } }] },
      { text: 'twice' },
    );
    const before = mock.requests.length;
    let from = await turn(s, 'do the plain thing');
    const ask = await s.peer.next(method('mcpServer/elicitation/request'), from);
    expect(params(ask)).toMatchObject({
      threadId: s.threadId,
      serverName: 'ask',
      mode: 'form',
      requestedSchema: { type: 'object', properties: {} },
      _meta: { codex_approval_kind: 'mcp_tool_call', tool_name: 'plain', tool_params: { why: 'first' } },
    });
    expect(params(ask)['message']).toContain('"plain"');
    s.peer.send({ id: ask['id'], result: { action: 'accept', content: {}, _meta: { persist: 'session' } } });
    await s.peer.next(method('turn/completed'), from);
    expect(JSON.stringify(mock.requests[before + 1]!.body)).toContain('plain ran');

    // Allowed for the session: the second call runs without a question.
    from = await turn(s, 'again');
    await s.peer.next(method('turn/completed'), from);
    expect(s.peer.received.slice(from).filter(method('mcpServer/elicitation/request'))).toEqual([]);
    expect(JSON.stringify(mock.requests[before + 3]!.body)).toContain('plain ran');
  });

  it("asks an MCP server's form question as mcpServer/elicitation/request and gives the server the client's answer", async () => {
    const s = await session('native');
    mock.enqueue({ toolCalls: [{ id: 'call_form', name: 'mcp__ask__form', arguments: {} }] }, { text: 'named' });
    const before = mock.requests.length;
    const from = await turn(s, 'ask my name');
    const ask = await s.peer.next(method('mcpServer/elicitation/request'), from);
    expect(params(ask)).toMatchObject({ serverName: 'ask', mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    expect(params(ask)['_meta']).toBeUndefined();
    s.peer.send({ id: ask['id'], result: { action: 'accept', content: { name: 'Ada' } } });
    await s.peer.next(method('turn/completed'), from);
    expect(JSON.stringify(mock.requests[before + 1]!.body)).toContain(JSON.stringify(JSON.stringify({ action: 'accept', content: { name: 'Ada' } })).slice(1, -1));
  });

  it("asks web_fetch's network access as item/permissions/requestApproval; a grant fetches, a refusal does not", async () => {
    let hits = 0;
    const site: Server = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('page from the loopback site');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/page`;
    try {
      const s = await session('opencode');
      mock.enqueue(
        { toolCalls: [{ id: 'call_fetch_1', name: 'webfetch', arguments: { url, format: 'text' } }] },
        { text: 'fetched' },
        { toolCalls: [{ id: 'call_fetch_2', name: 'webfetch', arguments: { url: `${url}?again`, format: 'text' } }] },
        { text: 'refused' },
      );
      const before = mock.requests.length;
      let from = await turn(s, 'fetch the page');
      let ask = await s.peer.next(method('item/permissions/requestApproval'), from);
      expect(params(ask)).toMatchObject({ threadId: s.threadId, permissions: { network: { enabled: true }, fileSystem: null } });
      expect(params(ask)['reason']).toContain('127.0.0.1');
      s.peer.send({ id: ask['id'], result: { permissions: { network: { enabled: true } }, scope: 'turn' } });
      await s.peer.next(method('turn/completed'), from);
      expect(hits).toBe(1);
      expect(JSON.stringify(mock.requests[before + 1]!.body)).toContain('page from the loopback site');

      from = await turn(s, 'fetch it again');
      ask = await s.peer.next(method('item/permissions/requestApproval'), from);
      s.peer.send({ id: ask['id'], result: { permissions: {} } });
      await s.peer.next(method('turn/completed'), from);
      expect(hits).toBe(1);
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});
