// A tracker's baseline (up to checkpoints.max_baseline_mb per thread) is deleted when its thread
// closes. A rig that was SIGKILLed mid-turn leaves it behind; the next thread that writes a
// checkpoint removes it, and leaves alone the baseline of a thread another rig still has open.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { startRig, waitUntil, type LiveRig } from '../frontends/exec/helpers.js';

let mock: MockProvider;
const dirs: string[] = [];
const live: LiveRig[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  for (const rig of live) rig.child.kill('SIGKILL');
  await Promise.all(live.map((rig) => rig.exited));
  await mock.close();
  for (const d of dirs) removeDir(d);
});

/** The tracker folders under the sessions folder. */
function trackers(home: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (!statSync(full).isDirectory()) continue;
      if (name === 'tracker' && dir.endsWith('.checkpoints')) found.push(full);
      else walk(full);
    }
  };
  if (existsSync(join(home, 'sessions'))) walk(join(home, 'sessions'));
  return found;
}

const FLAGS = ['exec', '--json', '--skip-git-repo-check', '--harness', 'native', '-s', 'workspace-write'];

/** A rig whose first command keeps running: its tracker is open and its thread locked. */
async function runningRig(ws: string, home: string): Promise<LiveRig> {
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo started; sleep 30', yield_time_ms: 30_000 } }] });
  const rig = startRig([...FLAGS, 'wait'], { cwd: ws, home });
  live.push(rig);
  await rig.waitForStdout('"item.started"');
  return rig;
}

test("a killed rig's tracker baseline is removed by the next checkpoint; a live thread's is kept", async () => {
  const ws = tempDir('stale-tracker');
  const home = tempRigHome({ url: mock.url });
  dirs.push(ws, home);
  writeFileSync(join(ws, 'a.txt'), 'alpha\n');

  const killed = await runningRig(ws, home);
  await waitUntil(() => trackers(home).length === 1, 10_000, 'the first thread to open its tracker');
  const [stale] = trackers(home);
  killed.child.kill('SIGKILL');
  await killed.exited;
  expect(existsSync(stale!)).toBe(true);

  const running = await runningRig(ws, home);
  await waitUntil(() => trackers(home).length === 2, 10_000, 'the running thread to open its tracker');
  const kept = trackers(home).find((dir) => dir !== stale)!;

  // A third thread changes a file: its checkpoint prunes, once per load.
  mock.enqueue({ toolCalls: [{ kind: 'custom', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: b.txt\n+bee\n*** End Patch' }] }, { text: 'added' });
  const third = await runRig([...FLAGS, 'add a file'], { cwd: ws, home });
  expect(third.code, third.stderr).toBe(0);

  expect(existsSync(stale!)).toBe(false);
  expect(existsSync(kept)).toBe(true);
  running.child.kill('SIGTERM');
  await running.exited;
});
