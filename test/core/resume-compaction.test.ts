// A resumed thread's compaction records refer to the items the rollout already holds by index
// (rollout-recorder.ts). When loading had to repair the history (a call whose output a crash never
// wrote is answered as aborted), the repaired history is not what the file holds: indices into it
// would point at the wrong items, so kept items are written out in full instead. Either way, a
// reader of the rollout rebuilds exactly the history the thread had.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readRollout, reconstructThread } from '../../src/store/index.js';
import { ScriptedClient, call, callTools, say } from '../support/scripted-client.js';
import { startTestThread, writeTestHome } from '../support/engine.js';

let base = '';
let home = '';
let ws = '';

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-resume-compact-')));
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  writeTestHome(home);
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const request = { ephemeral: false, overrides: { harness: 'native' } } as const;

/** A stored thread of two turns; the first one's tool call is answered by `callId`'s output line. */
async function storedThread(callId: string): Promise<{ id: string; file: string }> {
  const client = new ScriptedClient([callTools(call('update_plan', { plan: [{ step: 'look', status: 'in_progress' }] }, callId)), say('first answer'), say('second answer')]);
  const started = await startTestThread({ home, cwd: ws, client, request });
  expect((await started.thread.startTurn({ text: 'first prompt' }).done).status).toBe('completed');
  expect((await started.thread.startTurn({ text: 'second prompt' }).done).status).toBe('completed');
  const file = started.thread.info.rolloutPath!;
  await started.close();
  return { id: started.thread.id, file };
}

async function resumeAndCompact(id: string): Promise<{ history: unknown[]; warnings: string[] }> {
  const started = await startTestThread({ home, cwd: ws, client: new ScriptedClient([say('summary of both prompts')]), request, resume: id });
  expect((await started.thread.compact().done).status).toBe('completed');
  const history = [...started.thread.history];
  const warnings = started.thread.info.warnings;
  await started.close();
  return { history, warnings };
}

it('compaction after a plain resume refers to kept items by index, and the rollout rebuilds the same history', async () => {
  const { id, file } = await storedThread('call_plain');
  const { history } = await resumeAndCompact(id);
  const compacted = readRollout(file).records.filter((record) => record.type === 'compacted');
  expect(compacted).toHaveLength(1);
  expect(compacted[0]!.payload).toMatchObject({ replacement: expect.arrayContaining([expect.any(Number)]) });
  expect(reconstructThread(readRollout(file).records).history).toEqual(history);
});

it('compaction after a resume that repaired the history still rebuilds the same history', async () => {
  const { id, file } = await storedThread('call_lost');
  // As if rig had been killed before the call's output line was written.
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const output = lines.findIndex((line) => line.includes('"function_call_output"') && line.includes('call_lost'));
  expect(output).toBeGreaterThan(0);
  lines.splice(output, 1);
  fs.writeFileSync(file, lines.join('\n'));

  const { history, warnings } = await resumeAndCompact(id);
  expect(warnings.join('\n')).toContain('answered call call_lost, which has no output, as aborted');
  const texts = JSON.stringify(history);
  expect(texts).toContain('first prompt');
  expect(texts).toContain('second prompt');
  expect(reconstructThread(readRollout(file).records).history).toEqual(history);
});
