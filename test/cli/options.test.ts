// Options the way Codex users give them, through the built CLI against the loopback mock: before
// and after the subcommand and after the prompt, repeatable ones merged from every position, the
// shared options on every command that uses them, and the no-key, print-only and alias cases.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
let repo: string;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  for (const dir of dirs) removeDir(dir);
});

function home(extra = ''): string {
  const dir = tempRigHome({ url: mock.url, extra });
  dirs.push(dir);
  return dir;
}

/** The text of every message in a Responses request (instructions, context and prompt). */
function requestText(request: MockRequest): string {
  return JSON.stringify(request.body.input);
}

describe('options before and after the subcommand', () => {
  test('rig -c a=1 exec -c b=2 x applies both -c lists, in order', async () => {
    mock.enqueue({ text: 'ok' });
    const run = await runRig(
      ['-c', 'model_providers.mock.http_headers.x-first="1"', '-c', 'model_providers.mock.http_headers.x-both="root"', 'exec', '-c', 'model_providers.mock.http_headers.x-second="2"', '-c', 'model_providers.mock.http_headers.x-both="exec"', 'hi'],
      { cwd: repo, home: home() },
    );
    expect(run.code, run.stderr).toBe(0);
    const headers = mock.requests.at(-1)!.headers;
    expect([headers['x-first'], headers['x-second'], headers['x-both']]).toEqual(['1', '2', 'exec']);
  });

  test('--add-dir from both positions adds up', async () => {
    const a = tempDir('extra-a');
    const b = tempDir('extra-b');
    dirs.push(a, b);
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `touch ${a}/made ${b}/made` } }] }, { text: 'ok' });
    // /tmp is writable under workspace-write unless excluded; exclude it so only --add-dir opens a and b.
    const noTmp = ['-c', 'sandbox_workspace_write.exclude_slash_tmp=true', '-c', 'sandbox_workspace_write.exclude_tmpdir_env_var=true'];
    const run = await runRig(['--add-dir', a, ...noTmp, 'exec', '--add-dir', b, '--full-auto', '--harness', 'native', 'hi'], { cwd: repo, home: home() });
    expect(run.code, run.stderr).toBe(0);
    expect([existsSync(join(a, 'made')), existsSync(join(b, 'made'))]).toEqual([true, true]);
  });

  test('a value after the subcommand wins over the one before it', async () => {
    mock.enqueue({ text: 'ok' });
    const run = await runRig(['-m', 'before-model', 'exec', '-m', 'after-model', 'hi'], { cwd: repo, home: home() });
    expect(run.code, run.stderr).toBe(0);
    expect(mock.requests.at(-1)!.body.model).toBe('after-model');
  });

  test('rig -p NAME doctor, rig doctor -p NAME and rig -m X doctor are honoured', async () => {
    const dir = home('\n[profiles.fast]\nmodel = "fast-model"\n');
    for (const args of [['-p', 'fast', 'doctor', '--offline'], ['doctor', '-p', 'fast', '--offline'], ['doctor', '--offline', '--profile=fast']]) {
      const run = await runRig(args, { cwd: repo, home: dir });
      expect(run.stderr, args.join(' ')).toBe('');
      expect(run.stdout, args.join(' ')).toContain('model: fast-model\n');
    }
    const byModel = await runRig(['-m', 'picked-model', 'doctor', '--offline'], { cwd: repo, home: dir });
    expect(byModel.stdout).toContain('model: picked-model\n');
  });

  test('an option before a subcommand that means nothing to it is a usage error, not ignored', async () => {
    const run = await runRig(['-m', 'x', 'sessions', 'list'], { cwd: repo, home: home() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("error: option '-m, --model <model>' does not apply to 'rig sessions list'\n(run with --help for usage)\n");
  });

  test('--json before `sessions` reaches `sessions list`', async () => {
    const run = await runRig(['--json', 'sessions'], { cwd: repo, home: home() });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});

describe('options after the prompt', () => {
  test('rig exec "fix it" --full-auto runs with the workspace-write sandbox', async () => {
    mock.enqueue({ text: 'ok' });
    const run = await runRig(['exec', 'fix it', '--full-auto'], { cwd: repo, home: home() });
    expect(run.code, run.stderr).toBe(0);
    expect(requestText(mock.requests.at(-1)!)).toContain('<sandbox_mode>workspace-write</sandbox_mode>');
  });

  test('rig "x" --json, rig --json "x" and rig --skip-git-repo-check "x" run exec', async () => {
    const outside = tempDir('not-a-repo');
    dirs.push(outside);
    const dir = home();
    mock.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' });
    const first = await runRig(['--json', 'hi'], { cwd: repo, home: dir });
    const second = await runRig(['hi', '--json'], { cwd: repo, home: dir });
    const third = await runRig(['--skip-git-repo-check', 'hi'], { cwd: outside, home: dir });
    for (const run of [first, second, third]) expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(first.stdout).at(-1)).toMatchObject({ type: 'turn.completed' });
    expect(jsonLines(second.stdout).at(-1)).toMatchObject({ type: 'turn.completed' });
    expect(third.stdout).toBe('three\n');
  });
});

describe('rig with a prompt and no API key', () => {
  test('exits 1 after saying which variable to set; the prompt is not sent', async () => {
    const dir = home();
    const before = mock.requests.length;
    const run = await runRig(['fix the failing test'], { cwd: repo, home: dir, env: { MOCK_API_KEY: '' } });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `rig: no API key for Mock: MOCK_API_KEY is not set, so your prompt was not sent. To run it: export MOCK_API_KEY=..., or pick another model_provider in ${dir}/config.toml (or --provider ID). \`rig demo\` shows a recorded session offline.\n`,
    );
    expect(mock.requests.length).toBe(before);
  });

  test('with no prompt it still runs the offline demo and exits 0', async () => {
    const dir = tempDir('no-key-home');
    dirs.push(dir);
    const run = await runRig([], { cwd: dir, home: dir, env: { OPENAI_API_KEY: '' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^rig: no API key for OpenAI: OPENAI_API_KEY is not set .*running the offline demo instead\.\n/);
    expect(run.stdout + run.stderr).toContain('Tests after: 4 passed, 0 failed');
  }, 60_000);
});

describe('small ones', () => {
  test('resume --last --print-only needs neither the provider nor its key', async () => {
    const dir = home();
    mock.enqueue({ text: 'remembered' });
    expect((await runRig(['exec', 'remember this'], { cwd: repo, home: dir })).code).toBe(0);
    // The provider the thread ran with is gone from the config, and no key is set.
    writeFileSync(join(dir, 'config.toml'), 'model_provider = "openai"\n');
    const before = mock.requests.length;
    const run = await runRig(['resume', '--last', '--print-only'], { cwd: repo, home: dir, env: { MOCK_API_KEY: '', OPENAI_API_KEY: '' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^resumed thread \S+ · mock-model · \S+ · /);
    expect(run.stdout).toContain('› remember this\n• remembered\n');
    expect(mock.requests.length).toBe(before);
  });

  test('rig harness show with an unknown id blames the command line, not a config key', async () => {
    const run = await runRig(['harness', 'show', 'nope'], { cwd: repo, home: home() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^rig harness show: unknown harness "nope" \(given on the command line\); available harnesses \(see `rig harness list`\): claude-code, /);
    expect(run.stderr).not.toContain('config key');
  });

  test('rig sessions archive|unarchive|delete work as rig archive|unarchive|delete', async () => {
    const dir = home();
    mock.enqueue({ text: 'ok' });
    const exec = await runRig(['exec', '--json', 'a thread to move'], { cwd: repo, home: dir });
    const id = (jsonLines(exec.stdout)[0] as { thread_id: string }).thread_id;
    const archived = await runRig(['sessions', 'archive', id], { cwd: repo, home: dir });
    expect(archived.code, archived.stderr).toBe(0);
    expect(archived.stdout).toContain(`archived ${id}`);
    expect(JSON.parse((await runRig(['sessions', '--json', '--archived'], { cwd: repo, home: dir })).stdout)).toMatchObject([{ id }]);
    const unarchived = await runRig(['sessions', 'unarchive', id], { cwd: repo, home: dir });
    expect(unarchived.stdout).toContain(`unarchived ${id}`);
    const deleted = await runRig(['sessions', 'delete', id, '--yes'], { cwd: repo, home: dir });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse((await runRig(['sessions', '--json', '--all'], { cwd: repo, home: dir })).stdout)).toEqual([]);
  });

  test('-a on-failure says it runs as on-request', async () => {
    mock.enqueue({ text: 'ok' });
    const run = await runRig(['exec', '-a', 'on-failure', 'hi'], { cwd: repo, home: home() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('rig: warning: -a on-failure is deprecated (Codex removed it); rig runs on-request instead');
    expect(requestText(mock.requests.at(-1)!)).toContain('<approval_policy>on-request</approval_policy>');
  });
});
