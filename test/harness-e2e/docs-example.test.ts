// docs/adding-a-harness.md walks through a user profile, tiny-coder. Its files are taken from the
// page itself, installed in a temp RIG_HOME, listed, and run end to end on the mock, so the
// walkthrough cannot rot.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome, REPO_ROOT } from '../support/workspace.js';
import { APP_AFTER, APP_BEFORE, FINAL_TEXT, PROMPT } from './scenario.js';

/** The fenced blocks of the page marked `<!-- file: NAME -->`. */
function docFiles(): Record<string, string> {
  const page = readFileSync(join(REPO_ROOT, 'docs', 'adding-a-harness.md'), 'utf8');
  const files: Record<string, string> = {};
  for (const match of page.matchAll(/<!-- file: (\S+) -->\n```[a-z]*\n([\s\S]*?)```/g)) files[match[1]!] = match[2]!;
  return files;
}

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

describe('the tiny-coder walkthrough', () => {
  it('has its prompt and profile on the page', () => {
    expect(Object.keys(docFiles()).sort()).toEqual(['tiny-coder.json', 'tiny-coder.md']);
  });

  it('loads, is listed, and reads, edits (after a refused unread edit), runs and finishes', async () => {
    const repo = tempGitRepo({ 'app.js': APP_BEFORE });
    const home = tempRigHome({ url: mock.url, wire: 'chat' });
    mkdirSync(join(home, 'harnesses'));
    for (const [name, text] of Object.entries(docFiles())) writeFileSync(join(home, 'harnesses', name), text);
    try {
      const list = await runRig(['harness', 'list', '--json'], { cwd: repo, home });
      const entry = (JSON.parse(list.stdout) as { id: string; error?: string; tools?: { name: string }[] }[]).find((e) => e.id === 'tiny-coder');
      expect(entry?.error).toBeUndefined();
      expect(entry?.tools?.map((tool) => tool.name)).toEqual(['read_file', 'replace_in_file', 'shell']);

      const app = join(repo, 'app.js');
      const start = mock.requests.length;
      mock.enqueue(
        { toolCalls: [{ name: 'replace_in_file', arguments: { path: app, old_string: "'wrold'", new_string: "'world'" } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: app } }] },
        { toolCalls: [{ name: 'replace_in_file', arguments: { path: app, old_string: "'wrold'", new_string: "'world'" } }] },
        { toolCalls: [{ name: 'shell', arguments: { command: 'node app.js', timeout: 10 } }] },
        { text: FINAL_TEXT },
      );
      const run = await runRig(['exec', '--harness', 'tiny-coder', '-s', 'workspace-write', PROMPT], { cwd: repo, home });
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(FINAL_TEXT);
      expect(readFileSync(app, 'utf8')).toBe(APP_AFTER);

      const bodies = mock.requests.slice(start).map((request) => JSON.stringify(request.body));
      expect(bodies).toHaveLength(5);
      expect(bodies[0]).toContain('You are tiny-coder, a careful coding assistant working in');
      expect(bodies[0]).toContain('"temperature":0.2');
      expect(bodies[1]).toContain('File has not been read yet');
      expect(bodies[2]).toContain('wrold');
      expect(bodies[4]).toContain('Hello, world!');
    } finally {
      removeDir(repo);
      removeDir(home);
    }
  });
});
