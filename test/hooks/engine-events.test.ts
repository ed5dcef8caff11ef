// Hooks fired by the engine, through the real `rig exec`: a recording hook program (its stdin
// logged, its answers scripted) for every event, a Claude Code hooks.json taken unchanged from its
// documentation, a blocking PreToolUse on an edit in three harnesses, and updatedInput.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { jsonLines, REPO_ROOT, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { startRig, toolResult, waitUntil } from '../frontends/exec/helpers.js';
import { HookRecorder } from './recorder.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
  for (const d of dirs) removeDir(d);
});

function setup(files: Record<string, string> = {}): { repo: string; home: string; rec: HookRecorder } {
  const repo = tempGitRepo(files);
  const home = tempRigHome({ url: mock.url });
  const rec = new HookRecorder(tempDir('hooks'));
  dirs.push(repo, home, rec.dir);
  return { repo, home, rec };
}

/** Everything the model was sent in one request, as text. */
const sent = (index: number) => JSON.stringify(mock.requests[index]!.body);

describe('hook events through rig exec', () => {
  test('SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, Stop and SessionEnd, with their stdin and answers', async () => {
    const { repo, home, rec } = setup({ 'README.md': 'hi\n' });
    writeFileSync(
      join(home, 'hooks.json'),
      rec.hooksJson([
        { event: 'SessionStart', matcher: 'startup' },
        { event: 'UserPromptSubmit' },
        { event: 'PreToolUse', matcher: 'Bash' },
        { event: 'PermissionRequest', matcher: 'Bash' },
        { event: 'PostToolUse', matcher: 'Bash' },
        { event: 'Stop' },
        { event: 'SessionEnd' },
      ]),
    );
    rec.answer('SessionStart', { stdout: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'the build is make' } } });
    rec.answer('UserPromptSubmit', { stdout: 'today is a holiday' });
    rec.answer('PermissionRequest', { stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } } });
    rec.answer('PostToolUse', { stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'post-note: file made' } } });
    rec.answer('Stop', { stdout: { decision: 'block', reason: 'run the tests before you stop' } }, { once: true });
    const before = mock.requests.length;
    mock.enqueue(
      { toolCalls: [{ id: 'call_touch', name: 'exec_command', arguments: { cmd: 'touch made.txt' } }] },
      { text: 'done' },
      { text: 'tests pass, done' },
    );

    // untrusted asks before `touch`: the PermissionRequest hook answers instead of a person.
    const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', '-a', 'untrusted', 'make the file'], { cwd: repo, home });

    expect(run.code).toBe(0);
    const threadId = jsonLines(run.stdout)[0]!['thread_id'] as string;
    expect(existsSync(join(repo, 'made.txt'))).toBe(true);
    expect(rec.runs().map((r) => r.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      'Stop',
      'Stop',
      'SessionEnd',
    ]);
    const [start] = rec.of('SessionStart');
    expect(start).toMatchObject({
      session_id: threadId,
      hook_event_name: 'SessionStart',
      cwd: repo,
      model: 'mock-model',
      permission_mode: 'default',
      source: 'startup',
      transcript_path: expect.stringMatching(new RegExp(`${threadId}\\.jsonl$`)),
    });
    expect(start).not.toHaveProperty('turn_id');
    expect(rec.of('UserPromptSubmit')[0]).toMatchObject({ prompt: 'make the file', turn_id: 'turn_0', session_id: threadId });
    expect(rec.of('PreToolUse')[0]).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'touch made.txt' }, tool_use_id: 'call_touch', turn_id: 'turn_0' });
    expect(rec.of('PreToolUse')[0]).not.toHaveProperty('matcher_aliases');
    expect(rec.of('PermissionRequest')[0]).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'touch made.txt' } });
    expect(rec.of('PostToolUse')[0]).toMatchObject({ tool_name: 'Bash', tool_use_id: 'call_touch', tool_response: expect.stringContaining('exited with code 0') });
    expect(rec.of('Stop').map((s) => [s['stop_hook_active'], s['last_assistant_message']])).toEqual([
      [false, 'done'],
      [true, 'tests pass, done'],
    ]);
    expect(rec.of('SessionEnd')[0]).toMatchObject({ reason: 'exit', session_id: threadId });

    // What the hooks said reached the model where each belongs.
    expect(mock.requests.length - before).toBe(3);
    expect(sent(before)).toContain('the build is make');
    expect(sent(before)).toContain('today is a holiday');
    expect(toolResult('responses', mock.requests[before + 1]!.body).text).toContain('post-note: file made');
    expect(sent(before + 2)).toContain('run the tests before you stop');
  });

  test('exit 2 from UserPromptSubmit keeps the prompt from the model, with the reason for the user', async () => {
    const { repo, home, rec } = setup();
    writeFileSync(join(home, 'hooks.json'), rec.hooksJson([{ event: 'UserPromptSubmit' }]));
    rec.answer('UserPromptSubmit', { stderr: 'no secrets in prompts', exit: 2 });
    const before = mock.requests.length;

    const run = await runRig(['exec', '--json', 'my password is hunter2'], { cwd: repo, home });

    expect(run.code).not.toBe(0);
    expect(mock.requests.length).toBe(before);
    const failed = jsonLines(run.stdout).find((e) => e.type === 'turn.failed');
    expect(failed).toEqual({ type: 'turn.failed', error: { message: 'a UserPromptSubmit hook blocked the prompt: no secrets in prompts' } });
  });

  test('PreCompact, PostCompact and SessionStart (resume, compact) around /compact of a resumed thread', async () => {
    const { repo, home, rec } = setup();
    writeFileSync(join(home, 'hooks.json'), rec.hooksJson([{ event: 'SessionStart' }, { event: 'PreCompact', matcher: 'manual' }, { event: 'PostCompact' }]));
    mock.enqueue({ text: 'first answer' });
    const first = await runRig(['exec', '--json', 'remember the plan'], { cwd: repo, home });
    const threadId = jsonLines(first.stdout)[0]!['thread_id'] as string;
    mock.enqueue({ text: 'SUMMARY: remember the plan.' });

    const run = await runRig(['exec', '--json', 'resume', threadId, '/compact'], { cwd: repo, home });

    expect(run.code).toBe(0);
    expect(rec.runs().map((r) => [r.event, r.input['source'] ?? r.input['trigger']])).toEqual([
      ['SessionStart', 'startup'],
      ['SessionStart', 'resume'],
      ['PreCompact', 'manual'],
      ['PostCompact', 'manual'],
      ['SessionStart', 'compact'],
    ]);
  });

  test('a PreCompact hook with continue:false skips the compaction', async () => {
    const { repo, home, rec } = setup();
    writeFileSync(join(home, 'hooks.json'), rec.hooksJson([{ event: 'PreCompact' }]));
    rec.answer('PreCompact', { stdout: { continue: false, stopReason: 'keep the full history' } });
    mock.enqueue({ text: 'first answer' });
    const first = await runRig(['exec', '--json', 'remember'], { cwd: repo, home });
    const threadId = jsonLines(first.stdout)[0]!['thread_id'] as string;
    const before = mock.requests.length;

    const run = await runRig(['exec', '--json', 'resume', threadId, '/compact'], { cwd: repo, home });

    expect(mock.requests.length).toBe(before);
    expect(jsonLines(run.stdout).find((e) => e.type === 'turn.failed')).toEqual({
      type: 'turn.failed',
      error: { message: 'a PreCompact hook skipped compaction: keep the full history' },
    });
  });

  test('Interrupt: Ctrl-C during a command fires the Interrupt hooks before rig exits', async () => {
    const { repo, home, rec } = setup();
    writeFileSync(join(home, 'hooks.json'), rec.hooksJson([{ event: 'Interrupt' }, { event: 'SessionEnd' }]));
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'sleep 30' } }] });
    const rig = startRig(['exec', '--json', '--harness', 'native', 'wait a while'], { cwd: repo, home });
    await rig.waitForStdout('"command_execution"');

    rig.child.kill('SIGINT');
    await rig.exited;

    expect(rec.runs().map((r) => r.event)).toEqual(['Interrupt', 'SessionEnd']);
    expect(rec.of('Interrupt')[0]).toMatchObject({ hook_event_name: 'Interrupt', turn_id: 'turn_0' });
  });

  test('updatedInput from PreToolUse rewrites the command before policy and sandbox see it', async () => {
    const { repo, home, rec } = setup();
    writeFileSync(join(home, 'hooks.json'), rec.hooksJson([{ event: 'PreToolUse', matcher: 'Bash' }]));
    rec.answer('PreToolUse', {
      stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten > out.txt' } } },
    });
    const before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo original > out.txt' } }] }, { text: 'ok' });

    const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', 'write it'], { cwd: repo, home });

    expect(run.code).toBe(0);
    expect(readFileSync(join(repo, 'out.txt'), 'utf8')).toBe('rewritten\n');
    const command = jsonLines(run.stdout).find((e) => e.type === 'item.completed' && (e['item'] as { type: string }).type === 'command_execution');
    expect(command).toMatchObject({ item: { command: 'echo rewritten > out.txt', exit_code: 0 } });
    expect(mock.requests.length - before).toBe(2);
  });
});

describe('a blocking PreToolUse on an edit', () => {
  const harnesses = [
    { harness: 'claude-code', tool: 'Edit', args: (path: string) => ({ file_path: path, old_string: 'one', new_string: 'two' }), wire: 'messages' as const },
    { harness: 'opencode', tool: 'edit', args: (path: string) => ({ filePath: path, oldString: 'one', newString: 'two' }), wire: 'chat' as const },
    { harness: 'qwen-code', tool: 'edit', args: (path: string) => ({ file_path: path, old_string: 'one', new_string: 'two' }), wire: 'chat' as const },
  ];
  test.each(harnesses)('$harness $tool is stopped by an Edit|Write matcher; the model reads the reason', async ({ harness, tool, args, wire }) => {
    const repo = tempGitRepo({ 'keep.txt': 'one\n' });
    const home = tempRigHome({ url: mock.url, wire });
    const rec = new HookRecorder(tempDir('hooks'));
    dirs.push(repo, home, rec.dir);
    writeFileSync(join(home, 'hooks.json'), rec.hooksJson([{ event: 'PreToolUse', matcher: 'Edit|Write' }]));
    rec.answer('PreToolUse', { stderr: 'edits are frozen today', exit: 2 });
    const before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ name: tool, arguments: args(join(repo, 'keep.txt')) }] }, { text: 'understood' });

    const run = await runRig(['exec', '--json', '--harness', harness, 'change it'], { cwd: repo, home });

    expect(run.code).toBe(0);
    expect(readFileSync(join(repo, 'keep.txt'), 'utf8')).toBe('one\n');
    expect(rec.of('PreToolUse')[0]).toMatchObject({ tool_name: tool, tool_input: args(join(repo, 'keep.txt')) });
    const result = toolResult(wire, mock.requests[before + 1]!.body);
    expect(result.text).toContain('edits are frozen today');
  });
});

test("Claude Code's documented hooks.json, unchanged: the file-protection hook blocks an Edit of .env, the formatter runs after a Write", async () => {
  const repo = tempGitRepo({ '.env': 'KEY=1\n' });
  const home = tempRigHome({ url: mock.url, wire: 'messages' });
  dirs.push(repo, home);
  copyFileSync(join(REPO_ROOT, 'test/fixtures/hooks/claude-code-hooks.json'), join(home, 'hooks.json'));
  // The hook the file points at: "$CLAUDE_PROJECT_DIR"/.claude/hooks/markdown_formatter.py.
  mkdirSync(join(repo, '.claude', 'hooks'), { recursive: true });
  const formatter = join(repo, '.claude', 'hooks', 'markdown_formatter.py');
  writeFileSync(formatter, '#!/usr/bin/env python3\nimport json, sys\ndata = json.load(sys.stdin)\nopen(data["cwd"] + "/formatted.log", "a").write(data["tool_input"]["file_path"] + "\\n")\n');
  chmodSync(formatter, 0o755);
  const before = mock.requests.length;
  mock.enqueue(
    { toolCalls: [{ id: 'toolu_env', name: 'Edit', arguments: { file_path: join(repo, '.env'), old_string: 'KEY=1', new_string: 'KEY=2' } }] },
    { toolCalls: [{ id: 'toolu_md', name: 'Write', arguments: { file_path: join(repo, 'notes.md'), content: '# Notes\n' } }] },
    { text: 'done' },
  );

  const run = await runRig(['exec', '--json', '--harness', 'claude-code', '-s', 'workspace-write', 'edit things'], { cwd: repo, home, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });

  expect(run.code).toBe(0);
  expect(readFileSync(join(repo, '.env'), 'utf8')).toBe('KEY=1\n');
  expect(toolResult('messages', mock.requests[before + 1]!.body).text).toMatch(/PreToolUse hook blocked it/);
  expect(readFileSync(join(repo, 'notes.md'), 'utf8')).toBe('# Notes\n');
  expect(readFileSync(join(repo, 'formatted.log'), 'utf8')).toBe(`${join(repo, 'notes.md')}\n`);
});

test("notify: Codex's program runs after a completed turn with the agent-turn-complete payload as its last argument", async () => {
  const repo = tempGitRepo();
  const dir = tempDir('notify');
  const extra = `notify = [${JSON.stringify(process.execPath)}, ${JSON.stringify(join(dir, 'notify.mjs'))}, "--flag"]`;
  const home = tempRigHome({ url: mock.url, extra });
  dirs.push(repo, dir, home);
  writeFileSync(join(dir, 'notify.mjs'), `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(join(dir, 'payload.json'))}, JSON.stringify(process.argv.slice(2)));\n`);
  // Codex's notify key lives at the top level, before any table.
  const config = readFileSync(join(home, 'config.toml'), 'utf8');
  writeFileSync(join(home, 'config.toml'), `${extra}\n${config.replace(extra, '')}`);
  mock.enqueue({ text: 'all done' });

  const run = await runRig(['exec', '--json', 'say done'], { cwd: repo, home });

  expect(run.code).toBe(0);
  const threadId = jsonLines(run.stdout)[0]!['thread_id'] as string;
  await waitUntil(() => existsSync(join(dir, 'payload.json')), 10_000, 'the notify program to write its payload');
  const argv = JSON.parse(readFileSync(join(dir, 'payload.json'), 'utf8')) as string[];
  expect(argv[0]).toBe('--flag');
  expect(JSON.parse(argv[1]!)).toEqual({
    type: 'agent-turn-complete',
    'thread-id': threadId,
    'turn-id': 'turn_0',
    cwd: repo,
    client: 'exec',
    'input-messages': ['say done'],
    'last-assistant-message': 'all done',
  });
});
