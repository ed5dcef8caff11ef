// Web search through the real CLI against a loopback search backend ([web_search] provider =
// "custom"): each harness's tool in its own result shape, domain filters, the sandbox's network
// rule, and the omission rule — with no backend configured the tools are not in the request.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { toolResult } from '../frontends/exec/helpers.js';
import { startServer, type TestServer } from './server.js';

let mock: MockProvider;
let backend: TestServer;
const dirs: string[] = [];

const RESULTS = [
  { title: 'Vitest guide', url: 'https://vitest.dev/guide/', snippet: 'Getting started with Vitest' },
  { title: 'Vitest on GitHub', url: 'https://github.com/vitest-dev/vitest', snippet: 'Source code' },
];

beforeAll(async () => {
  mock = await startMockProvider();
  backend = await startServer({ '/search': () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ results: RESULTS }) }) });
});

afterAll(async () => {
  await mock.close();
  await backend.close();
  for (const dir of dirs) removeDir(dir);
});

beforeEach(() => {
  expect(mock.remaining()).toBe(0);
});

/** A RIG_HOME whose config.toml starts with `topLevel` (keys before any table). */
function homeWith(wire: MockWire, topLevel: string): string {
  const dir = tempRigHome({ url: mock.url, wire });
  dirs.push(dir);
  const file = join(dir, 'config.toml');
  writeFileSync(file, `${topLevel}\n${readFileSync(file, 'utf8')}`);
  return dir;
}

function home(wire: MockWire, withBackend: boolean): string {
  const extra = withBackend ? `[web_search]\nprovider = "custom"\nurl = "${backend.url}/search"\n` : '';
  const dir = tempRigHome({ url: mock.url, wire, extra });
  dirs.push(dir);
  return dir;
}

function toolNames(body: any): string[] {
  return (body.tools ?? []).map((tool: any) => tool.name ?? tool.function?.name);
}

const NETWORK_ON = ['-s', 'workspace-write', '-c', 'sandbox_workspace_write.network_access=true'];

describe('web search tools', () => {
  test('claude-code WebSearch: loaded through ToolSearch, answered in its shape, filtered to the allowed domains', async () => {
    const repo = tempGitRepo();
    dirs.push(repo);
    const before = mock.requests.length;
    mock.enqueue(
      { toolCalls: [{ id: 'toolu_load', name: 'ToolSearch', arguments: { query: 'select:WebSearch' } }] },
      { toolCalls: [{ id: 'toolu_search', name: 'WebSearch', arguments: { query: 'vitest docs', allowed_domains: ['vitest.dev'] } }] },
      { text: 'found it' },
    );
    const run = await runRig(['exec', '--harness', 'claude-code', ...NETWORK_ON, 'search'], { cwd: repo, home: home('messages', true) });
    expect(run.code, run.stderr).toBe(0);
    const bodies = mock.requests.slice(before).map((r) => r.body as any);
    expect(toolNames(bodies[1])).toContain('WebSearch');
    const last = bodies[2].messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    const text = typeof last.content === 'string' ? last.content : last.content.map((p: any) => p.text).join('');
    expect(text).toBe(
      'Web search results for query: "vitest docs"\n\nLinks: [{"title":"Vitest guide","url":"https://vitest.dev/guide/"}]\n\nVitest guide: Getting started with Vitest',
    );
    expect(backend.requests.at(-1)!.url).toMatch(/^\/search\?q=vitest\+docs/);
  });

  test('deepseek-tui web_search answers with its JSON object; native web_search with a list', async () => {
    const repo = tempGitRepo();
    dirs.push(repo);
    let before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ name: 'web_search', arguments: { query: 'vitest' } }] }, { text: 'ok' });
    let run = await runRig(['exec', '--harness', 'deepseek-tui', ...NETWORK_ON, 'search'], { cwd: repo, home: home('chat', true) });
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(toolResult('chat', mock.requests[before + 1]!.body).text);
    expect(answer).toEqual({ query: 'vitest', source: 'rig', count: 2, message: 'Found 2 result(s)', results: RESULTS });

    before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ name: 'web_search', arguments: { query: 'vitest' } }] }, { text: 'ok' });
    // On Chat Completions (no search of its own) the native harness searches through the backend.
    run = await runRig(['exec', '--harness', 'native', ...NETWORK_ON, 'search'], { cwd: repo, home: home('chat', true) });
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames(mock.requests[before]!.body)).toContain('web_search');
    expect(toolResult('chat', mock.requests[before + 1]!.body).text).toBe(
      'Results for "vitest":\n1. [Vitest guide](https://vitest.dev/guide/)\n   Getting started with Vitest\n2. [Vitest on GitHub](https://github.com/vitest-dev/vitest)\n   Source code',
    );
  });

  test('the sandbox decides: with network off and nobody to ask, the search is refused and not sent', async () => {
    const repo = tempGitRepo();
    dirs.push(repo);
    const before = mock.requests.length;
    const sent = backend.requests.length;
    mock.enqueue({ toolCalls: [{ name: 'web_search', arguments: { query: 'vitest' } }] }, { text: 'ok' });
    const run = await runRig(['exec', '--harness', 'native', '-s', 'workspace-write', 'search'], { cwd: repo, home: home('chat', true) });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResult('chat', mock.requests[before + 1]!.body).text).toMatch(/network access is off in this sandbox/);
    expect(backend.requests.length).toBe(sent);
  });

  test('without a backend the tools are left out of the request, and a configured backend without its key says why', async () => {
    const repo = tempGitRepo();
    dirs.push(repo);
    for (const [harness, wire, name] of [['native', 'responses', 'web_search'], ['deepseek-tui', 'chat', 'web_search'], ['little-coder', 'chat', 'websearch']] as const) {
      const before = mock.requests.length;
      mock.enqueue({ text: 'nothing to search with' });
      const run = await runRig(['exec', '--harness', harness, 'hello'], { cwd: repo, home: home(wire, false) });
      expect(run.code, run.stderr).toBe(0);
      expect(toolNames(mock.requests[before]!.body)).not.toContain(name);
    }
    const keyless = tempRigHome({ url: mock.url, extra: '[web_search]\nprovider = "brave"\n' });
    dirs.push(keyless);
    mock.enqueue({ text: 'no key' });
    const run = await runRig(['exec', '--harness', 'native', 'hello'], { cwd: repo, home: keyless, env: { BRAVE_API_KEY: '' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('web search is off for this thread: web_search provider "brave" needs an API key: set the environment variable BRAVE_API_KEY');
    expect(readFileSync(join(keyless, 'config.toml'), 'utf8')).toContain('provider = "brave"');
  });
});

describe("the provider's own web search (Responses)", () => {
  test('web_search = "live": the hosted tool is sent, its searches are items in --json and go back in the next request', async () => {
    const repo = tempGitRepo();
    dirs.push(repo);
    const dir = homeWith('responses', 'web_search = "live"');
    const before = mock.requests.length;
    mock.enqueue({ webSearches: ['vitest latest version'], toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo checked' } }] }, { text: 'Vitest 4 it is.' });
    const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'read-only', 'which vitest?'], { cwd: repo, home: dir });
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = mock.requests.slice(before).map((r) => r.body as any);
    expect(first.tools.at(-1)).toEqual({ type: 'web_search', external_web_access: true });
    expect(first.tools.filter((tool: any) => tool.name === 'web_search')).toEqual([]);
    expect(second.input).toContainEqual({ type: 'web_search_call', id: `ws_mock${before + 1}_0`, status: 'completed', action: { type: 'search', query: 'vitest latest version' } });
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const searched = events.filter((e) => e.type === 'item.completed' && e.item.type === 'web_search');
    expect(searched.map((e) => e.item.query)).toEqual(['vitest latest version']);
  });

  test('"cached" asks for no live access; other wires and harnesses get no hosted tool', async () => {
    const repo = tempGitRepo();
    dirs.push(repo);
    const dir = homeWith('responses', 'web_search = "cached"');
    const chat = homeWith('chat', 'web_search = "cached"');
    let before = mock.requests.length;
    mock.enqueue({ text: 'ok' });
    expect((await runRig(['exec', '--harness', 'native', 'hi'], { cwd: repo, home: dir })).code).toBe(0);
    expect((mock.requests[before]!.body as any).tools.at(-1)).toEqual({ type: 'web_search', external_web_access: false });
    before = mock.requests.length;
    mock.enqueue({ text: 'ok' }, { text: 'ok' });
    const onChat = await runRig(['exec', '--harness', 'native', 'hi'], { cwd: repo, home: chat });
    expect(onChat.code).toBe(0);
    expect(onChat.stderr).toContain(`web search is off for this thread: web_search = "cached" asks for the provider's own search, which the chat wire does not offer to the native harness`);
    expect((await runRig(['exec', '--harness', 'claude-code', 'hi'], { cwd: repo, home: dir })).code).toBe(0);
    for (const request of mock.requests.slice(before)) {
      expect(JSON.stringify((request.body as any).tools)).not.toContain('"web_search"');
    }
  });
});
