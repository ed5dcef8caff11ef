// /rewind in the real `rig` (tmux, loopback mock, temp RIG_HOME, sandboxed harmless commands):
// the turns newest first with the files each changed, then files / conversation / both with a
// preview; files put back, a file the user changed since reported and left; the model told; the
// conversation rewound into a fork with the turn's prompt back in the input, its history showing
// commands as they looked live.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { hasTmux, type TmuxRig } from './support/tmux.js';
import { startLiveSession, stopLiveSession, type LiveSession } from './support/live-session.js';

let mock: MockProvider;
let repo: string;
let rig: TmuxRig;

const lastRequest = () => JSON.stringify(mock.requests[mock.requests.length - 1]!.body);

async function turn(prompt: string, ...steps: Parameters<MockProvider['enqueue']>): Promise<void> {
  mock.enqueue(...steps);
  rig.type(prompt);
  rig.keys('Enter');
  const last = steps[steps.length - 1] as { text: string };
  await rig.waitFor(last.text);
}

let live: LiveSession | undefined;

beforeAll(async () => {
  if (!hasTmux) return;
  live = await startLiveSession('rig-tui-rewind', '--harness native -s workspace-write -a never');
  ({ mock, repo, rig } = live);
}, 30_000);

afterAll(() => stopLiveSession(live));

test.skipIf(!hasTmux)('/rewind lists the turns newest first; files only puts back what they changed and reports a file changed since', async () => {
  await turn('edit the readme', { toolCalls: [{ name: 'exec_command', arguments: { cmd: "sed -i 's/hello/hello one/' README.md" } }] }, { text: 'readme edited' });
  await turn('write two', { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo two > two.txt' } }] }, { text: 'two written' });
  await turn('just talk', { text: 'talked only' });
  expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello one\n');
  writeFileSync(join(repo, 'README.md'), 'my own words\n');

  rig.type('/rewind');
  rig.keys('Enter');
  const list = await rig.waitFor('go back to before which turn?');
  expect(list).toMatch(/turn 3 +just talk[\s│]+changed no files[\s\S]*turn 2 +write two[\s│]+changed two\.txt[\s\S]*turn 1 +edit the readme[\s│]+changed README\.md/);

  rig.keys('Down', 'Down', 'Enter');
  const both = await rig.waitFor('Rewind to before turn 1: edit the readme');
  expect(both).toMatch(/› Files and conversation/);
  expect(both).toMatch(/restores two\.txt/);
  expect(both).toMatch(/changed since, reported and not overwritten: README\.md/);
  expect(both).toContain('without this turn and the 2 after it');
  rig.keys('Down');
  const filesOnly = await rig.waitFor(/› Files only/);
  expect(filesOnly).not.toContain('without this turn');
  rig.keys('Enter');
  await rig.waitFor(/rewound the files to before turn 1: put back two\.txt[\s\S]*left as they are, changed since: README\.md/);
  expect(existsSync(join(repo, 'two.txt'))).toBe(false);
  expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('my own words\n');

  await turn('what changed?', { text: 'I see the undo' });
  expect(lastRequest()).toMatch(/<undo_notice>[^"]*two\.txt/);
}, 60_000);

test.skipIf(!hasTmux)('/rewind conversation only: a fork without the turn and later ones, its prompt back in the input; Esc steps back, then cancels', async () => {
  rig.clearHistory();
  rig.type('/rewind');
  rig.keys('Enter');
  await rig.waitFor('go back to before which turn?');
  rig.keys('Down', 'Down', 'Enter');
  await rig.waitFor('Rewind to before turn 2: write two');
  rig.keys('Escape');
  await rig.waitFor(/go back to before which turn\?[\s\S]*› turn 2/);
  rig.keys('Up', 'Up', 'Enter');
  await rig.waitFor('Rewind to before turn 4: what changed?');
  rig.keys('Escape', 'Escape');
  await rig.waitFor(/^(?![\s\S]*Rewind)[\s\S]*mock-model/);

  rig.type('/rewind');
  rig.keys('Enter');
  // Undone changes are still listed, marked.
  await rig.waitFor(/turn 2 +write two[\s│]+changed two\.txt \(undone\)/);
  rig.keys('Down', 'Down', 'Enter');
  await rig.waitFor('Rewind to before turn 2: write two');
  rig.keys('Down', 'Down');
  const preview = await rig.waitFor(/› Conversation only/);
  expect(preview).toContain('without this turn and the 2 after it');
  expect(preview).not.toContain('restores');
  rig.keys('Enter');
  await rig.waitFor(/the conversation continues in thread [0-9a-f-]{36}, a copy of\s+[0-9a-f-]{36} up to\s+before turn 2/);
  await rig.waitFor(/› write two/);
  // The fork's history shows the commands as they looked live, not the framing the model was sent.
  const replayed = rig.history();
  expect(replayed).toMatch(/Ran sed -i 's\/hello\/hello one\/' README\.md/);
  expect(replayed).not.toMatch(/Chunk ID|Wall time|Process exited with code/);
  mock.enqueue({ text: 'written again' });
  rig.keys('Enter');
  await rig.waitFor('written again');
  const sent = lastRequest();
  expect(sent).toContain('edit the readme');
  expect(sent).toContain('write two');
  expect(sent).not.toContain('just talk');
  expect(sent).not.toContain('talked only');
}, 60_000);
