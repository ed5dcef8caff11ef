// `rig exec resume`: continue a recorded thread by id, id prefix, or --last, with the whole history.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
let repo: string;
let home: string;
let threadId: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({ url: mock.url });
  mock.enqueue({ text: 'first answer' });
  const first = await runRig(['exec', '--json', 'first question'], { cwd: repo, home });
  threadId = jsonLines(first.stdout)[0]!['thread_id'] as string;
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

/** User and assistant texts of a Responses request, without the environment context. */
function conversation(request: MockRequest): string[] {
  return (request.body.input as { type: string; content?: { text?: string }[] }[])
    .filter((item) => item.type === 'message')
    .map((item) => item.content?.map((part) => part.text ?? '').join('') ?? '')
    .filter((text) => !text.startsWith('<environment_context>'));
}

test('resume by id carries the history and keeps the thread id', async () => {
  mock.enqueue({ text: 'second answer' });
  const run = await runRig(['exec', '--json', 'resume', threadId, 'second question'], { cwd: repo, home });
  expect(run.code).toBe(0);
  expect(jsonLines(run.stdout)[0]).toEqual({ type: 'thread.started', thread_id: threadId });
  expect(conversation(mock.requests.at(-1)!)).toEqual(['first question', 'first answer', 'second question']);
});

test('resume --last takes the single positional as the prompt; an id prefix works too', async () => {
  mock.enqueue({ text: 'via last' }, { text: 'via prefix' });
  const last = await runRig(['exec', 'resume', '--last', 'by last'], { cwd: repo, home });
  expect(last.code).toBe(0);
  expect(last.stdout).toBe('via last\n');
  expect(conversation(mock.requests.at(-1)!).at(-1)).toBe('by last');

  const prefix = await runRig(['exec', 'resume', threadId.slice(0, 13), 'by prefix'], { cwd: repo, home });
  expect(prefix.code).toBe(0);
  expect(prefix.stdout).toBe('via prefix\n');
  expect(conversation(mock.requests.at(-1)!).slice(0, 2)).toEqual(['first question', 'first answer']);
});

test('an unknown id, or no id at all, is refused with where to look', async () => {
  const unknown = await runRig(['exec', 'resume', 'ffffffff-0000', 'hi'], { cwd: repo, home });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toBe(`rig: no thread with id ffffffff-0000 under ${join(home, 'sessions')} (see \`rig sessions list --all\`)\n`);

  const missing = await runRig(['exec', 'resume'], { cwd: repo, home });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toBe('rig: exec resume needs a thread id, or --last (see `rig sessions list`)\n');
});
