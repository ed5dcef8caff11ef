// A text-protocol session recorded by `rig exec` replays offline: the recording holds the
// synthesized tool calls (and mini-swe-agent's local ending), so the replay is not driven again and,
// from the same starting files, does the same work without a model.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { APP_AFTER, APP_BEFORE, PROMPT, SCRIPTS } from './scenario.js';

function rollouts(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? rollouts(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

describe('replaying text-protocol sessions', () => {
  for (const id of ['swe-agent', 'mini-swe-agent']) {
    it(`${id}: the recorded session replays to the same files and answer`, async () => {
      const script = SCRIPTS[id]!;
      const repo = tempGitRepo({ 'app.js': APP_BEFORE });
      const home = tempRigHome({ url: mock.url, wire: 'chat' });
      try {
        const sent = mock.requests.length;
        mock.enqueue(...script.turns(repo));
        const first = await runRig(['exec', '--harness', id, '-s', 'workspace-write', '-o', join(home, 'first.txt'), PROMPT], { cwd: repo, home });
        expect(first.code).toBe(0);
        expect(readFileSync(join(repo, 'app.js'), 'utf8')).toBe(APP_AFTER);
        // Back to the start (the recorded calls name absolute paths in this repository).
        writeFileSync(join(repo, 'app.js'), APP_BEFORE);
        const [recording] = rollouts(join(home, 'sessions'));

        const replay = await runRig(['exec', '--harness', id, '--replay', recording!, '-s', 'workspace-write', '-o', join(home, 'replay.txt'), PROMPT], { cwd: repo, home });
        expect(replay.stderr).not.toMatch(/diverges|rig: /);
        expect(replay.code).toBe(0);
        expect(mock.requests.length - sent).toBe(script.turns(repo).length);
        expect(readFileSync(join(repo, 'app.js'), 'utf8')).toBe(APP_AFTER);
        expect(readFileSync(join(home, 'replay.txt'), 'utf8')).toBe(readFileSync(join(home, 'first.txt'), 'utf8'));
      } finally {
        removeDir(repo);
        removeDir(home);
      }
    });
  }
});
