// Every shipped example task is a real task: its check fails on the repository as given and passes
// once the task's reference solution is applied. Checks run in the check sandbox, as in a trial.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applySolution, runCheck } from '../../src/eval/check/run-check.js';
import { loadTasks } from '../../src/eval/tasks/load.js';
import { createWorkspace, removeWorkspace } from '../../src/eval/workspace.js';
import { REPO_ROOT, removeDir, tempDir } from '../support/workspace.js';

const tasks = loadTasks(join(REPO_ROOT, 'examples', 'eval'));
const root = tempDir('eval-examples');
afterAll(() => removeDir(root));

describe('examples/eval', () => {
  it('ships at least 12 tasks in JavaScript and Python, each with a reference solution', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(12);
    expect(tasks.filter((task) => task.tags?.includes('javascript')).length).toBeGreaterThanOrEqual(4);
    expect(tasks.filter((task) => task.tags?.includes('python')).length).toBeGreaterThanOrEqual(4);
    expect(new Set(tasks.map((task) => task.format))).toEqual(new Set(['rig', 'harbor']));
    for (const task of tasks) expect(task.solution, task.id).toBeDefined();
  });

  for (const task of tasks) {
    it(`${task.id}: the check fails before the fix and passes after it`, async () => {
      const before = await createWorkspace(task, join(root, task.id, 'before'));
      const failing = await runCheck(task, { workspace: before.dir, baseCommit: before.baseCommit, scratch: join(root, task.id, 's1'), timeoutMs: 60_000 });
      expect(failing.pass, failing.output).toBe(false);
      expect(failing.reward).toBe(0);
      expect(failing.timedOut).toBe(false);
      // A failing test run, not a check that cannot start (127) or crashes differently.
      if (task.check.kind === 'command') expect(failing.exitCode, failing.output).toBe(1);
      else expect(failing.error).toBeUndefined();
      await removeWorkspace(before);

      const after = await createWorkspace(task, join(root, task.id, 'after'));
      await applySolution(task, task.solution!, after.dir, after.baseCommit);
      const passing = await runCheck(task, { workspace: after.dir, baseCommit: after.baseCommit, scratch: join(root, task.id, 's2'), timeoutMs: 60_000 });
      expect(passing.error).toBeUndefined();
      expect(passing.pass, passing.output).toBe(true);
      expect(passing.reward).toBe(1);
      await removeWorkspace(after);
    });
  }
});
