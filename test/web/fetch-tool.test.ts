// web_fetch bound to the harnesses' fetch tools, through the real `rig exec` against a loopback
// page: with the sandbox's network on, the page comes back as Markdown; with it off (the default
// read-only sandbox, nobody to ask), the request is refused before anything is sent, saying how to
// turn network access on.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { toolResult } from '../frontends/exec/helpers.js';
import { startServer, type TestServer } from './server.js';

let mock: MockProvider;
let site: TestServer;
let repo: string;
const homes: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  site = await startServer({
    '/docs': () => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html><head><title>The Docs</title></head><body><h1>Install</h1><p>Run <code>make</code>.</p></body></html>' }),
  });
  repo = tempGitRepo({ 'README.md': 'hi\n' });
});

afterAll(async () => {
  await mock.close();
  await site.close();
  removeDir(repo);
  for (const h of homes) removeDir(h);
});

describe.each([
  { harness: 'opencode', tool: 'webfetch', args: { format: 'markdown' } },
  { harness: 'deepseek-tui', tool: 'fetch_url', args: {} },
])('$harness $tool', ({ harness, tool, args }) => {
  test('fetches the page as Markdown when the sandbox allows network access', async () => {
    const home = tempRigHome({ url: mock.url, wire: 'chat' });
    homes.push(home);
    const before = mock.requests.length;
    const hits = site.requests.length;
    mock.enqueue({ toolCalls: [{ name: tool, arguments: { url: `${site.url}/docs`, ...args } }] }, { text: 'read it' });

    const run = await runRig(['exec', '--harness', harness, '-s', 'workspace-write', '-c', 'sandbox_workspace_write.network_access=true', 'read the docs'], { cwd: repo, home });

    expect(run.code).toBe(0);
    expect(site.requests.length).toBe(hits + 1);
    const result = toolResult('chat', mock.requests[before + 1]!.body).text;
    expect(result).toContain('Title: The Docs');
    expect(result).toContain('# Install');
    expect(result).toContain('Run `make`.');
  });

  test('is refused without a request when the sandbox has no network and nobody can approve', async () => {
    const home = tempRigHome({ url: mock.url, wire: 'chat' });
    homes.push(home);
    const before = mock.requests.length;
    const hits = site.requests.length;
    mock.enqueue({ toolCalls: [{ name: tool, arguments: { url: `${site.url}/docs`, ...args } }] }, { text: 'ok' });

    const run = await runRig(['exec', '--harness', harness, 'read the docs'], { cwd: repo, home });

    expect(run.code).toBe(0);
    expect(site.requests.length).toBe(hits);
    const result = toolResult('chat', mock.requests[before + 1]!.body).text;
    expect(result).toMatch(/network access is off in this sandbox/);
    expect(result).toContain('sandbox_workspace_write.network_access=true');
  });
});
