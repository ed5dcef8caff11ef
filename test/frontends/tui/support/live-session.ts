// One live `rig` session in tmux per test file: the loopback mock provider, a temp RIG_HOME and
// git repository, and the TUI launched in it and showing its status line.
import { startMockProvider, type MockProvider } from '../../../support/mock-provider/index.js';
import { removeDir, tempGitRepo, tempRigHome } from '../../../support/workspace.js';
import { tmuxRig, type TmuxRig } from './tmux.js';

export interface LiveSession {
  mock: MockProvider;
  home: string;
  repo: string;
  rig: TmuxRig;
}

export interface LiveSessionOptions {
  /** Files of the repository (default: a README). */
  files?: Record<string, string>;
  /** config.toml lines after the mock provider's tables. */
  extra?: string;
  /** Runs after the repository is made, before rig starts (e.g. to leave a change uncommitted). */
  prepare?(repo: string): void;
}

/** Starts the mock and `rig FLAGS` in a fresh repository; resolves once the status line shows. */
export async function startLiveSession(name: string, flags: string, options: LiveSessionOptions = {}): Promise<LiveSession> {
  const mock = await startMockProvider();
  const home = tempRigHome({ url: mock.url, ...(options.extra !== undefined ? { extra: options.extra } : {}) });
  const repo = tempGitRepo(options.files ?? { 'README.md': 'hello\n' });
  options.prepare?.(repo);
  const rig = tmuxRig(name);
  rig.launch(flags, { cwd: repo, home });
  await rig.waitFor('mock-model');
  return { mock, home, repo, rig };
}

export async function stopLiveSession(session: LiveSession | undefined): Promise<void> {
  if (!session) return;
  session.rig.close();
  await session.mock.close();
  removeDir(session.home);
  removeDir(session.repo);
}
