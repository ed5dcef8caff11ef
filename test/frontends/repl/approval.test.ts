// What the REPL shows a person before they decide — the command as it would be typed, where, and
// whether it leaves the sandbox; for a change set, its diff — and how the answer becomes the
// engine's decision, with "no, and tell the agent what to do instead" carrying the person's words.
import { expect, test } from 'vitest';
import type { ApprovalRequest } from '../../../src/protocol/index.js';
import { approvalView, askApproval } from '../../../src/frontends/repl/approval.js';
import { describeApproval } from '../../../src/frontends/approval-format.js';

const show = (request: Exclude<ApprovalRequest, { kind: 'user_input' }>, cwd = '/srv/app') => describeApproval(approvalView(request, cwd), { color: false });

test('a command: quoted, its directory, and a rerun outside the sandbox said plainly with what the sandbox blocked', () => {
  expect(
    show({
      kind: 'exec', id: 'a', item_id: 'i', command: ['bash', '-lc', "rm -rf 'my dir'"], command_text: `bash -lc 'rm -rf '"'"'my dir'"'"''`,
      cwd: '/srv/app', sandboxed: false, retry_without_sandbox: true, reason: 'command failed; retry without sandbox?',
      sandbox_denial: "rm: cannot remove 'my dir': Read-only file system",
    }),
  ).toBe(
    [
      "The command failed inside the sandbox: rm: cannot remove 'my dir': Read-only file system",
      'Run it again WITHOUT the sandbox (it can then change anything you can) in /srv/app?',
      `  $ bash -lc 'rm -rf '\\''my dir'\\'''`,
    ].join('\n'),
  );
});

test('a first run: in the sandbox by default, and said when it would run outside it', () => {
  const request: ApprovalRequest = {
    kind: 'exec', id: 'a', item_id: 'i', command: ['git', 'push', 'origin', 'my branch'], command_text: "git push origin 'my branch'",
    cwd: '/srv/app', sandboxed: true, retry_without_sandbox: false, reason: 'talks to the remote',
  };
  expect(show(request)).toBe(["Run this command in /srv/app?", "  $ git push origin 'my branch'", 'reason: talks to the remote'].join('\n'));
  expect(show({ ...request, sandboxed: false })).toMatch(/^Run this command WITHOUT the sandbox \(it can change anything you can\) in \/srv\/app\?\n/);
});

test("a change set: each file (relative to the thread's directory), then its diff", () => {
  const diff = '@@ -1 +1 @@\n-old\n+new';
  expect(
    show({
      kind: 'file_change', id: 'a', item_id: 'i', paths: ['/srv/app/a.txt', '/srv/app/b.txt', '/srv/app/c.txt'],
      changes: [{ path: '/srv/app/a.txt', kind: 'update', diff }, { path: '/srv/app/b.txt', kind: 'update', move_to: '/srv/app/c.txt', diff: '' }],
      sandboxed: true,
    }),
  ).toBe(['Make these 2 changes?', 'M a.txt', '  @@ -1 +1 @@', '  -old', '  +new', 'M b.txt → c.txt'].join('\n'));
});

function scripted(lines: (string | undefined)[]) {
  const written: string[] = [];
  const prompts: string[] = [];
  return {
    written,
    prompts,
    io: {
      write: (text: string) => void written.push(text),
      readLine: async (prompt: string) => {
        prompts.push(prompt);
        return lines.shift();
      },
      cwd: '/srv/app',
      color: false,
    },
  };
}

const COMMAND: ApprovalRequest = {
  kind: 'exec', id: 'a', item_id: 'i', command: ['touch', 'x'], command_text: 'touch x', cwd: '/srv/app', sandboxed: true, retry_without_sandbox: false,
};

test('answers: y, a and s as they are; n asks what to do instead; nonsense asks again; end of input stops', async () => {
  expect(await askApproval(COMMAND, scripted(['y']).io)).toEqual({ decision: 'approve' });
  expect(await askApproval(COMMAND, scripted(['a']).io)).toEqual({ decision: 'approve_for_session' });
  expect(await askApproval(COMMAND, scripted(['s']).io)).toEqual({ decision: 'abort' });
  expect(await askApproval(COMMAND, scripted([undefined]).io)).toEqual({ decision: 'abort' });

  const withWords = scripted(['maybe', 'n', '  make the directory first  ']);
  expect(await askApproval(COMMAND, withWords.io)).toEqual({ decision: 'deny', feedback: 'make the directory first' });
  expect(withWords.written.join('')).toContain('please answer y, a, n or s');
  expect(withWords.written[0]).toContain('[n] no, and tell the agent what to do instead');
  expect(withWords.prompts.at(-1)).toMatch(/^what should the agent do instead\?/);

  expect(await askApproval(COMMAND, scripted(['n', '']).io)).toEqual({ decision: 'deny' });
  expect(await askApproval(COMMAND, scripted(['n', undefined]).io)).toEqual({ decision: 'deny' });
});
