// The pieces an approval prompt is built from: shell quoting a person can paste, diffs, the
// question for an unsandboxed run or retry, and the choices. What the model is told after a "no"
// with feedback is the engine's: test/core/approval-feedback.test.ts.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  describeApproval,
  parseApprovalChoice,
  renderDiff,
  shellQuote,
} from '../../src/frontends/approval-format.js';

describe('shellQuote', () => {
  test('plain words stay plain; anything else is single-quoted', () => {
    expect(shellQuote(['git', 'commit', '-m', "fix: don't crash", ''])).toBe(`git commit -m 'fix: don'\\''t crash' ''`);
    expect(shellQuote(['rm', '-rf', 'build/', '$HOME', 'a b', '*.js'])).toBe(`rm -rf build/ '$HOME' 'a b' '*.js'`);
  });

  test('sh reads the quoted line back as exactly the argv', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\0')), { minLength: 1, maxLength: 5 }), (argv) => {
        const out = execFileSync('sh', ['-c', `printf '%s\\0' ${shellQuote(argv)}`], { encoding: 'utf8' });
        expect(out.split('\0').slice(0, -1)).toEqual(argv);
      }),
      { numRuns: 40 },
    );
  });
});

describe('describeApproval', () => {
  test('a command shows as one pasteable line with its directory and reason', () => {
    expect(describeApproval({ kind: 'exec', command: ['git', 'push', 'origin', 'my branch'], cwd: '/srv/app', reason: 'talks to the remote' }, { color: false })).toBe(
      ["Run this command in /srv/app?", "  $ git push origin 'my branch'", 'reason: talks to the remote'].join('\n'),
    );
  });

  test("a sub-agent's request names the agent first", () => {
    expect(describeApproval({ kind: 'exec', command: ['touch', 'x'], cwd: '/srv/app', agentPath: '/root/implement_fix' }, { color: false })).toBe(
      ['Sub-agent /root/implement_fix asks:', 'Run this command in /srv/app?', '  $ touch x'].join('\n'),
    );
  });

  test('an unsandboxed retry says so before it runs', () => {
    const text = describeApproval({ kind: 'exec', command: ['npm', 'install'], cwd: '/srv/app', unsandboxedRetry: { denial: 'EACCES: permission denied, mkdir /home/u/.npm' } }, { color: false });
    expect(text).toBe(
      [
        'The command failed inside the sandbox: EACCES: permission denied, mkdir /home/u/.npm',
        'Run it again WITHOUT the sandbox (it can then change anything you can) in /srv/app?',
        '  $ npm install',
      ].join('\n'),
    );
  });

  test('a command that would run outside the sandbox says so', () => {
    expect(describeApproval({ kind: 'exec', command: ['make', 'install'], cwd: '/srv/app', sandboxed: false }, { color: false })).toBe(
      ['Run this command WITHOUT the sandbox (it can change anything you can) in /srv/app?', '  $ make install'].join('\n'),
    );
  });

  test('a file change shows each file with its diff, bounded', () => {
    const diff = ['@@ -1,2 +1,2 @@', ' keep', '-old', '+new', ...Array.from({ length: 50 }, (_, i) => `+line ${i}`)].join('\n');
    const text = describeApproval({ kind: 'file_change', changes: [{ path: 'src/a.ts', kind: 'update', diff }, { path: 'b.md', kind: 'add' }] }, { color: false, maxDiffLines: 5 });
    expect(text).toBe(['Make these 2 changes?', 'M src/a.ts', '  @@ -1,2 +1,2 @@', '   keep', '  -old', '  +new', '  +line 0', '  … 49 more diff lines', 'A b.md'].join('\n'));
  });

  test('colour marks additions green and removals red', () => {
    expect(renderDiff('-a\n+b\n c', { color: true })).toEqual(['  \x1b[31m-a\x1b[39m', '  \x1b[32m+b\x1b[39m', '   c']);
  });
});

describe('answers', () => {
  test('n is "no, and tell the agent what to do instead"', () => {
    expect(['y', 'A', ' n ', 'stop', 'maybe'].map(parseApprovalChoice)).toEqual(['approve', 'approve_for_session', 'deny_with_feedback', 'abort', undefined]);
  });
});
