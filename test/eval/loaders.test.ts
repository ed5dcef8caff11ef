// The three task formats, good and bad: a bad file is an error naming the file, the line and the field.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTasks } from '../../src/eval/tasks/load.js';
import { TaskFileError } from '../../src/eval/tasks/types.js';
import { removeDir, tempDir, tempGitRepo } from '../support/workspace.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const dir of cleanup.splice(0)) removeDir(dir);
});

function folder(files: Record<string, string>): string {
  const dir = tempDir('tasks');
  cleanup.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function loadError(path: string, options = {}): TaskFileError {
  try {
    loadTasks(path, options);
  } catch (error) {
    expect(error).toBeInstanceOf(TaskFileError);
    return error as TaskFileError;
  }
  throw new Error(`${path} loaded without an error`);
}

const row = (value: Record<string, unknown>) => JSON.stringify(value);
const goodRig = { id: 'a', repo: 'repo', prompt: 'fix it', check: 'true' };

describe('rig JSONL tasks', () => {
  it('loads rows with paths relative to the file and the optional fields', () => {
    const dir = folder({ 'repo/x.txt': 'x', 'tests/t.sh': '', 'sol/x.txt': 'y', 'tasks.jsonl': `${row(goodRig)}\n\n${row({ ...goodRig, id: 'b', tests: 'tests', solution: 'sol', setup: 'echo hi', timeout_s: 30, check_timeout_s: 5, max_tokens: 1000, env: { A: '1' }, tags: ['js'] })}\n` });
    const [a, b] = loadTasks(join(dir, 'tasks.jsonl'));
    expect(a).toMatchObject({ id: 'a', format: 'rig', repo: join(dir, 'repo'), prompt: 'fix it', check: { kind: 'command', command: 'true' }, source: { line: 1 } });
    expect(b).toMatchObject({
      id: 'b',
      source: { line: 3 },
      setup: 'echo hi',
      agentTimeoutMs: 30_000,
      checkTimeoutMs: 5000,
      maxTokens: 1000,
      check: { testsDir: join(dir, 'tests'), env: { A: '1' } },
      solution: { kind: 'overlay', dir: join(dir, 'sol') },
      tags: ['js'],
    });
  });

  it.each([
    ['a missing field', { id: 'a', repo: 'repo', prompt: 'p' }, 'check', /`check`: missing \(/],
    ['an unknown field', { ...goodRig, promt: 'typo' }, 'promt', /unknown field \(allowed: id, repo, prompt, check/],
    ['a wrong type', { ...goodRig, timeout_s: '30' }, 'timeout_s', /must be a number of seconds \(found "30"\)/],
    ['a bad id', { ...goodRig, id: 'has space' }, 'id', /letters, digits/],
    ['a repo that is not a folder', { ...goodRig, repo: 'nowhere' }, 'repo', /not a folder/],
  ])('rejects %s, naming file, line and field', (_what, bad, field, message) => {
    const dir = folder({ 'repo/x': '', 'tasks.jsonl': `${row(goodRig)}\n${row(bad)}\n` });
    const error = loadError(join(dir, 'tasks.jsonl'));
    expect(error.file).toBe(join(dir, 'tasks.jsonl'));
    expect(error.line).toBe(2);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`${join(dir, 'tasks.jsonl')}:2: field \`${field}\``)).toBe(true);
  });

  it('rejects a line that is not JSON and a duplicate id', () => {
    const dir = folder({ 'repo/x': '', 'tasks.jsonl': `${row(goodRig)}\n{"id": "b",\n` });
    expect(loadError(join(dir, 'tasks.jsonl')).message).toMatch(/tasks\.jsonl:2: not valid JSON/);
    const dup = folder({ 'repo/x': '', 'tasks.jsonl': `${row(goodRig)}\n${row(goodRig)}\n` });
    const error = loadError(join(dup, 'tasks.jsonl'));
    expect(error.message).toMatch(/:2: field `id`: task id "a" is used twice \(also at .*tasks\.jsonl:1\)/);
  });
});

describe('SWE-bench rows', () => {
  function cloned(): { repo: string; commit: string } {
    const repo = tempGitRepo({ 'pkg/mod.py': 'x = 1\n' });
    cleanup.push(repo);
    return { repo, commit: execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim() };
  }
  const instance = (repo: string, commit: string, extra: Record<string, unknown> = {}) => ({
    instance_id: 'owner__proj-12',
    repo,
    base_commit: commit,
    problem_statement: 'It breaks.',
    FAIL_TO_PASS: '["tests/test_mod.py::test_fix"]',
    PASS_TO_PASS: ['tests/test_mod.py::test_old'],
    test_patch: 'diff --git a/t b/t\n',
    patch: 'diff --git a/pkg/mod.py b/pkg/mod.py\n',
    test_cmd: 'python3 -m pytest -q',
    hints_text: 'ignored',
    version: '1.0',
    ...extra,
  });

  it('loads a row, decoding the JSON-encoded test lists, and finds an "owner/name" clone under --repos', () => {
    const { repo, commit } = cloned();
    const dir = folder({ 'sb.jsonl': `${row(instance(repo, commit))}\n` });
    const [task] = loadTasks(join(dir, 'sb.jsonl'));
    expect(task).toMatchObject({
      id: 'owner__proj-12',
      format: 'swebench',
      repo,
      commit,
      prompt: 'It breaks.',
      check: { kind: 'swebench', testCommand: 'python3 -m pytest -q', failToPass: ['tests/test_mod.py::test_fix'], passToPass: ['tests/test_mod.py::test_old'], testPatch: 'diff --git a/t b/t\n' },
      solution: { kind: 'patch' },
    });
    const reposDir = dirname(repo);
    const named = folder({ 'sb.jsonl': `${row(instance(`someone/${repo.split('/').pop()}`, commit))}\n` });
    expect(loadTasks(join(named, 'sb.jsonl'), { reposDir })[0]!.repo).toBe(repo);
  });

  it('rejects a missing test command, a malformed test list, an unknown commit and a repo that is not cloned', () => {
    const { repo, commit } = cloned();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ test_cmd: undefined }, 'test_cmd', /missing: the command that runs the tests/],
      [{ FAIL_TO_PASS: 'test_a' }, 'FAIL_TO_PASS', /not a JSON-encoded array/],
      [{ base_commit: 'f'.repeat(40) }, 'base_commit', /is not a commit of/],
      [{ base_commit: 'main' }, 'base_commit', /must be a commit hash/],
      [{ repo: 'someone/not-here' }, 'repo', /no git clone of "someone\/not-here" found .*pass --repos DIR/],
    ];
    for (const [change, field, message] of cases) {
      const dir = folder({ 'sb.jsonl': `${row(instance(repo, commit, { instance_id: 'first' }))}\n${row(instance(repo, commit, change))}\n` });
      const error = loadError(join(dir, 'sb.jsonl'));
      expect({ line: error.line, field: error.field }).toEqual({ line: 2, field });
      expect(error.message).toMatch(message);
    }
  });
});

describe('Harbor task folders', () => {
  const harbor = (toml: string, extra: Record<string, string> = {}) =>
    folder({
      'my-task/task.toml': toml,
      'my-task/instruction.md': 'Do the thing in the app.\n',
      'my-task/environment/Dockerfile': 'FROM python:3.12-slim\nWORKDIR /srv/app\nCOPY src/ .\nRUN pip install nothing\n',
      'my-task/environment/src/main.py': 'print(1)\n',
      'my-task/tests/test.sh': 'echo 1 > /logs/verifier/reward.txt\n',
      'my-task/solution/solve.sh': 'true\n',
      ...extra,
    });

  it('loads a task: the instruction, the workspace the Dockerfile copies into its WORKDIR, timeouts and verifier env', () => {
    const dir = harbor('version = "1.0"\n[metadata]\nauthor_name = "x"\n[agent]\ntimeout_sec = 120.0\n[verifier]\ntimeout_sec = 30\nenv = { MODE = "strict" }\n[environment]\ncpus = 1\n');
    const [task] = loadTasks(dir);
    expect(task).toMatchObject({
      id: 'my-task',
      format: 'harbor',
      prompt: 'Do the thing in the app.',
      repo: join(dir, 'my-task', 'environment', 'src'),
      agentTimeoutMs: 120_000,
      checkTimeoutMs: 30_000,
      check: { kind: 'harbor', testsDir: join(dir, 'my-task', 'tests'), workdir: '/srv/app', env: { MODE: 'strict' } },
      solution: { kind: 'script', file: join(dir, 'my-task', 'solution', 'solve.sh') },
    });
    // The folder itself loads too.
    expect(loadTasks(join(dir, 'my-task'))[0]!.id).toBe('my-task');
  });

  it('takes [metadata.rig] workspace and setup, and the environment folder without Docker files when nothing is copied', () => {
    const dir = harbor('[metadata.rig]\nworkspace = "environment/src"\nsetup = "make"\nid = "renamed"\n');
    expect(loadTasks(dir)[0]).toMatchObject({ id: 'renamed', setup: 'make', repo: join(dir, 'my-task', 'environment', 'src') });
    const plain = harbor('', { 'my-task/environment/Dockerfile': 'FROM alpine\n' });
    expect(loadTasks(plain)[0]).toMatchObject({ repo: join(plain, 'my-task', 'environment'), exclude: expect.arrayContaining(['Dockerfile']), check: { workdir: '/app' } });
  });

  it('rejects bad TOML, a bad field and missing files, naming file, line and field', () => {
    const syntax = loadError(harbor('version = "1.0"\n[agent\ntimeout_sec = 1\n'));
    expect(syntax.file.endsWith('task.toml')).toBe(true);
    expect(syntax.line).toBe(2);
    expect(syntax.message).toMatch(/not valid TOML/);

    const field = loadError(harbor('version = "1.0"\n\n[agent]\ntimeout_sec = -5\n'));
    expect({ line: field.line, field: field.field }).toEqual({ line: 4, field: 'agent.timeout_sec' });
    expect(field.message).toMatch(/task\.toml:4: field `agent\.timeout_sec`: must be a positive number of seconds/);

    const unknown = loadError(harbor('[metadata.rig]\nworkspaces = "x"\n'));
    expect({ line: unknown.line, field: unknown.field }).toEqual({ line: 2, field: 'metadata.rig.workspaces' });

    const noTests = folder({ 't/task.toml': '', 't/instruction.md': 'x' });
    expect(loadError(noTests).message).toMatch(/tests\/test\.sh: missing: a Harbor task needs tests\/test\.sh/);
    const empty = folder({ 't/task.toml': '', 't/instruction.md': '  \n', 't/tests/test.sh': '' , 't/environment/x': ''});
    expect(loadError(empty).message).toMatch(/instruction\.md:1: is empty/);
  });
});

describe('finding tasks', () => {
  it('reads every *.jsonl and task folder of a folder, and says so when there is none', () => {
    const dir = folder({ 'repo/x': '', 'a.jsonl': `${row(goodRig)}\n`, 'harbor/t1/task.toml': '', 'harbor/t1/instruction.md': 'x', 'harbor/t1/tests/test.sh': '', 'harbor/t1/environment/f': '' });
    expect(loadTasks(dir).map((t) => t.id)).toEqual(['a', 't1']);
    expect(loadError(folder({ 'readme.md': '' })).message).toMatch(/holds no tasks/);
    expect(loadError('/nonexistent/tasks.jsonl').message).toMatch(/does not exist/);
  });
});
