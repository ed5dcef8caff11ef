// swe.submit: SWE-agent's review on submit, on a real git repository through real bash. The first
// submit shows the diff (new files included) with the review request, the second prints the patch
// between the submission markers; the user's index is never touched.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SWE_AGENT_SUBMISSION_MARKER, sweAgentSubmission } from '../../../src/harness/text-actions/swe-agent.js';
import { removeDir, tempGitRepo } from '../../support/workspace.js';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

function inRepo(repo: string) {
  const ctx = fakeContext();
  ctx.cwd = repo;
  return ctx;
}

describe.each(['swe-agent', 'swe-agent-fc'])('%s submit', (harness) => {
  const submit = () => bound(harness).byName.get('submit');

  it('reviews first, then submits the patch; the index stays as it was', async () => {
    const repo = tempGitRepo({ 'app.py': 'x = 1\n' });
    try {
      writeFileSync(join(repo, 'app.py'), 'x = 2\n');
      writeFileSync(join(repo, 'new.py'), 'print(1)\n');
      const ctx = inRepo(repo);
      const review = await call(submit(), {}, ctx);
      expect(review.success).toBe(true);
      expect(review.text.startsWith('Before your changes are submitted, review them:\n')).toBe(true);
      expect(review.text).toContain('4. Run submit again to confirm.');
      expect(review.text).toContain('<diff>\ndiff --git a/app.py b/app.py\n');
      expect(review.text).toContain('-x = 1\n+x = 2\n');
      expect(review.text).toContain('diff --git a/new.py b/new.py\nnew file mode 100644\n');
      expect(review.text.endsWith('+print(1)\n</diff>')).toBe(true);
      expect(sweAgentSubmission(review.text)).toBeUndefined();

      const submitted = await call(submit(), {}, ctx);
      expect(submitted.text.startsWith(`${SWE_AGENT_SUBMISSION_MARKER}\ndiff --git a/app.py b/app.py\n`)).toBe(true);
      expect(submitted.text.endsWith(`+print(1)\n${SWE_AGENT_SUBMISSION_MARKER}`)).toBe(true);
      expect(sweAgentSubmission(submitted.text)).toMatch(/^diff --git a\/app\.py b\/app\.py\n[\s\S]*\+print\(1\)$/);
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' })).toBe(' M app.py\n?? new.py\n');
      expect(ctx.execCalls.map((request) => request.displayCommand)).toEqual(['submit', 'submit']);
    } finally {
      removeDir(repo);
    }
  });

  it('outside a git repository it says so instead of failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rig-nogit-'));
    try {
      const review = await call(submit(), {}, inRepo(dir));
      expect(review.text).toContain('<diff>\n(the working directory is not in a git repository, so there is no diff to show)\n</diff>');
    } finally {
      removeDir(dir);
    }
  });
});
