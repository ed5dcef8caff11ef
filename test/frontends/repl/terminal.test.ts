// The terminal paths a pipe cannot reach, driven through tmux: the thread picker, the prompt,
// and Ctrl-C at the prompt ending the session.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { RIG_BIN, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let mock: MockProvider;
let home: string;
let repo: string;
const ids: string[] = [];
const session = `rig-repl-${process.pid}`;

const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', session);

async function waitFor(text: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = screen();
    if (shown.includes(text)) return shown;
    if (Date.now() > deadline) throw new Error(`the terminal never showed ${JSON.stringify(text)}; it shows:\n${shown}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  if (!hasTmux) return;
  mock = await startMockProvider();
  home = tempRigHome({ url: mock.url });
  repo = tempGitRepo({});
  for (const prompt of ['older thread', 'newer thread']) {
    mock.enqueue({ text: `answer to ${prompt}` });
    const run = await runRig(['exec', '--json', prompt], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    ids.push((JSON.parse(run.stdout.split('\n')[0]!) as { thread_id: string }).thread_id);
  }
}, 30_000);

afterAll(async () => {
  if (!hasTmux) return;
  try {
    tmux('kill-session', '-t', session);
  } catch {
    // already gone
  }
  await mock.close();
  removeDir(home);
  removeDir(repo);
});

test.skipIf(!hasTmux)('pick a thread by number, send a prompt, leave with Ctrl-C', async () => {
  const env = `RIG_HOME='${home}' HOME='${home}' MOCK_API_KEY=sk-mock`;
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', `cd '${repo}' && env ${env} '${process.execPath}' '${RIG_BIN}' resume --lines; echo EXIT=$?; sleep 30`);
  const picker = await waitFor('resume which? [1-2');
  expect(picker).toMatch(/ 1\) \S+.*newer thread/);
  expect(picker).toMatch(/ 2\) \S+.*older thread/);
  tmux('send-keys', '-t', session, '2', 'Enter');
  await waitFor(`resumed thread ${ids[0]}`);
  await waitFor('• answer to older thread');

  mock.enqueue({ text: 'typed on a terminal' });
  tmux('send-keys', '-t', session, 'hello from tmux', 'Enter');
  await waitFor('typed on a terminal');
  expect(JSON.stringify(mock.requests.at(-1)!.body.input)).toContain('hello from tmux');

  tmux('send-keys', '-t', session, 'C-c');
  await waitFor('EXIT=0');
}, 40_000);
