// Anthropic's server web search through the real CLI on the Messages wire: the native harness
// sends the server tool and echoes its blocks unchanged in the next request; Claude Code's
// WebSearch runs as a side request to the provider with that tool; with neither a backend nor
// web_search asked for, the tools are left out.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

beforeEach(() => {
  expect(mock.remaining()).toBe(0);
});

/** A Messages-wire RIG_HOME; `webSearch` is the [web_search] table's body, or a mode string. */
function home(webSearch?: string): string {
  const table = webSearch !== undefined && !webSearch.startsWith('"') ? `\n[web_search]\n${webSearch}\n` : '';
  const dir = tempRigHome({ url: mock.url, wire: 'messages', extra: table });
  dirs.push(dir);
  if (webSearch?.startsWith('"')) {
    // A top-level key goes before the tables.
    const file = join(dir, 'config.toml');
    writeFileSync(file, `web_search = ${webSearch}\n${readFileSync(file, 'utf8')}`);
  }
  return dir;
}

function repo(): string {
  const dir = tempGitRepo();
  dirs.push(dir);
  return dir;
}

function toolNames(body: any): string[] {
  return (body.tools ?? []).map((tool: any) => tool.name);
}

function jsonEvents(stdout: string): any[] {
  return stdout.trim().split('\n').map((line) => JSON.parse(line));
}

describe("Anthropic's server web search (Messages)", () => {
  test('native: the server tool is sent, its blocks come back unchanged in the next request, and --json shows the search', async () => {
    const before = mock.requests.length;
    const n = before + 1;
    mock.enqueue(
      { webSearches: ['vitest latest version'], cite: true, text: 'Vitest 4 is current.', toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo checked' } }] },
      { text: 'Vitest 4 it is.' },
    );
    const dir = home('mode = "live"\nmax_uses = 2\nblocked_domains = ["spam.example"]');
    const cwd = repo();
    const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'read-only', 'which vitest?'], { cwd, home: dir });
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = mock.requests.slice(before).map((r) => r.body as any);
    const { cache_control: _breakpoint, ...serverTool } = first.tools.at(-1);
    expect(serverTool).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 2, blocked_domains: ['spam.example'] });
    // The function tool over a backend stays out: the server tool is the only web_search.
    expect(first.tools.filter((tool: any) => tool.name === 'web_search')).toHaveLength(1);

    const assistant = second.messages.find((m: any) => m.role === 'assistant');
    const url = `https://example.com/mock${n}/0`;
    expect(assistant.content.slice(0, 3)).toEqual([
      { type: 'server_tool_use', id: `srvtoolu_mock${n}_0`, name: 'web_search', input: { query: 'vitest latest version' } },
      {
        type: 'web_search_tool_result',
        tool_use_id: `srvtoolu_mock${n}_0`,
        content: [{ type: 'web_search_result', title: 'About vitest latest version', url, encrypted_content: `enc_mock${n}_0_0`, page_age: '1 day ago' }],
      },
      {
        type: 'text',
        text: 'Vitest 4 is current.',
        citations: [{ type: 'web_search_result_location', cited_text: 'Vitest 4 is current.', url, title: 'About vitest latest version', encrypted_index: `idx_mock${n}_0_0` }],
      },
    ]);
    expect(assistant.content[3]).toMatchObject({ type: 'tool_use', name: 'exec_command' });

    const events = jsonEvents(run.stdout);
    const searched = events.filter((e) => e.type === 'item.completed' && e.item.type === 'web_search');
    expect(searched.map((e) => e.item.query)).toEqual(['vitest latest version']);
    // Anthropic's count of its own searches (usage.server_tool_use.web_search_requests) is kept.
    expect(events.find((e) => e.type === 'turn.completed').usage.web_search_requests).toBe(1);

    // The rollout keeps the blocks: a resumed thread sends them again, byte for byte.
    const threadId = events.find((e) => e.type === 'thread.started').thread_id;
    const again = mock.requests.length;
    mock.enqueue({ text: 'still 4' });
    const resumed = await runRig(['exec', 'resume', threadId, 'sure?'], { cwd, home: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    // The thread keeps counting: the footer of the resumed run includes the earlier search.
    expect(resumed.stdout + resumed.stderr).toMatch(/tokens used: .*; 1 web search by the provider/);
    const third = mock.requests[again]!.body as any;
    const replayed = third.messages.find((m: any) => m.role === 'assistant');
    expect(replayed.content.slice(0, 3)).toEqual(assistant.content.slice(0, 3));
  });

  test('claude-code WebSearch: a side request to the provider with the server tool, answered in the original shape', async () => {
    const before = mock.requests.length;
    mock.enqueue(
      { toolCalls: [{ id: 'toolu_load', name: 'ToolSearch', arguments: { query: 'select:WebSearch' } }] },
      { toolCalls: [{ id: 'toolu_search', name: 'WebSearch', arguments: { query: 'vitest docs', allowed_domains: ['vitest.dev'] } }] },
      // The side request: the provider searches by itself, then says what it found.
      { webSearches: [{ query: 'vitest docs', results: [{ title: 'Vitest guide', url: 'https://vitest.dev/guide/' }] }], text: 'The guide is at vitest.dev/guide.' },
      { text: 'found it' },
    );
    const run = await runRig(['exec', '--harness', 'claude-code', 'search the docs'], { cwd: repo(), home: home('"live"') });
    expect(run.code, run.stderr).toBe(0);
    const bodies = mock.requests.slice(before).map((r) => r.body as any);
    expect(toolNames(bodies[1])).toContain('WebSearch');
    const side = bodies[2];
    expect(side.model).toBe(bodies[1].model);
    expect(side.tools.map(({ cache_control: _c, ...tool }: any) => tool)).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['vitest.dev'] },
    ]);
    expect(JSON.stringify(side.messages)).toContain('Search the web for: vitest docs');
    const result = bodies[3].messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    const text = typeof result.content === 'string' ? result.content : result.content.map((p: any) => p.text).join('');
    expect(text).toBe(
      'Web search results for query: "vitest docs"\n\n' +
        'Links: [{"title":"Vitest guide","url":"https://vitest.dev/guide/"}]\n\n' +
        'The guide is at vitest.dev/guide.\n\n' +
        'Cite the sources above in your answer, as markdown links.',
    );
  });

  test('a search the provider refuses (max_uses_exceeded) reaches WebSearch as an error entry', async () => {
    const before = mock.requests.length;
    mock.enqueue(
      { toolCalls: [{ id: 'toolu_load', name: 'ToolSearch', arguments: { query: 'select:WebSearch' } }] },
      { toolCalls: [{ id: 'toolu_search', name: 'WebSearch', arguments: { query: 'too many' } }] },
      { webSearches: [{ query: 'too many', error: 'max_uses_exceeded' }], text: 'No more searches allowed.' },
      { text: 'ok' },
    );
    const run = await runRig(['exec', '--harness', 'claude-code', 'search'], { cwd: repo(), home: home('mode = "cached"\nmax_uses = 1') });
    expect(run.code, run.stderr).toBe(0);
    const bodies = mock.requests.slice(before).map((r) => r.body as any);
    expect(bodies[2].tools[0]).toMatchObject({ type: 'web_search_20250305', max_uses: 1 });
    const result = bodies[3].messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    const text = typeof result.content === 'string' ? result.content : result.content.map((p: any) => p.text).join('');
    expect(text).toContain('Web search error: max_uses_exceeded\n\nNo more searches allowed.');
  });

  test('with web_search not asked for and no backend, neither the server tool nor WebSearch is sent', async () => {
    const before = mock.requests.length;
    mock.enqueue(
      { text: 'nothing to search with' },
      { toolCalls: [{ id: 'toolu_load', name: 'ToolSearch', arguments: { query: 'select:WebSearch' } }] },
      { text: 'nothing either' },
    );
    const dir = home();
    const cwd = repo();
    expect((await runRig(['exec', '--harness', 'native', 'hello'], { cwd, home: dir })).code).toBe(0);
    expect((await runRig(['exec', '--harness', 'claude-code', 'hello'], { cwd, home: dir })).code).toBe(0);
    const [native, claude, loaded] = mock.requests.slice(before).map((r) => r.body as any);
    expect(JSON.stringify(native.tools)).not.toContain('web_search');
    expect(JSON.stringify(claude.tools)).not.toContain('web_search_20250305');
    const answer = loaded.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    expect(answer.content).toMatch(/No deferred tool named WebSearch/);
    expect(toolNames(loaded)).not.toContain('WebSearch');
  });
});
