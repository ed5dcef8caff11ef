// A SWE-bench row end to end without Docker: a worktree of the clone at base_commit, test_patch
// applied after the agent (over whatever it did to those files), FAIL_TO_PASS and PASS_TO_PASS run
// with the row's test command; the gold patch turns the reward from 0 to 1.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applySolution, runCheck } from '../../src/eval/check/run-check.js';
import { loadTasks } from '../../src/eval/tasks/load.js';
import { createWorkspace, removeWorkspace } from '../../src/eval/workspace.js';
import { removeDir, tempDir, tempGitRepo } from '../support/workspace.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
}

describe('SWE-bench rows', () => {
  it('score 0 at base_commit and 1 with the gold patch, with test_patch applied after the agent', async () => {
    const repo = tempGitRepo({ 'calc.py': 'def add(a, b):\n    return a - b\n', 'tests/__init__.py': '', 'tests/test_old.py': 'import unittest\nfrom calc import add\n\nclass Old(unittest.TestCase):\n    def test_zero(self):\n        self.assertEqual(add(0, 0), 0)\n' });
    dirs.push(repo);
    const base = git(repo, 'rev-parse', 'HEAD').trim();
    // The test and fix patches, as a dataset would carry them.
    writeFileSync(join(repo, 'tests', 'test_new.py'), 'import unittest\nfrom calc import add\n\nclass New(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n');
    git(repo, 'add', '-A');
    const testPatch = git(repo, 'diff', '--cached');
    git(repo, 'reset', '-q', '--hard');
    writeFileSync(join(repo, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    const goldPatch = git(repo, 'diff');
    git(repo, 'checkout', '-q', '--', '.');

    const dir = tempDir('swe');
    dirs.push(dir);
    const row = { instance_id: 'local__calc-1', repo, base_commit: base, problem_statement: 'add() subtracts.', FAIL_TO_PASS: JSON.stringify(['tests.test_new.New.test_add']), PASS_TO_PASS: ['tests.test_old.Old.test_zero'], test_patch: testPatch, patch: goldPatch, test_cmd: 'python3 -m unittest' };
    writeFileSync(join(dir, 'rows.jsonl'), `${JSON.stringify(row)}\n`);
    const [task] = loadTasks(join(dir, 'rows.jsonl'));

    const before = await createWorkspace(task!, join(dir, 'ws', 'a'));
    expect(before.kind).toBe('worktree');
    // An agent that "fixed" the new test file to pass trivially: test_patch puts it back.
    mkdirSync(join(before.dir, 'tests'), { recursive: true });
    writeFileSync(join(before.dir, 'tests', 'test_new.py'), 'import unittest\nclass New(unittest.TestCase):\n    def test_add(self):\n        pass\n');
    const failing = await runCheck(task!, { workspace: before.dir, baseCommit: before.baseCommit, scratch: join(dir, 's'), timeoutMs: 60_000 });
    expect(failing.error).toBeUndefined();
    expect(failing.details).toEqual({ fail_to_pass: false, pass_to_pass: true });
    expect(failing.reward).toBe(0);
    await removeWorkspace(before);

    const after = await createWorkspace(task!, join(dir, 'ws', 'b'));
    await applySolution(task!, task!.solution!, after.dir, after.baseCommit);
    const passing = await runCheck(task!, { workspace: after.dir, baseCommit: after.baseCommit, scratch: join(dir, 's'), timeoutMs: 60_000 });
    expect(passing.details).toEqual({ fail_to_pass: true, pass_to_pass: true });
    expect(passing.reward).toBe(1);
    await removeWorkspace(after);
    // The clone keeps no worktree of ours.
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  }, 120_000);
});
