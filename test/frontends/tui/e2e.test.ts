// The interactive session end to end: the real `rig` process in tmux against the loopback mock
// provider, a temp RIG_HOME and a temp git repo; only harmless commands, in the sandbox. Each test
// drives the session on from where the last one left it and checks the screen with capture-pane.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { membersOf, processGroupsWith, waitUntil } from '../exec/helpers.js';
import { hasTmux, tmuxRig, type TmuxRig } from './support/tmux.js';

let mock: MockProvider;
let home: string;
let repo: string;
let rig: TmuxRig;
const screen = () => rig.screen();
const keys = (...names: string[]) => rig.keys(...names);
const type = (text: string) => rig.type(text);
const waitFor = (what: string | RegExp, timeoutMs?: number) => rig.waitFor(what, timeoutMs);
const launch = (args: string) => rig.launch(args, { cwd: repo, home });

/** The text of every input item of request `n` (1-based), for what the model was told. */
function requestText(n: number): string {
  return JSON.stringify(mock.requests[n - 1]!.body);
}

beforeAll(async () => {
  if (!hasTmux) return;
  mock = await startMockProvider();
  home = tempRigHome({ url: mock.url });
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  rig = tmuxRig('rig-tui-e2e');
}, 30_000);

afterAll(async () => {
  if (!hasTmux) return;
  rig?.close();
  await mock?.close();
  removeDir(home);
  removeDir(repo);
});

test.skipIf(!hasTmux)('starts on a new thread: the status line names the model, harness, sandbox and approvals', async () => {
  launch('--harness native -s workspace-write -a untrusted');
  const shown = await waitFor('mock-model');
  expect(shown).toContain('native');
  expect(shown).toContain('workspace-write · untrusted');
  expect(shown).not.toContain('EXIT=');
}, 30_000);

test.skipIf(!hasTmux)('a multi-line prompt is one message; the answer streams into the transcript', async () => {
  mock.enqueue({ text: 'Hello from **the mock**: both lines arrived.', deltaSize: 4 });
  type('first line of the task');
  keys('C-j');
  type('second line of the task');
  keys('Enter');
  await waitFor('both lines arrived.');
  const sent = requestText(mock.requests.length);
  expect(sent).toContain('first line of the task\\nsecond line of the task');
  expect(screen()).toMatch(/% context left/);
}, 30_000);

test.skipIf(!hasTmux)('approve a command once: the modal shows it, "y" runs it', async () => {
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch approved.txt' } }] }, { text: 'made approved.txt' });
  type('make a file');
  keys('Enter');
  const modal = await waitFor('Run this command?');
  expect(modal).toContain('touch approved.txt');
  expect(modal).toContain('Yes, run it once');
  expect(modal).toMatch(/don't ask again for commands starting with/);
  type('y');
  await waitFor('made approved.txt');
  expect(existsSync(join(repo, 'approved.txt'))).toBe(true);
}, 30_000);

test.skipIf(!hasTmux)('deny with feedback: the command does not run and the model gets the words', async () => {
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch denied.txt' } }] }, { text: 'understood, other name' });
  type('make another file');
  keys('Enter');
  await waitFor('touch denied.txt');
  type('n');
  await waitFor('what should it do instead?');
  type('call it other.txt instead');
  keys('Enter');
  await waitFor('understood, other name');
  expect(existsSync(join(repo, 'denied.txt'))).toBe(false);
  expect(requestText(mock.requests.length)).toContain('call it other.txt instead');
}, 30_000);

// `; true` keeps the shell (bash would exec a lone sleep), so a process whose command line shows
// the marker is there even when the command runs in a sandbox started ahead of it: that bwrap's
// own command line holds the launcher, not the command.
test.skipIf(!hasTmux)('Esc interrupts the turn and its command: the process group is gone', async () => {
  const marker = `rig-tui-esc-${process.pid}-${Date.now()}`;
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `sleep 30; true # ${marker}`, yield_time_ms: 30_000 } }] });
  type('run the sleeper');
  keys('Enter');
  await waitFor('Run this command?');
  type('y');
  await waitUntil(() => membersOf(processGroupsWith(marker)).length >= 2, 15_000, 'the sandboxed sleep to start');
  const groups = processGroupsWith(marker);
  keys('Escape');
  await waitFor(/interrupted/);
  await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the command to be killed');
}, 30_000);

test.skipIf(!hasTmux)('Enter while a turn runs queues a steering message, delivered at the next tool boundary', async () => {
  const marker = `rig-tui-steer-${process.pid}-${Date.now()}`;
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `sleep 2; true # ${marker}`, yield_time_ms: 10_000 } }] }, { text: 'took the steer' });
  type('a slow one');
  keys('Enter');
  await waitFor('Run this command?');
  type('y');
  await waitUntil(() => membersOf(processGroupsWith(marker)).length >= 2, 15_000, 'the sandboxed sleep to start');
  const before = mock.requests.length;
  type('also mention the weather');
  keys('Enter');
  await waitFor('also mention the weather');
  await waitFor('took the steer');
  expect(mock.requests.length).toBe(before + 1);
  expect(requestText(before + 1)).toContain('also mention the weather');
}, 30_000);

test.skipIf(!hasTmux)('/status shows the session; /model changes it from the next turn; /compact compacts', async () => {
  type('/status');
  keys('Enter');
  const status = await waitFor('context window');
  expect(status).toMatch(/model\s*: mock-model/);
  expect(status).toMatch(/approvals\s*: untrusted/);

  type('/model other-model high');
  keys('Enter');
  await waitFor('from the next turn: model other-model');
  await waitFor(/other-model high/);

  mock.enqueue({ text: 'SUMMARY: files made, a weather steer taken.' });
  const before = mock.requests.length;
  type('/compact');
  keys('Enter');
  await waitUntil(() => mock.requests.length === before + 1, 15_000, 'the compaction request');
  expect(JSON.stringify(mock.requests[before]!.body)).toContain('other-model');
  await waitFor('Context compacted');
}, 30_000);

test.skipIf(!hasTmux)('an unknown /word is not sent to the model', async () => {
  const before = mock.requests.length;
  type('/frobnicate now');
  keys('Enter');
  await waitFor('unknown command /frobnicate');
  expect(mock.requests.length).toBe(before);
}, 30_000);

test.skipIf(!hasTmux)('"a" approves the command (its prefix shown) for the session; "s" declines and stops the turn', async () => {
  mock.enqueue(
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'mkdir -p session-dir' } }] },
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'mkdir -p session-dir' } }] },
    { text: 'ran it twice, asked once' },
  );
  type('make a directory twice');
  keys('Enter');
  const modal = await waitFor('Run this command?');
  expect(modal).toContain("don't ask again for commands starting with `mkdir -p session-dir`");
  type('a');
  await waitFor('ran it twice, asked once');
  expect(screen()).not.toContain('You approved once: mkdir');
  expect(existsSync(join(repo, 'session-dir'))).toBe(true);

  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'rm README.md' } }] });
  const before = mock.requests.length;
  type('remove the readme');
  keys('Enter');
  await waitFor('rm README.md');
  type('s');
  await waitFor('declined and stopped the turn');
  await waitFor(/interrupted/);
  expect(existsSync(join(repo, 'README.md'))).toBe(true);
  // Stopping sends nothing more to the model.
  expect(mock.requests.length).toBe(before + 1);
}, 30_000);

test.skipIf(!hasTmux)('a file change is approved from its diff; /diff shows what the session changed', async () => {
  const patch = ['*** Begin Patch', '*** Update File: README.md', '@@', '-hello', '+hello world', '*** End Patch', ''].join('\n');
  mock.enqueue({ toolCalls: [{ name: 'apply_patch', kind: 'custom', input: patch }] }, { text: 'edited the readme' });
  type('fix the readme');
  keys('Enter');
  const modal = await waitFor('Apply this change?');
  expect(modal).toContain('+hello world');
  type('y');
  await waitFor('edited the readme');
  rig.clearHistory();
  type('/diff');
  keys('Enter');
  await waitFor(/README\.md[\s\S]*-hello\s*\n[\s\S]*\+hello world/);
}, 30_000);

test.skipIf(!hasTmux)('/undo puts back the file the last turn changed; a bad count is refused', async () => {
  expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello world\n');
  type('/undo');
  keys('Enter');
  await waitFor('undid the last turn: put back README.md');
  expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello\n');
  type('/undo 2x');
  keys('Enter');
  await waitFor('/undo takes a number of turns and --force');
}, 30_000);

test.skipIf(!hasTmux)('/rename names the thread: the status line shows it', async () => {
  type('/rename weather and files');
  keys('Enter');
  await waitFor('thread named weather and files');
  await waitFor(/untrusted · native · weather and files *$/m);
}, 30_000);

test.skipIf(!hasTmux)('Ctrl+D on an empty prompt leaves, restoring the terminal, and says how to resume', async () => {
  keys('C-d');
  const shown = await waitFor('EXIT=0');
  expect(shown).toMatch(/rig resume [0-9a-f-]{36}/);
}, 30_000);

test.skipIf(!hasTmux)('rig resume with no id opens the picker; a search finds the thread; its history is shown', async () => {
  launch('resume --harness native');
  await waitFor('Resume a thread');
  // Named threads are listed by their name; the search also reads what was said in them.
  await waitFor('weather and files');
  type('second line');
  await waitFor('search: second line');
  keys('Enter');
  await waitFor('ran it twice, asked once');
  mock.enqueue({ text: 'back again' });
  type('are you there?');
  keys('Enter');
  await waitFor('back again');
  keys('C-d');
  await waitFor('EXIT=0');
}, 30_000);

test.skipIf(!hasTmux)('tui.alternate_screen = "always" takes the alternate screen; --no-alt-screen overrides it', async () => {
  const alternate = () => rig.pane('alternate_on');
  launch(`--harness native -c tui.alternate_screen='"always"'`);
  await waitFor('mock-model');
  expect(alternate()).toBe('1');
  keys('C-d');
  await waitFor('EXIT=0');
  expect(alternate()).toBe('0');

  launch(`--harness native -c tui.alternate_screen='"always"' --no-alt-screen`);
  await waitFor('mock-model');
  expect(alternate()).toBe('0');
  keys('C-d');
  await waitFor('EXIT=0');
}, 30_000);

test.skipIf(!hasTmux)('a thread that cannot be opened ends the session with the reason, after the terminal is back', async () => {
  launch('resume 00000000-0000-0000-0000-00000000dead');
  const shown = await waitFor('EXIT=1');
  expect(shown).toMatch(/rig: .*00000000-0000-0000-0000-00000000dead/);
  // The TUI's live region is gone: no status line or composer is left behind.
  expect(shown).not.toContain('Ask rig anything');
}, 30_000);

/** Whether a styled capture sets a foreground colour (SGR 30-38 or 90-97; 39 is the default). */
function hasColour(styled: string): boolean {
  for (const match of styled.matchAll(/\u001b\[([0-9;]*)m/g)) {
    if (match[1]!.split(';').some((param) => /^(3[0-8]|9[0-7])$/.test(param))) return true;
  }
  return false;
}

test.skipIf(!hasTmux)('colour unless NO_COLOR; TERM=dumb gets plain lines and still works', async () => {
  // An empty NO_COLOR is no NO_COLOR (no-color.org): colours on.
  rig.launch('--harness native', { cwd: repo, home, env: 'NO_COLOR=' });
  await waitFor('mock-model');
  mock.enqueue({ text: 'a **bold** answer' });
  type('colour please');
  keys('Enter');
  await waitFor('a bold answer');
  expect(hasColour(rig.styled())).toBe(true);
  keys('C-d');
  await waitFor('EXIT=0');

  rig.launch('--harness native', { cwd: repo, home });
  await waitFor('mock-model');
  mock.enqueue({ text: 'a **bold** answer again' });
  type('no colour please');
  keys('Enter');
  await waitFor('a bold answer again');
  expect(hasColour(rig.styled())).toBe(false);
  keys('C-d');
  await waitFor('EXIT=0');

  rig.launch('--harness native', { cwd: repo, home, env: 'TERM=dumb' });
  // No status line on a dumb terminal: the composer's row is all there is.
  await waitFor('Ask rig anything');
  mock.enqueue({ text: 'plain answer on a dumb terminal' });
  type('dumb terminal prompt');
  keys('Enter');
  await waitFor('plain answer on a dumb terminal');
  keys('C-d');
  await waitFor('EXIT=0');
}, 40_000);

test.skipIf(!hasTmux)('rig "prompt" on a terminal opens the session with the prompt sent first', async () => {
  mock.enqueue({ text: 'answered the prompt from the command line' });
  const n = mock.requests.length + 1;
  launch(`--harness native 'a prompt from argv'`);
  await waitFor('answered the prompt from the command line');
  expect(requestText(n)).toContain('a prompt from argv');
  expect(screen()).toContain('› a prompt from argv');
  keys('C-d');
  await waitFor('EXIT=0');
}, 30_000);
