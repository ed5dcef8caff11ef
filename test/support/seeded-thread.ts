// A stored thread to resume, shared by one test file: the loopback mock provider, a temp RIG_HOME
// and git repository, and one finished `rig exec` turn in them. Before each test the mock must
// have no scripted turn left (a test that stopped early would feed the next one).
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startMockProvider, type MockProvider } from './mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from './workspace.js';

export interface SeededThread {
  mock: MockProvider;
  home: string;
  repo: string;
  threadId: string;
}

/** Registers the file's hooks; `onReady` receives the thread once it is stored. */
export function useSeededThread(onReady: (seeded: SeededThread) => void): void {
  let seeded: SeededThread | undefined;
  beforeAll(async () => {
    const mock = await startMockProvider();
    const home = tempRigHome({ url: mock.url });
    const repo = tempGitRepo({ 'README.md': 'hello\n' });
    mock.enqueue({ text: 'ready when you are' });
    const run = await runRig(['exec', '--json', '--harness', 'native', 'start'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    seeded = { mock, home, repo, threadId: (jsonLines(run.stdout)[0] as { thread_id: string }).thread_id };
    onReady(seeded);
  }, 30_000);
  afterAll(async () => {
    if (!seeded) return;
    await seeded.mock.close();
    removeDir(seeded.home);
    removeDir(seeded.repo);
  });
  beforeEach(() => {
    expect(seeded?.mock.remaining()).toBe(0);
  });
}
