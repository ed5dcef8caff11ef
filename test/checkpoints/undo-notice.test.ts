// After `rig undo` the model is told: the next message of the thread (here a resumed `rig exec`)
// carries a note naming the turn and the files put back, once; a thread with nothing undone
// sends no such note.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
let ws: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  ws = tempDir('undo-notice');
  home = tempRigHome({ url: mock.url });
  writeFileSync(join(ws, 'a.txt'), 'one\n');
});

afterAll(async () => {
  await mock.close();
  removeDir(ws);
  removeDir(home);
});

const exec = (...args: string[]) => runRig(['exec', '--json', '--skip-git-repo-check', '--harness', 'native', '-s', 'workspace-write', ...args], { cwd: ws, home });
const lastRequest = () => JSON.stringify(mock.requests[mock.requests.length - 1]!.body);

test('rig undo, then the resumed thread: its next request says which files were put back, and only that one', async () => {
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: "sed -i 's/one/two/' a.txt" } }] }, { text: 'changed it' });
  const first = await exec('change a.txt');
  expect(first.code).toBe(0);
  const threadId = jsonLines(first.stdout)[0]!['thread_id'] as string;
  expect(lastRequest()).not.toContain('undo_notice');

  const undo = await runRig(['undo', threadId], { cwd: ws, home });
  expect(undo.code).toBe(0);
  expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');

  mock.enqueue({ text: 'noted' });
  expect((await exec('resume', threadId, 'what is in a.txt now?')).code).toBe(0);
  const told = lastRequest();
  expect(told).toContain('<undo_notice>');
  expect(told).toMatch(/undid the file changes of turn 1: these files were put back [^"]*a\.txt/);
  // The note comes before the user's words.
  expect(told.indexOf('<undo_notice>')).toBeLessThan(told.indexOf('what is in a.txt now?'));

  mock.enqueue({ text: 'again' });
  expect((await exec('resume', threadId, 'and now?')).code).toBe(0);
  const later = JSON.stringify((mock.requests[mock.requests.length - 1]!.body as { input: unknown[] }).input.slice(-1));
  expect(later).toContain('and now?');
  // Told once: the note stays in the history, and no second one is added.
  expect(lastRequest().split('<undo_notice>').length - 1).toBe(1);
}, 60_000);
