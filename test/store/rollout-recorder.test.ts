import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ThreadRecorder } from '../../src/core/recorder.js';
import { assistantText, userText } from '../../src/protocol/index.js';
import { RolloutRecorder, RolloutWriter, newThreadId, openIndex, readRollout, reconstructThread } from '../../src/store/index.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-recorder-'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

it('implements the core ThreadRecorder and feeds the index at flush', async () => {
  const id = newThreadId();
  const index = await openIndex(home);
  let flushes = 0;
  const writer = RolloutWriter.create({ home, threadId: id, meta: { cwd: '/w', originator: 'rig', cli_version: '0.1.0' } });
  const recorder: ThreadRecorder = new RolloutRecorder(writer, {
    onFlush: () => {
      flushes += 1;
      index.upsertThread({ id, rolloutPath: writer.path });
    },
  });
  const usage = { input_tokens: 5, cached_input_tokens: 1, cache_write_input_tokens: 0, output_tokens: 2, reasoning_output_tokens: 0 };
  recorder.turnStarted({ turn_id: 't1', cwd: '/w', model: 'gpt-5', sandbox_mode: 'workspace-write' });
  recorder.item(userText('refactor it'));
  recorder.modelResponse({ turn_id: 't1', step: 0, events: [{ type: 'text_delta', delta: 'ok' }, { type: 'item_done', item: assistantText('ok') }, { type: 'completed', stop_reason: 'end_turn', usage }] });
  recorder.item(assistantText('ok'));
  recorder.turnEnded({ turn_id: 't1', status: 'completed', usage });
  recorder.compacted({ summary: 'S', replacement: [userText('refactor it'), userText('S')] });
  recorder.flush();
  writer.close();

  expect(flushes).toBe(1);
  const read = readRollout(writer.path);
  expect(read.records.map((r) => r.type)).toEqual(['session_meta', 'turn_context', 'response_item', 'model_response', 'response_item', 'event_msg', 'compacted']);
  const thread = reconstructThread(read.records);
  expect(thread.history).toEqual([userText('refactor it'), userText('S')]);
  expect(thread.totalUsage).toEqual(usage);
  expect(thread.turnContext).toMatchObject({ model: 'gpt-5', sandbox_policy: 'workspace-write' });
  const row = index.findThread(id);
  expect(row).toMatchObject({ title: 'refactor it', model: 'gpt-5', usage: { input_tokens: 5, output_tokens: 2 } });
  index.close();
});
