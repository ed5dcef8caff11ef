// worktree_changed events: the reader rebuilds which worktree a thread is in and where it works,
// whichever of a turn's cwd and a mid-turn move came last.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RolloutRecorder, RolloutWriter, readRollout, reconstructThread, type WorktreeRecord } from '../../src/store/index.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-worktree-record-'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

const WT: WorktreeRecord = { path: '/repo/.rig/worktrees/a', branch: 'worktree-a', base_commit: 'f'.repeat(40), original_cwd: '/repo/sub', repository: '/repo' };

function turnContext(recorder: RolloutRecorder, n: number, cwd: string): void {
  recorder.turnStarted({ turn_id: `turn_${n}`, cwd, model: 'm' });
}

it('a move after the newest turn started wins over that turn\'s cwd; leaving returns to where the thread came from', () => {
  const writer = RolloutWriter.create({ home, threadId: '01a20000-0000-7000-8000-0000000000aa', meta: { cwd: '/repo/sub', originator: 'rig', cli_version: '0.1.0' } });
  const recorder = new RolloutRecorder(writer);
  turnContext(recorder, 0, '/repo/sub');
  recorder.worktreeChanged(WT);
  let rebuilt = reconstructThread(readRollout(writer.path).records);
  expect(rebuilt.worktree).toEqual(WT);
  expect(rebuilt.workingDirectory).toBe(WT.path);

  turnContext(recorder, 1, WT.path);
  recorder.worktreeChanged(null);
  rebuilt = reconstructThread(readRollout(writer.path).records);
  expect(rebuilt.worktree).toBeUndefined();
  expect(rebuilt.workingDirectory).toBe('/repo/sub');

  turnContext(recorder, 2, '/repo/sub');
  recorder.close();
  rebuilt = reconstructThread(readRollout(writer.path).records);
  expect(rebuilt.workingDirectory).toBe('/repo/sub');
  expect(rebuilt.turnContext?.cwd).toBe('/repo/sub');
});

it('a malformed worktree event is ignored', () => {
  const writer = RolloutWriter.create({ home, threadId: '01a20000-0000-7000-8000-0000000000ab', meta: { cwd: '/repo', originator: 'rig', cli_version: '0.1.0' } });
  const recorder = new RolloutRecorder(writer);
  turnContext(recorder, 0, '/repo');
  writer.append({ type: 'event_msg', payload: { type: 'worktree_changed', worktree: { path: '/x' } } });
  recorder.close();
  const rebuilt = reconstructThread(readRollout(writer.path).records);
  expect(rebuilt.worktree).toBeUndefined();
  expect(rebuilt.workingDirectory).toBe('/repo');
});
