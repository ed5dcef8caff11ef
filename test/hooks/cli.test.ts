// `rig hooks list` and `rig hooks trust` through the built CLI.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { removeDir, runRig, tempDir } from '../support/workspace.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

test('project hooks are listed as waiting, confirmed by rig hooks trust, and asked for again after a change', async () => {
  const home = tempDir('hooks-home');
  const repo = tempDir('hooks-repo');
  dirs.push(home, repo);
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, '.rig'));
  const hooksFile = join(repo, '.rig', 'hooks.json');
  writeFileSync(hooksFile, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: './check.sh' }] }] } }));
  writeFileSync(join(home, 'config.toml'), `[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "say done"\n`);

  const untrusted = await runRig(['hooks', 'list', '--json'], { cwd: repo, home });
  expect(JSON.parse(untrusted.stdout).map((h: { event: string; status: string }) => [h.event, h.status])).toEqual([
    ['Stop', 'active'],
    ['PreToolUse', 'untrusted-project'],
  ]);
  expect(untrusted.stderr).toMatch(/project hooks not run: .*hooks\.json \(the project is not trusted\)/);
  expect((await runRig(['hooks', 'trust'], { cwd: repo, home })).code).toBe(1);

  writeFileSync(join(home, 'config.toml'), `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`, { flag: 'a' });
  const waiting = await runRig(['hooks', 'list'], { cwd: repo, home });
  expect(waiting.stdout).toMatch(/PreToolUse\s+Edit\|Write\s+unconfirmed\s+\.\/check\.sh/);
  expect(waiting.stdout).toContain('1 project hook(s) wait for confirmation: run `rig hooks trust` to confirm them');

  const trust = await runRig(['hooks', 'trust'], { cwd: repo, home });
  expect(trust.stdout).toBe(`confirmed PreToolUse Edit|Write: ./check.sh (${hooksFile})\n`);
  const after = await runRig(['hooks', 'list', '--json'], { cwd: repo, home });
  expect(JSON.parse(after.stdout).map((h: { status: string }) => h.status)).toEqual(['active', 'active']);

  writeFileSync(hooksFile, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: './check.sh --fix' }] }] } }));
  const changed = await runRig(['hooks', 'list', '--json'], { cwd: repo, home });
  expect(JSON.parse(changed.stdout).map((h: { status: string }) => h.status)).toEqual(['active', 'modified']);
});
