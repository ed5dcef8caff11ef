// Where `rig exec` takes its prompt from (argument, "-", stdin, both), -o, and the git-repository
// guard that keeps it from running loose in an arbitrary directory.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempGitRepo, tempRigHome, progress } from '../../support/workspace.js';

let mock: MockProvider;
let repo: string;
let home: string;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  for (const dir of [repo, home, ...dirs]) removeDir(dir);
});

function scratch(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

/** The text of the last user message the model was sent. */
function lastPrompt(): string {
  const input = mock.requests.at(-1)!.body.input as { type: string; role?: string; content?: { text: string }[] }[];
  const message = input.filter((item) => item.type === 'message' && item.role === 'user').at(-1)!;
  return message.content!.map((part) => part.text).join('');
}

describe('the prompt', () => {
  test('"-" reads the whole prompt from stdin', async () => {
    mock.enqueue({ text: 'ok' });
    const run = await runRig(['exec', '-'], { cwd: repo, home, input: 'fix the tests\nplease\n' });
    expect(run.code).toBe(0);
    expect(lastPrompt()).toBe('fix the tests\nplease\n');
  });

  test('no argument reads the prompt from stdin, saying so on stderr', async () => {
    mock.enqueue({ text: 'ok' });
    const run = await runRig(['exec', '--json'], { cwd: repo, home, input: 'from a pipe' });
    expect(run.code).toBe(0);
    expect(lastPrompt()).toBe('from a pipe');
    expect(progress(run.stderr)).toBe('reading the prompt from stdin (end it with Ctrl-D, or pass the prompt as an argument)\n');
  });

  test('an argument plus piped stdin appends stdin as a <stdin> block', async () => {
    mock.enqueue({ text: 'ok' }, { text: 'ok' });
    await runRig(['exec', 'summarize this'], { cwd: repo, home, input: 'line one\nline two' });
    expect(lastPrompt()).toBe('summarize this\n\n<stdin>\nline one\nline two\n</stdin>');

    const run = await runRig(['exec', 'summarize this'], { cwd: repo, home, input: 'ends with newline\n' });
    expect(lastPrompt()).toBe('summarize this\n\n<stdin>\nends with newline\n</stdin>');
    expect(progress(run.stderr)).toBe('reading stdin to append to the prompt (redirect it from /dev/null to skip this)\nok\n');
  });

  test('piped stdin that is only whitespace is not appended', async () => {
    mock.enqueue({ text: 'ok' });
    await runRig(['exec', 'just this'], { cwd: repo, home, input: ' \n\t\n' });
    expect(lastPrompt()).toBe('just this');
  });

  test('stdin from /dev/null next to an argument is neither read as a pipe nor announced', async () => {
    mock.enqueue({ text: 'ok' });
    const run = await runRig(['exec', 'just this'], { cwd: repo, home });
    expect(lastPrompt()).toBe('just this');
    expect(progress(run.stderr)).toBe('ok\n');
  });

  test('an empty stdin with no argument is refused before any request', async () => {
    const before = mock.requests.length;
    const run = await runRig(['exec', '-'], { cwd: repo, home, input: '  \n' });
    expect(run.code).toBe(1);
    expect(progress(run.stderr)).toBe('rig: the prompt read from stdin is empty: pass a prompt as an argument or pipe one in\n');
    expect(mock.requests.length).toBe(before);
  });
});

describe('-o, --output-last-message', () => {
  test('writes the last agent message of the turn', async () => {
    const out = join(scratch('out'), 'last.txt');
    mock.enqueue({ text: 'first thought', toolCalls: [{ name: 'update_plan', arguments: { plan: [{ step: 'look', status: 'completed' }] } }] }, { text: 'final answer' });
    const run = await runRig(['exec', '--json', '--harness', 'native', '-o', out, 'go'], { cwd: repo, home });
    expect(run.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('final answer');
  });

  test('is not written when the turn fails', async () => {
    const out = join(scratch('out'), 'last.txt');
    mock.enqueue({ status: 400, message: 'bad request' });
    const run = await runRig(['exec', '--output-last-message', out, 'go'], { cwd: repo, home });
    expect(run.code).toBe(1);
    expect(progress(run.stderr)).toBe("rig: provider 'mock' returned HTTP 400: bad request\n");
    expect(existsSync(out)).toBe(false);
  });
  test('a file that cannot be written fails the run after the answer, naming the file', async () => {
    const out = join(scratch('out'), 'no-such-dir', 'last.txt');
    mock.enqueue({ text: 'the answer' });
    const run = await runRig(['exec', '-o', out, 'go'], { cwd: repo, home });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('the answer\n');
    expect(progress(run.stderr)).toBe(`the answer\nrig: cannot write --output-last-message ${out}: ENOENT\n`);
  });
});

describe('the git repository check', () => {
  const refusal = 'Not inside a trusted directory and --skip-git-repo-check was not specified.';

  test('outside a git repository rig exec refuses to start', async () => {
    const loose = scratch('loose');
    const before = mock.requests.length;

    const human = await runRig(['exec', 'hi'], { cwd: loose, home });
    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');
    expect(progress(human.stderr)).toBe(`rig: ${refusal}\n`);

    const json = await runRig(['exec', '--json', 'hi'], { cwd: loose, home });
    expect(json.code).toBe(1);
    expect(jsonLines(json.stdout)).toEqual([{ type: 'error', message: refusal }]);
    expect(mock.requests.length).toBe(before);
  });

  test('-C into a directory outside any repository is refused too', async () => {
    const run = await runRig(['exec', '-C', scratch('loose'), 'hi'], { cwd: repo, home });
    expect(run.code).toBe(1);
    expect(progress(run.stderr)).toBe(`rig: ${refusal}\n`);
  });

  test('--skip-git-repo-check lets it run anywhere', async () => {
    mock.enqueue({ text: 'ran' });
    const run = await runRig(['exec', '--skip-git-repo-check', 'hi'], { cwd: scratch('loose'), home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('ran\n');
  });

  test('--yolo skips the check too (as in codex exec), with a warning', async () => {
    mock.enqueue({ text: 'ran' });
    const run = await runRig(['exec', '--yolo', 'hi'], { cwd: scratch('loose'), home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('ran\n');
    expect(progress(run.stderr)).toBe('warning: running with --dangerously-bypass-approvals-and-sandbox: commands run WITHOUT a sandbox and WITHOUT asking\nran\n');
  });

  test('a directory marked trusted in config.toml needs no flag', async () => {
    const loose = scratch('loose');
    const trusting = tempRigHome({ url: mock.url });
    dirs.push(trusting);
    appendFileSync(join(trusting, 'config.toml'), `\n[projects.${JSON.stringify(loose)}]\ntrust_level = "trusted"\n`);
    mock.enqueue({ text: 'ran' });
    const run = await runRig(['exec', 'hi'], { cwd: loose, home: trusting });
    expect(progress(run.stderr)).toBe('ran\n');
    expect(run.code).toBe(0);
  });
});
