// Where the bench runs: the built CLI of this checkout, a temp git repository to run it in, temp
// homes pointing the `mock` provider at a loopback mock, and a clean environment for children.
import { join } from 'node:path';
import { removeDir, tempGitRepo, tempRigHome } from '../test/support/workspace.js';

export interface BenchEnv {
  repoRoot: string;
  rigBin: string;
  /** A git repository with a few files, the cwd of every session. */
  repo: string;
  /** A fresh RIG_HOME whose `mock` provider points at url. */
  mockHome(url: string, extra?: string): string;
  childEnv(home: string): NodeJS.ProcessEnv;
  cleanup(): void;
}

export function createBenchEnv(repoRoot: string): BenchEnv {
  const dirs: string[] = [];
  const repo = tempGitRepo({ 'README.md': '# bench\n', 'src/index.js': 'export const answer = 42;\n' });
  dirs.push(repo);
  return {
    repoRoot,
    rigBin: join(repoRoot, 'bin', 'rig.js'),
    repo,
    mockHome(url, extra) {
      const home = tempRigHome({ url, ...(extra ? { extra } : {}) });
      dirs.push(home);
      return home;
    },
    childEnv(home) {
      return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-bench-0123456789' };
    },
    cleanup() {
      for (const dir of dirs) removeDir(dir);
    },
  };
}
