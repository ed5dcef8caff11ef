// Approvals in `rig resume` on a real terminal (a PTY) against the loopback mock (issue 17 item
// 10): a command shows shell-quoted with its directory; "no, and tell the agent what to do instead"
// sends the person's words to the model with the refusal; a file change shows its diff before it
// is made; a rerun outside the sandbox after a sandbox denial says so, and what was blocked, first.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { useSeededThread } from '../../support/seeded-thread.js';
import { RIG_BIN } from '../../support/workspace.js';
import { openTerminal, type Terminal } from './pty.js';

let mock: MockProvider;
let home: string;
let repo: string;
let threadId: string;

useSeededThread((seeded) => ({ mock, home, repo, threadId } = seeded));

/** The output the model was given for its tool call, in request `n` (1-based). */
function toolOutputIn(n: number): string {
  const input = mock.requests[n - 1]!.body.input as { type: string; output?: unknown }[];
  const output = input.filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output').at(-1);
  if (!output) throw new Error(`request ${n} carries no tool output`);
  return typeof output.output === 'string' ? output.output : JSON.stringify(output.output);
}

async function resume(args: string[]): Promise<Terminal> {
  const terminal = openTerminal(process.execPath, [RIG_BIN, 'resume', '--lines', threadId, ...args], { cwd: repo, home });
  await terminal.waitFor('› ');
  return terminal;
}

async function leave(terminal: Terminal): Promise<void> {
  terminal.term.write('\x04');
  expect((await terminal.exited).exitCode).toBe(0);
}

test('a command shows shell-quoted; "n" and a sentence decline it and the model gets the sentence', async () => {
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: "touch 'a b.txt'" } }] }, { text: 'I will name it a-b.txt then' });
  const terminal = await resume(['-s', 'workspace-write', '-a', 'untrusted']);
  const asked = mock.requests.length + 1;
  terminal.term.write('make a file with a space in its name\r');
  await terminal.waitFor('y/a/n/s? ');
  const question = terminal.screen();
  expect(question).toContain(`Run this command in ${repo}?`);
  // The argv as a line a person could paste: the script is one single-quoted word.
  expect(question).toMatch(/\$ \S+ -l?c 'touch '\\''a b\.txt'\\'''/);
  expect(question).toContain('[n] no, and tell the agent what to do instead');

  terminal.term.write('n\r');
  await terminal.waitFor('what should the agent do instead?');
  terminal.term.write('no spaces in file names: call it a-b.txt\r');
  await terminal.waitFor('I will name it a-b.txt then');
  expect(existsSync(join(repo, 'a b.txt'))).toBe(false);
  const told = toolOutputIn(asked + 1);
  expect(told).toContain('The user declined the command `');
  expect(told).toContain('and said what to do instead:\nno spaces in file names: call it a-b.txt');
  await leave(terminal);
}, 40_000);

test('a file change shows its diff before it is made', async () => {
  const patch = ['*** Begin Patch', '*** Update File: README.md', '@@', '-hello', '+hello world', '*** End Patch', ''].join('\n');
  mock.enqueue({ toolCalls: [{ name: 'apply_patch', kind: 'custom', input: patch }] }, { text: 'edited' });
  const terminal = await resume(['-s', 'workspace-write', '-a', 'untrusted']);
  terminal.term.write('fix the readme\r');
  await terminal.waitFor('y/a/n/s? ');
  const question = terminal.screen();
  expect(question).toContain('Make this change?');
  expect(question).toMatch(/M README\.md\r?\n {2}@@ -1,?1? \+1,?1? @@\r?\n {2}-hello\r?\n {2}\+hello world/);
  // Nothing is written before the answer.
  expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello\n');
  terminal.term.write('y\r');
  await terminal.waitFor('edited');
  expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello world\n');
  await leave(terminal);
}, 40_000);

test('a rerun outside the sandbox after a sandbox denial says so, and what the sandbox blocked, before it runs', async () => {
  // Under this policy a write runs in the sandbox without asking; read-only blocks it, and
  // sandbox_approval asks before running it again outside.
  const granular = 'approval_policy={granular = {sandbox_approval = true, rules = true, skill_approval = true, request_permissions = true, mcp_elicitations = true}}';
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch outside.txt' } }] }, { text: 'staying in the sandbox' });
  const terminal = await resume(['-s', 'read-only', '-c', granular]);
  const asked = mock.requests.length + 1;
  terminal.term.write('make a file\r');
  await terminal.waitFor('y/a/n/s? ');
  const question = terminal.screen();
  expect(question).toMatch(/The command failed inside the sandbox: touch: cannot touch '?outside\.txt'?: Read-only file system/);
  expect(question).toContain(`Run it again WITHOUT the sandbox (it can then change anything you can) in ${repo}?`);
  terminal.term.write('n\r');
  await terminal.waitFor('what should the agent do instead?');
  terminal.term.write('stay inside; ask me for --full-auto\r');
  await terminal.waitFor('staying in the sandbox');
  expect(existsSync(join(repo, 'outside.txt'))).toBe(false);
  const told = toolOutputIn(asked + 1);
  expect(told).toMatch(/Read-only file system/);
  expect(told).toContain('again without the sandbox and said what to do instead:\nstay inside; ask me for --full-auto');
  await leave(terminal);
}, 40_000);
