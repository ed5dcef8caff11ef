// What rig gathers for each target from a real git repository, and the prompt built from it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { gatherChanges, MAX_DIFF_BYTES, reviewContextText } from '../../../src/core/review/index.js';
import { removeDir, tempGitRepo } from '../../support/workspace.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) removeDir(dir);
});

test('uncommitted: staged, unstaged and untracked changes; a huge diff is cut and the prompt says so', async () => {
  const repo = tempGitRepo({ 'a.txt': 'one\n', '.gitignore': 'ignored.txt\n' });
  dirs.push(repo);
  writeFileSync(join(repo, 'a.txt'), 'one\ntwo\n');
  writeFileSync(join(repo, 'new.txt'), 'fresh\n');
  writeFileSync(join(repo, 'ignored.txt'), 'secret build output\n');
  writeFileSync(join(repo, 'staged.txt'), 'staged line\n');
  execFileSync('git', ['add', 'staged.txt'], { cwd: repo });
  const changes = await gatherChanges(repo, { type: 'uncommittedChanges' });
  expect(changes.diff).toContain('+two');
  expect(changes.diff).toContain('+++ b/new.txt');
  expect(changes.diff).toContain('+staged line');
  expect(changes.diff).not.toContain('ignored.txt');
  expect(changes.omittedBytes).toBe(0);

  writeFileSync(join(repo, 'big.txt'), 'x'.repeat(100) + '\n'.repeat(1) + ('line\n'.repeat(MAX_DIFF_BYTES / 5)));
  const big = await gatherChanges(repo, { type: 'uncommittedChanges' });
  expect(Buffer.byteLength(big.diff)).toBeLessThanOrEqual(MAX_DIFF_BYTES);
  expect(big.omittedBytes).toBeGreaterThan(0);
  expect(reviewContextText({ type: 'uncommittedChanges' }, big, repo)).toContain(`${big.omittedBytes} more bytes are not shown`);
});

test('a commit that does not exist, and a folder that is not a repository, are errors that say so', async () => {
  const repo = tempGitRepo({ 'a.txt': 'one\n' });
  dirs.push(repo);
  await expect(gatherChanges(repo, { type: 'commit', sha: 'deadbeef' })).rejects.toThrow(`commit deadbeef is not in this repository (${repo})`);
  await expect(gatherChanges('/', { type: 'uncommittedChanges' })).rejects.toThrow('/ is not inside a git repository');
});
