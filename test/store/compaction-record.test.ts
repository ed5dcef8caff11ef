// Compaction records in their compact form: kept items by their index in the history so far, new
// items in full. The reader rebuilds exactly the replacement, across compactions and resumes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { assistantText, userText, type ConversationItem } from '../../src/protocol/index.js';
import { RolloutRecorder, RolloutWriter, readRollout, reconstructThread } from '../../src/store/index.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-compact-record-'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

const META = { cwd: '/repo', originator: 'rig', cli_version: '0.1.0' };

it('writes kept items as indices, rebuilds the same history, and keeps doing so after a resume', () => {
  const writer = RolloutWriter.create({ home, threadId: '01a20000-0000-7000-8000-000000000001', meta: META });
  const recorder = new RolloutRecorder(writer);
  const context = userText('<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>');
  const prompt = userText('x'.repeat(50_000));
  const items: ConversationItem[] = [context, prompt, assistantText('working'), { type: 'function_call', call_id: 'c', name: 'shell', arguments: '{}' }];
  for (const item of items) recorder.item(item);
  const first = [context, prompt, userText('summary one')];
  recorder.compacted({ summary: 'summary one', replacement: first });
  recorder.item(assistantText('more work'));
  recorder.close();

  const records = readRollout(writer.path).records;
  const compacted = records.find((r) => r.type === 'compacted')!;
  expect(compacted.payload).toEqual({ message: 'summary one', replacement: [0, 1, userText('summary one')], history_length: 4 });
  expect(reconstructThread(records).history).toEqual([...first, assistantText('more work')]);

  // A resumed recorder starts from the rebuilt history, so its compactions refer to it too.
  const resumed = reconstructThread(records).history;
  const again = new RolloutRecorder(RolloutWriter.open({ path: writer.path }), { history: resumed });
  again.compacted({ summary: 'summary two', replacement: [resumed[0]!, resumed[1]!, userText('summary two')] });
  again.close();
  const all = readRollout(writer.path).records;
  expect(all.filter((r) => r.type === 'compacted').at(-1)!.payload).toEqual({ message: 'summary two', replacement: [0, 1, userText('summary two')], history_length: 4 });
  expect(reconstructThread(all).history).toEqual([context, prompt, userText('summary two')]);
  // The 50,000-character prompt is on disk once.
  expect(fs.readFileSync(writer.path, 'utf8').split('x'.repeat(50_000)).length - 1).toBe(1);
});

it('still reads the full replacement_history form', () => {
  const writer = RolloutWriter.create({ home, threadId: '01a20000-0000-7000-8000-000000000002', meta: META });
  writer.append({ type: 'response_item', payload: userText('q1') });
  writer.append({ type: 'compacted', payload: { message: 's', replacement_history: [userText('q1'), userText('s')] } });
  writer.close();
  expect(reconstructThread(readRollout(writer.path).records).history).toEqual([userText('q1'), userText('s')]);
});
