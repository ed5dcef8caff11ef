// Huge input through the real `rig exec` against the loopback mock: a prompt over Codex's
// 1,048,576-character limit is refused before anything is sent or written, and a session that
// compacts again and again keeps a rollout that grows with what happened, not with what it keeps.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockTurn } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
let repo: string;
const homes: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  for (const home of homes) removeDir(home);
});

function home(extra = ''): string {
  const dir = tempRigHome({ url: mock.url, extra });
  homes.push(dir);
  return dir;
}

function rolloutFiles(dir: string): string[] {
  const sessions = join(dir, 'sessions');
  try {
    return readdirSync(sessions, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

test('rig exec - < a 10 MB file is refused with Codex\'s message; nothing is sent or written', async () => {
  const dir = home();
  const before = mock.requests.length;
  const tenMegabytes = 'lorem ipsum dolor sit amet\n'.repeat(Math.ceil((10 * 1024 * 1024) / 27));
  const run = await runRig(['exec', '-'], { cwd: repo, home: dir, input: tenMegabytes });
  expect(run.code).toBe(1);
  expect(run.stderr).toBe(
    `rig: Input exceeds the maximum length of 1048576 characters. (the prompt read from stdin has ${tenMegabytes.length.toLocaleString('en-US')}: ` +
      'put the material in a file in the workspace and ask the agent to read the parts it needs)\n',
  );
  expect(mock.requests.length).toBe(before);
  expect(rolloutFiles(dir)).toEqual([]);

  const json = await runRig(['exec', '--json', '-'], { cwd: repo, home: dir, input: tenMegabytes });
  expect(jsonLines(json.stdout)).toEqual([{ type: 'error', message: expect.stringMatching(/^Input exceeds the maximum length of 1048576 characters\./) }]);
});

test('a prompt of exactly 1,048,576 characters (counted as Codex counts them) is accepted', async () => {
  const before = mock.requests.length;
  // Far past the window: compacted before the first step (a summary request, then the step).
  mock.enqueue({ text: 'the user sent a long text' }, { text: 'read it' });
  // Astral characters are one character each, though two UTF-16 units.
  const prompt = '😀'.repeat(1024) + 'x'.repeat(1_048_576 - 1024);
  const run = await runRig(['exec', '-'], { cwd: repo, home: home(), input: prompt });
  expect(run.code, run.stderr.slice(0, 500)).toBe(0);
  expect(run.stdout).toBe('read it\n');
  expect(JSON.stringify(mock.requests[before]!.body.input)).toContain(prompt);
  // What compaction kept of it is bounded: the step's request is far smaller than the prompt.
  expect(JSON.stringify(mock.requests[before + 1]!.body.input).length).toBeLessThan(prompt.length / 4);
});

test('repeated compactions keep the rollout growing linearly, and resume rebuilds the same history', async () => {
  // Compaction before every step: each step reports more tokens than the limit.
  const dir = home();
  const limit = ['-c', 'model_auto_compact_token_limit=30000'];
  const prompt = Array.from({ length: 6000 }, (_, i) => `word${i}`).join(' ');
  const steps = 12;
  const turns: MockTurn[] = [];
  for (let i = 0; i < steps; i++) {
    turns.push({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo step-${i}` } }], usage: { input_tokens: 40_000, output_tokens: 10 } });
    turns.push({ text: `summary after step ${i}: all good so far`, usage: { input_tokens: 100, output_tokens: 20 } });
  }
  turns.push({ text: 'finished', usage: { input_tokens: 100, output_tokens: 5 } });
  mock.enqueue(...turns);
  const run = await runRig(['exec', ...limit, '--harness', 'native', prompt], { cwd: repo, home: dir });
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  expect(mock.remaining(), run.stderr.slice(-3000)).toBe(0);

  const [file] = rolloutFiles(dir);
  const lines = readFileSync(file!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
  const compacted = lines.filter((line) => line.type === 'compacted');
  expect(compacted.length).toBe(steps);
  // Each compaction record refers to the kept prompt instead of copying it (~40 KB) again.
  for (const record of compacted) {
    expect(JSON.stringify(record).length).toBeLessThan(prompt.length / 4);
    expect(record.payload['replacement']).toEqual(expect.arrayContaining([expect.any(Number)]));
  }
  // The prompt is written once, in its response_item, however many compactions keep it.
  const copies = readFileSync(file!, 'utf8').split('word5999').length - 1;
  expect(copies).toBe(1);
  expect(statSync(file!).size).toBeLessThan(prompt.length * 3 + steps * 6_000);

  // Resume rebuilds the compacted history: context, the prompt, the last summary, then the new prompt.
  mock.enqueue({ text: 'resumed' });
  const resumed = await runRig(['exec', ...limit, 'resume', '--last', 'and now?'], { cwd: repo, home: dir });
  expect(resumed.code, resumed.stderr).toBe(0);
  const input = mock.requests.at(-1)!.body.input as { type: string; role?: string; content?: { text?: string }[] }[];
  const texts = input.filter((item) => item.type === 'message').map((item) => item.content!.map((part) => part.text ?? '').join(''));
  expect(texts.some((text) => text === prompt)).toBe(true);
  expect(texts.filter((text) => text.includes(`summary after step ${steps - 1}`))).toHaveLength(1);
  expect(texts.some((text) => text.includes('summary after step 0:'))).toBe(false);
  expect(texts.at(-1)).toBe('and now?');
});
