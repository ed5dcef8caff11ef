// `rig exec` on a real terminal (a pty): the answer streams, appears once, and stays uncoloured.
import { spawn } from '@lydell/node-pty';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { progress, RIG_BIN, removeDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
let repo: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'note.txt': 'alpha\n' });
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

test('on a terminal every message streams once and the final answer is not repeated', async () => {
  mock.enqueue(
    { text: 'Let me read it.', toolCalls: [{ name: 'exec_command', arguments: { cmd: 'cat note.txt' } }] },
    { text: 'The note says alpha.', deltaSize: 3 },
  );
  const pty = spawn(process.execPath, [RIG_BIN, 'exec', '--harness', 'native', '--color', 'never', 'read the note'], {
    cwd: repo,
    cols: 200,
    rows: 40,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-secret-0123456789', TERM: 'xterm' },
  });
  let output = '';
  pty.onData((data) => (output += data));
  const exitCode = await new Promise<number>((resolve) => pty.onExit(({ exitCode: code }) => resolve(code)));

  expect(exitCode).toBe(0);
  // The terminal turns \n into \r\n; stdout and stderr interleave in order.
  expect(progress(output.replace(/\r\n/g, '\n'))).toBe('Let me read it.\n$ cat note.txt\n  alpha\n  exit 0\nThe note says alpha.\n');
});
