// What the REPL shows a person before they decide: the command as it would be typed, where, and
// whether it leaves the sandbox; for a change set, its diff.
import { expect, test } from 'vitest';
import { describeApproval } from '../../../src/frontends/repl/approval.js';

test('a command: quoted, its directory, and a rerun outside the sandbox said plainly', () => {
  expect(
    describeApproval({
      kind: 'exec', id: 'a', item_id: 'i', command: ['bash', '-lc', "rm -rf 'my dir'"], command_text: `bash -lc 'rm -rf '"'"'my dir'"'"''`,
      cwd: '/srv/app', sandboxed: false, retry_without_sandbox: true, reason: 'command failed; retry without sandbox?',
    }),
  ).toBe(`the agent wants to run \`bash -lc 'rm -rf '"'"'my dir'"'"''\` in /srv/app WITHOUT the sandbox, after the sandbox blocked it (command failed; retry without sandbox?)`);
});

test('a change set: the paths, then each file\'s diff', () => {
  const diff = '--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-old\n+new\n';
  expect(
    describeApproval({ kind: 'file_change', id: 'a', item_id: 'i', paths: ['/srv/app/a.txt'], changes: [{ path: '/srv/app/a.txt', kind: 'update', diff }], sandboxed: false }),
  ).toBe(`the agent wants to change /srv/app/a.txt\n${diff.trimEnd()}`);
});
