import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { assistantText, userText } from '../../src/protocol/index.js';
import {
  RolloutWriter,
  forkRollout,
  newThreadId,
  readRollout,
  reconstructThread,
  responseItemRecord,
  resumeRollout,
  rolledBackRecord,
  sessionMetaFor,
  turnContextRecord,
} from '../../src/store/index.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-fork-'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

function threeTurns(): { id: string; path: string } {
  const id = newThreadId();
  const w = RolloutWriter.create({ home, threadId: id, meta: sessionMetaFor({ cwd: home, cliVersion: '0.1.0', model: 'gpt-5', noGit: true }) });
  for (const n of [1, 2, 3]) {
    w.append(turnContextRecord({ turn_id: `t${n}`, cwd: home, model: `m${n}` }));
    w.append(responseItemRecord(userText(`q${n}`)));
    w.append(responseItemRecord(assistantText(`a${n}`)));
  }
  w.close();
  return { id, path: w.path };
}

it('sessionMetaFor fills originator and reads git info', () => {
  expect(sessionMetaFor({ cwd: home, cliVersion: '1.2.3', harness: 'codex', noGit: true })).toEqual({
    cwd: home,
    originator: 'rig',
    cli_version: '1.2.3',
    harness: 'codex',
  });
});

it('resume rebuilds history and appends to the same file', () => {
  const src = threeTurns();
  const resumed = resumeRollout({ path: src.path });
  expect(resumed.threadId).toBe(src.id);
  expect(resumed.history).toHaveLength(6);
  expect(resumed.turnContext?.model).toBe('m3');
  resumed.writer.append(responseItemRecord(userText('q4')));
  resumed.writer.close();
  expect(reconstructThread(readRollout(src.path).records).history.at(-1)).toEqual(userText('q4'));
});

it('forks through a turn, before a turn, and keeps turn boundaries for rollback', () => {
  const src = threeTurns();
  const through = forkRollout({ home, sourcePath: src.path, lastTurnId: 't2' });
  through.writer.close();
  expect(through.history).toHaveLength(4);
  const read = readRollout(through.writer.path);
  expect(read.meta).toMatchObject({ id: through.threadId, forked_from_id: src.id });
  expect(reconstructThread(read.records).history).toEqual([userText('q1'), assistantText('a1'), userText('q2'), assistantText('a2')]);

  const before = forkRollout({ home, sourcePath: src.path, beforeTurnId: 't2' });
  expect(before.history).toEqual([userText('q1'), assistantText('a1')]);
  before.writer.append(rolledBackRecord(1));
  before.writer.close();
  expect(reconstructThread(readRollout(before.writer.path).records).history).toEqual([]);

  expect(() => forkRollout({ home, sourcePath: src.path, lastTurnId: 'nope' })).toThrow(/turn nope is not in/);
});
