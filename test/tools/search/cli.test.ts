// Through the real CLI: opencode's grep and glob answer the same on rg and on the fallback, which
// in the built bundle runs in a worker thread (dist/search-worker.js).
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledRipgrep, systemRipgrep } from '../../../src/tools/search/locate.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
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

describe('the ripgrep config key', () => {
  const realRg = bundledRipgrep() ?? systemRipgrep(process.env['PATH'] ?? '');
  const grepOnce = (): void =>
    mock.enqueue({ toolCalls: [{ id: 'call_grep', name: 'grep', arguments: { pattern: 'needle' } }] }, { text: 'done' });
  const expected = (): string => `Found 2 matches\n${repo}/lib/c.ts:\n  Line 2: needle again\n\n${repo}/src/a.ts:\n  Line 1: const needle = 1;`;
  /** An rg that notes each call in `log`, then runs the real one. */
  const recordingRg = (dir: string, name: string, log: string): string => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\necho "$@" >> '${log}'\nexec '${realRg}' "$@"\n`);
    chmodSync(path, 0o755);
    return path;
  };

  test.skipIf(!realRg)('-c ripgrep=PATH runs that rg; the same key in a trusted project .rig/config.toml is dropped', async () => {
    const dir = tempDir('rg-wrapper');
    const log = join(dir, 'calls.log');
    const projectLog = join(dir, 'project-calls.log');
    // A trusted project, so its .rig/config.toml is read at all.
    const trustingHome = tempRigHome({ url: mock.url, wire: 'chat', extra: `\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n` });
    mkdirSync(join(repo, '.rig'), { recursive: true });
    writeFileSync(join(repo, '.rig', 'config.toml'), `ripgrep = "${recordingRg(dir, 'project-rg', projectLog)}"\n`);
    try {
      const before = mock.requests.length;
      grepOnce();
      const args = ['exec', '--json', '--harness', 'opencode', '-s', 'read-only', '-c', `ripgrep="${recordingRg(dir, 'my-rg', log)}"`, 'find the needle'];
      const run = await runRig(args, { cwd: repo, home: trustingHome, env: {} });
      expect(run.code).toBe(0);
      expect(toolResult('chat', mock.requests[before + 1]!.body).text).toBe(expected());
      expect(readFileSync(log, 'utf8')).toContain('--regexp=needle');

      // Only the project's file names one now: rig must not run a binary a repository chose.
      rmSync(log);
      grepOnce();
      const second = await runRig(['exec', '--json', '--harness', 'opencode', '-s', 'read-only', 'find the needle'], { cwd: repo, home: trustingHome, env: {} });
      expect(second.code).toBe(0);
      expect(second.stdout + second.stderr).toContain('ignored keys a project config may not set: ripgrep');
      expect(toolResult('chat', mock.requests[before + 3]!.body).text).toBe(expected());
      expect(existsSync(projectLog)).toBe(false);
      expect(existsSync(log)).toBe(false);
    } finally {
      removeDir(join(repo, '.rig'));
      removeDir(dir);
      removeDir(trustingHome);
    }
  });

  test('a ripgrep path that is not an executable: the session says so, and searches in-process', async () => {
    const before = mock.requests.length;
    grepOnce();
    const missing = join(repo, 'no-such-dir', 'rg');
    const run = await runRig(['exec', '--json', '--harness', 'opencode', '-c', `ripgrep="${missing}"`, 'find the needle'], { cwd: repo, home, env: {} });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`searches run in-process (slower) instead of with ripgrep: ripgrep = \\"${missing}\\" in config, but that is not an executable file`);
    expect(toolResult('chat', mock.requests[before + 1]!.body).text).toBe(expected());
  });
});
