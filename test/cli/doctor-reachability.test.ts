// `rig doctor` asks the provider whether it answers (a GET of its models list, no tokens spent),
// through the built CLI against the loopback mock; the key goes out but is never printed.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { closedPort } from '../frontends/exec/helpers.js';

const KEY = 'sk-mock-secret-0123456789';
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

function home(url = mock.url): string {
  const dir = tempRigHome({ url });
  homes.push(dir);
  return dir;
}

test('a provider that answers is reported reachable; the key is sent, never printed', async () => {
  const before = mock.requests.length;
  const run = await runRig(['doctor'], { cwd: repo, home: home() });
  expect(run.stdout).toMatch(new RegExp(`\\nprovider endpoint: reachable \\(GET ${mock.url}/models answered HTTP 200 in \\d+ ms\\)\\n`));
  const requests = mock.requests.slice(before);
  expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  expect(requests[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
  expect(run.stdout + run.stderr).not.toContain(KEY);
});

test('an unreachable base_url is a problem (exit 1) that says what happened', async () => {
  const port = await closedPort();
  const run = await runRig(['doctor'], { cwd: repo, home: home(`http://127.0.0.1:${port}/v1`) });
  expect(run.code).toBe(1);
  expect(run.stdout).toContain(
    `PROBLEM: provider endpoint: cannot reach http://127.0.0.1:${port}/v1/models: connect ECONNREFUSED (check base_url of provider 'mock') (rig doctor --offline skips this check)\n`,
  );
});

test('a rejected key is a problem', async () => {
  mock.setModelsAnswer(401);
  try {
    const run = await runRig(['doctor'], { cwd: repo, home: home() });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/PROBLEM: provider endpoint: the provider rejected the key \(GET \S+\/models answered HTTP 401 in \d+ ms\): check MOCK_API_KEY/);
    expect(run.stdout).not.toContain(KEY);
  } finally {
    mock.setModelsAnswer(200, { object: 'list', data: [] });
  }
});

test('--offline skips the check and sends nothing', async () => {
  const before = mock.requests.length;
  const port = await closedPort();
  const run = await runRig(['doctor', '--offline'], { cwd: repo, home: home(`http://127.0.0.1:${port}/v1`) });
  expect(run.stdout).toContain('provider endpoint: not checked (--offline)\n');
  expect(run.stdout).not.toContain('PROBLEM: provider endpoint');
  expect(mock.requests.length).toBe(before);
});
