// Claude Code's EnterWorktree / ExitWorktree through the real CLI, in temp git repositories:
// entering creates .rig/worktrees/<name> on branch worktree-<name> and moves the session there
// (sandboxed commands run there, edits land there and not in the main checkout, which is no
// longer writable); exit keeps or removes it, removal refuses over uncommitted files or new
// commits unless told to discard them; outside git and nested enters are errors; a resumed
// thread lands in its worktree, or says the worktree is gone. Commands only print, or write
// files inside the workspace-write sandbox.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest, type MockTurn, type MockTurnFn } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

beforeEach(() => {
  expect(mock.remaining()).toBe(0);
});

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

/** The tool_result answering `id` in a Messages request body. */
function resultFor(request: MockRequest | undefined, id: string): { text: string; isError: boolean } {
  const body = request?.body as { messages: { content: unknown }[] } | undefined;
  const blocks: Block[] = (body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));
  const block = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === id);
  if (!block) throw new Error(`no tool_result for ${id}`);
  const content = block.content;
  const text = typeof content === 'string' ? content : (content as { text?: string }[]).map((p) => p.text ?? '').join('');
  return { text, isError: block.is_error === true };
}

/** The result of call `id` in whichever request first carries it. */
function result(requests: MockRequest[], id: string): { text: string; isError: boolean } {
  const request = requests.find((r) => JSON.stringify(r.body).includes(`"tool_use_id":"${id}"`));
  return resultFor(request, id);
}

const LOAD: MockTurn = { toolCalls: [{ id: 'toolu_load', name: 'ToolSearch', arguments: { query: 'select:EnterWorktree,ExitWorktree' } }] };

function call(id: string, name: string, args: Record<string, unknown>): MockTurn {
  return { toolCalls: [{ id, name, arguments: args }] };
}

function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
}

interface Session {
  repo: string;
  home: string;
}

// The temp repositories live under /tmp, which workspace-write leaves writable by default: without
// it, the main checkout is writable only because it is the workspace, which is what is tested.
const NO_TEMP_ROOTS = '\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n';

function session(files: Record<string, string> = { 'README.md': 'hello\n' }): Session {
  const repo = realpathSync(tempGitRepo(files));
  const home = tempRigHome({ url: mock.url, wire: 'messages', extra: NO_TEMP_ROOTS });
  dirs.push(repo, home);
  return { repo, home };
}

/** One `rig exec` turn over the scripted steps; the requests it sent and its JSON events. */
async function turn(s: Session, steps: (MockTurn | MockTurnFn)[], extra: string[] = [], prompt = 'work in a worktree') {
  const before = mock.requests.length;
  mock.enqueue(...steps);
  const run = await runRig(['exec', '--json', '--harness', 'claude-code', '-s', 'workspace-write', ...extra, prompt], { cwd: s.repo, home: s.home });
  expect(run.code, run.stderr).toBe(0);
  expect(mock.remaining()).toBe(0);
  return { requests: mock.requests.slice(before), events: jsonLines(run.stdout), stderr: run.stderr };
}

describe('EnterWorktree / ExitWorktree (claude-code, rig exec)', () => {
  test('enter: commands and edits happen in the worktree, the main checkout is untouched and not writable; exit keep leaves it on disk', async () => {
    const s = session();
    const wt = join(s.repo, '.rig', 'worktrees', 'feature');
    const { requests } = await turn(s, [
      LOAD,
      call('toolu_enter', 'EnterWorktree', { name: 'feature' }),
      call('toolu_where', 'Bash', { command: 'pwd; git branch --show-current; echo from-shell > shell.txt' }),
      call('toolu_read', 'Read', { file_path: 'README.md' }),
      call('toolu_edit', 'Edit', { file_path: 'README.md', old_string: 'hello', new_string: 'hello from the worktree' }),
      call('toolu_outside', 'Write', { file_path: join(s.repo, 'outside.txt'), content: 'should not be written\n' }),
      call('toolu_shell_outside', 'Bash', { command: `echo nope > ${join(s.repo, 'outside-shell.txt')}` }),
      call('toolu_exit', 'ExitWorktree', { action: 'keep' }),
      call('toolu_back', 'Bash', { command: 'pwd' }),
      { text: 'done' },
    ]);
    const entered = result(requests, 'toolu_enter');
    expect(entered.isError).toBe(false);
    expect(entered.text).toContain(`Created worktree at ${wt} on branch worktree-feature`);
    expect(result(requests, 'toolu_where').text).toContain(`${wt}\nworktree-feature`);
    expect(result(requests, 'toolu_edit').isError).toBe(false);
    // The main checkout is no longer the workspace: a write there is refused, by the file tools and the sandbox.
    expect(result(requests, 'toolu_outside')).toMatchObject({ isError: true, text: expect.stringContaining(`is outside the writable roots. Writable: ${wt}`) });
    expect(result(requests, 'toolu_shell_outside')).toMatchObject({ isError: true, text: expect.stringContaining('Read-only file system') });
    expect(existsSync(join(s.repo, 'outside.txt'))).toBe(false);
    expect(existsSync(join(s.repo, 'outside-shell.txt'))).toBe(false);
    const exited = result(requests, 'toolu_exit');
    expect(exited).toEqual({ isError: false, text: `Left the worktree; it stays at ${wt} on branch worktree-feature. The session works in ${s.repo} again.` });
    expect(result(requests, 'toolu_back').text).toContain(s.repo);
    expect(result(requests, 'toolu_back').text).not.toContain(wt);

    expect(readFileSync(join(wt, 'README.md'), 'utf8')).toBe('hello from the worktree\n');
    expect(readFileSync(join(wt, 'shell.txt'), 'utf8')).toBe('from-shell\n');
    expect(readFileSync(join(s.repo, 'README.md'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(s.repo, 'shell.txt'))).toBe(false);
    expect(gitIn(s.repo, 'branch', '--list', 'worktree-feature').trim()).toContain('worktree-feature');
    // .rig/worktrees is kept out of the main checkout's status (through .git/info/exclude).
    expect(gitIn(s.repo, 'status', '--porcelain')).toBe('');
    expect(gitIn(wt, 'status', '--porcelain')).toBe(' M README.md\n?? shell.txt\n');
  });

  test('exit remove refuses over uncommitted files and new commits, naming them; discard_changes removes worktree and branch', async () => {
    const s = session();
    const wt = join(s.repo, '.rig', 'worktrees', 'scratch');
    const { requests } = await turn(s, [
      LOAD,
      call('toolu_enter', 'EnterWorktree', { name: 'scratch' }),
      call('toolu_dirty', 'Bash', { command: 'echo draft > draft.txt' }),
      call('toolu_refused', 'ExitWorktree', { action: 'remove' }),
      // The user commits in the worktree in the meantime (outside the sandbox, as the person would).
      () => {
        gitIn(wt, 'add', 'draft.txt');
        gitIn(wt, 'commit', '-q', '-m', 'draft');
        return call('toolu_refused_commit', 'ExitWorktree', { action: 'remove' });
      },
      call('toolu_removed', 'ExitWorktree', { action: 'remove', discard_changes: true }),
      { text: 'done' },
    ]);
    const refused = result(requests, 'toolu_refused');
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`The worktree at ${wt} has 1 uncommitted file.`);
    expect(refused.text).toContain('?? draft.txt');
    expect(refused.text).toContain('discard_changes: true');
    const refusedCommit = result(requests, 'toolu_refused_commit');
    expect(refusedCommit.isError).toBe(true);
    expect(refusedCommit.text).toMatch(/has 1 commit not in [0-9a-f]{12} \(where it started\)/);
    // The refusals kept everything: the thread stayed in the worktree until the discard.
    const removed = result(requests, 'toolu_removed');
    expect(removed).toEqual({ isError: false, text: `Removed the worktree at ${wt} and its branch worktree-scratch. Discarded 0 uncommitted files and 1 commit. The session works in ${s.repo} again.` });
    expect(existsSync(wt)).toBe(false);
    expect(gitIn(s.repo, 'branch', '--list', 'worktree-scratch')).toBe('');
    expect(gitIn(s.repo, 'worktree', 'list', '--porcelain')).not.toContain('scratch');
  });

  test('exit remove of a clean worktree removes it without asking', async () => {
    const s = session();
    const wt = join(s.repo, '.rig', 'worktrees', 'tidy');
    const { requests } = await turn(s, [
      LOAD,
      call('toolu_enter', 'EnterWorktree', { name: 'tidy' }),
      call('toolu_removed', 'ExitWorktree', { action: 'remove' }),
      call('toolu_again', 'ExitWorktree', { action: 'keep' }),
      { text: 'done' },
    ]);
    expect(result(requests, 'toolu_removed')).toEqual({ isError: false, text: `Removed the worktree at ${wt} and its branch worktree-tidy. The session works in ${s.repo} again.` });
    expect(existsSync(wt)).toBe(false);
    expect(result(requests, 'toolu_again')).toMatchObject({ isError: true, text: expect.stringContaining('No worktree session is active') });
  });

  test('nested enter and bad names are errors; outside a git repository EnterWorktree says so', async () => {
    const s = session();
    const { requests } = await turn(s, [
      LOAD,
      call('toolu_bad', 'EnterWorktree', { name: '../escape' }),
      call('toolu_both', 'EnterWorktree', { name: 'a', path: '.rig/worktrees/a' }),
      call('toolu_first', 'EnterWorktree', { name: 'first' }),
      call('toolu_nested', 'EnterWorktree', { name: 'second' }),
      { text: 'done' },
    ]);
    expect(result(requests, 'toolu_bad')).toMatchObject({ isError: true, text: expect.stringContaining('Invalid worktree name "../escape"') });
    expect(result(requests, 'toolu_both')).toMatchObject({ isError: true, text: expect.stringContaining('either name or path') });
    expect(result(requests, 'toolu_first').isError).toBe(false);
    const nested = result(requests, 'toolu_nested');
    expect(nested.isError).toBe(true);
    expect(nested.text).toContain(`Already in a worktree session (${join(s.repo, '.rig', 'worktrees', 'first')})`);
    expect(existsSync(join(s.repo, '.rig', 'worktrees', 'second'))).toBe(false);

    const plain = realpathSync(tempDir('plain'));
    mkdirSync(join(plain, 'sub'));
    dirs.push(plain);
    const before = mock.requests.length;
    mock.enqueue(LOAD, call('toolu_nogit', 'EnterWorktree', { name: 'x' }), { text: 'ok' });
    const run = await runRig(['exec', '--json', '--skip-git-repo-check', '--harness', 'claude-code', '-s', 'workspace-write', 'try'], { cwd: plain, home: s.home });
    expect(run.code, run.stderr).toBe(0);
    const nogit = result(mock.requests.slice(before), 'toolu_nogit');
    expect(nogit.isError).toBe(true);
    expect(nogit.text).toContain(`${plain} is not inside a git repository`);
    expect(existsSync(join(plain, '.rig'))).toBe(false);
  });

  test('in the read-only sandbox no worktree is created', async () => {
    const s = session();
    const { requests } = await turn(s, [LOAD, call('toolu_ro', 'EnterWorktree', { name: 'ro' }), { text: 'ok' }], ['-s', 'read-only']);
    expect(result(requests, 'toolu_ro')).toMatchObject({ isError: true, text: expect.stringContaining('read-only sandbox') });
    expect(existsSync(join(s.repo, '.rig'))).toBe(false);
    expect(gitIn(s.repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  test('resume lands in the worktree the thread was in; exit then returns to the original checkout', async () => {
    const s = session();
    const wt = join(s.repo, '.rig', 'worktrees', 'kept');
    const first = await turn(s, [LOAD, call('toolu_enter', 'EnterWorktree', { name: 'kept' }), { text: 'in the worktree' }]);
    const threadId = first.events[0]!['thread_id'] as string;
    const second = await resume(s, threadId, [
      call('toolu_where', 'Bash', { command: 'pwd' }),
      LOAD,
      call('toolu_exit', 'ExitWorktree', { action: 'keep' }),
      call('toolu_back', 'Bash', { command: 'pwd' }),
      { text: 'back' },
    ]);
    expect(second.stderr).not.toContain('is gone');
    expect(result(second.requests, 'toolu_where').text.trim()).toBe(wt);
    expect(result(second.requests, 'toolu_exit').text).toContain(`The session works in ${s.repo} again.`);
    expect(result(second.requests, 'toolu_back').text.trim()).toBe(s.repo);
    // Left, and recorded as left: the next resume starts in the main checkout.
    const third = await resume(s, threadId, [call('toolu_now', 'Bash', { command: 'pwd' }), { text: 'ok' }]);
    expect(result(third.requests, 'toolu_now').text.trim()).toBe(s.repo);
    expect(existsSync(wt)).toBe(true);
  });

  test('resume after the worktree was removed outside rig says so and continues in the original checkout', async () => {
    const s = session();
    const wt = join(s.repo, '.rig', 'worktrees', 'doomed');
    const first = await turn(s, [LOAD, call('toolu_enter', 'EnterWorktree', { name: 'doomed' }), { text: 'in it' }]);
    const threadId = first.events[0]!['thread_id'] as string;
    gitIn(s.repo, 'worktree', 'remove', '--force', wt);
    const second = await resume(s, threadId, [call('toolu_where', 'Bash', { command: 'pwd' }), LOAD, call('toolu_exit', 'ExitWorktree', { action: 'keep' }), { text: 'ok' }]);
    const warnings = second.events.filter((e) => e['type'] === 'item.completed' && (e['item'] as { type: string }).type === 'error').map((e) => (e['item'] as { message: string }).message);
    expect(warnings.join('\n')).toContain(`the worktree this thread was working in (${wt}) is gone: it was removed outside rig, so the thread continues in ${s.repo}`);
    expect(result(second.requests, 'toolu_where').text.trim()).toBe(s.repo);
    expect(result(second.requests, 'toolu_exit')).toMatchObject({ isError: true, text: expect.stringContaining('No worktree session is active') });
  });
});

async function resume(s: Session, threadId: string, steps: MockTurn[]) {
  const before = mock.requests.length;
  mock.enqueue(...steps);
  const run = await runRig(['exec', '--json', 'resume', threadId, '-s', 'workspace-write', 'continue'], { cwd: s.repo, home: s.home });
  expect(run.code, run.stderr).toBe(0);
  expect(mock.remaining()).toBe(0);
  return { requests: mock.requests.slice(before), events: jsonLines(run.stdout), stderr: run.stderr };
}
