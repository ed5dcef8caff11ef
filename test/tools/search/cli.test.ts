// Through the real CLI: opencode's grep and glob answer the same on rg and on the fallback, which
// in the built bundle runs in a worker thread (dist/search-worker.js).
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { toolResult } from '../../frontends/exec/helpers.js';

let mock: MockProvider;
let repo: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({
    '.gitignore': 'out/\n',
    'src/a.ts': 'const needle = 1;\n',
    'src/gen/.gitignore': '*.ts\n',
    'src/gen/skip.ts': 'needle\n',
    'out/b.ts': 'needle\n',
    'lib/c.ts': 'no\nneedle again\n',
  });
  utimesSync(join(repo, 'src/a.ts'), 1000, 1000);
  utimesSync(join(repo, 'lib/c.ts'), 2000, 2000);
  home = tempRigHome({ url: mock.url, wire: 'chat' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

describe.each(['auto', 'off'])('RIG_RIPGREP=%s', (setting) => {
  test('opencode grep and glob honour nested .gitignore files, newest first', async () => {
    const before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ id: 'call_grep', name: 'grep', arguments: { pattern: 'needle' } }] }, { toolCalls: [{ id: 'call_glob', name: 'glob', arguments: { pattern: '**/*.ts' } }] }, { text: 'done' });
    const run = await runRig(['exec', '--json', '--harness', 'opencode', 'find the needle'], { cwd: repo, home, env: { RIG_RIPGREP: setting } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const requests = mock.requests.slice(before);
    expect(requests).toHaveLength(3);
    expect(toolResult('chat', requests[1]!.body).text).toBe(`Found 2 matches\n${repo}/lib/c.ts:\n  Line 2: needle again\n\n${repo}/src/a.ts:\n  Line 1: const needle = 1;`);
    const globMessage = requests[2]!.body.messages.filter((m: { role: string }) => m.role === 'tool').at(-1);
    const globText = typeof globMessage.content === 'string' ? globMessage.content : globMessage.content.map((p: { text: string }) => p.text).join('');
    expect(globText).toBe(`${repo}/lib/c.ts\n${repo}/src/a.ts`);
  });
});
