// A rollout whose last line was cut short (the process died mid-write): resume shows the history
// without the torn record and continues. SIGKILL rarely tears a line (each record is one write),
// so this cuts one by hand.
import { readFileSync, statSync, truncateSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseRollout, reconstructThread, scanRolloutFiles } from '../../../src/store/index.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
let home: string;
let repo: string;
let rollout: string;

beforeAll(async () => {
  mock = await startMockProvider();
  home = tempRigHome({ url: mock.url });
  repo = tempGitRepo({});
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo one' } }] }, { text: 'the last words' });
  const run = await runRig(['exec', 'tear me'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  rollout = [...scanRolloutFiles(home).values()][0]!.path;
  // Cut the last record (turn_complete) in half.
  const lines = readFileSync(rollout, 'utf8').split('\n');
  truncateSync(rollout, statSync(rollout).size - Math.floor(lines.at(-2)!.length / 2) - 1);
  expect(parseRollout(readFileSync(rollout, 'utf8')).tornTail).toBe(true);
}, 30_000);

afterAll(async () => {
  await mock.close();
  removeDir(home);
  removeDir(repo);
});

test('resume shows the history up to the torn line and continues', async () => {
  const history = reconstructThread(parseRollout(readFileSync(rollout, 'utf8')).records).history;
  const printed = await runRig(['resume', '--last', '--print-only'], { cwd: repo, home });
  expect(printed.code, printed.stderr).toBe(0);
  expect(printed.stderr).toBe('');
  expect(printed.stdout).toContain('› tear me\n$ echo one  → exit 0\n• the last words\n');

  mock.enqueue({ text: 'picked up again' });
  const resumed = await runRig(['resume', '--last'], { cwd: repo, home, input: 'go on\n' });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toContain('picked up again');
  expect((mock.requests.at(-1)!.body.input as unknown[]).length).toBe(history.length + 1);
});

// Tripwire for a store fix: RolloutWriter.open terminates a torn last line with "\n" instead of
// cutting it off, so the fragment becomes a corrupt line in the middle and every later read warns.
// When the writer truncates the fragment instead, this starts passing: drop `.fails` then.
test('after resuming, the torn fragment does not linger as a corrupt line', () => {
  expect(parseRollout(readFileSync(rollout, 'utf8')).warnings).toEqual([]);
});
