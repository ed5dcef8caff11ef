import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantText, userText, type ModelEvent } from '../../src/protocol/index.js';
import {
  RolloutWriter,
  looksLikeContextFragment,
  modelResponseRecord,
  newThreadId,
  parseRolloutFileName,
  readRollout,
  readRolloutMeta,
  reconstructThread,
  recordedModelResponses,
  responseItemRecord,
  rolledBackRecord,
  threadIdTime,
  tokenCountRecord,
  turnContextRecord,
} from '../../src/store/index.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-store-'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

const META = { cwd: '/repo', originator: 'rig', cli_version: '0.1.0', model: 'gpt-5', model_provider: 'openai', harness: 'codex' };

describe('thread ids', () => {
  it('are UUIDv7 with the creation time in the first 48 bits', () => {
    const id = newThreadId(1_700_000_000_123);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(threadIdTime(id)).toBe(1_700_000_000_123);
    expect(newThreadId()).not.toBe(newThreadId());
  });
});

describe('rollout writer and reader', () => {
  it('round-trips meta, items, turn context, usage and model responses', () => {
    const id = newThreadId();
    const now = new Date(2026, 0, 2, 3, 4, 5);
    const writer = RolloutWriter.create({ home, threadId: id, meta: META, now });
    expect(path.relative(home, writer.path)).toBe(
      path.join('sessions', '2026', '01', '02', `rollout-2026-01-02T03-04-05-${id}.jsonl`),
    );
    expect(parseRolloutFileName(path.basename(writer.path))?.threadId).toBe(id);
    writer.append(turnContextRecord({ turn_id: 't1', cwd: '/repo', model: 'gpt-5', approval_policy: 'on-request' }));
    writer.append(responseItemRecord(userText('hello')));
    const events: ModelEvent[] = [
      { type: 'created', response_id: 'r1' },
      { type: 'text_delta', delta: 'hi' },
      { type: 'item_done', item: assistantText('hi') },
      { type: 'completed', stop_reason: 'end_turn' },
    ];
    writer.append(modelResponseRecord({ events, turnId: 't1', step: 0 }));
    writer.append(responseItemRecord(assistantText('hi')));
    const usage = { input_tokens: 10, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 2, reasoning_output_tokens: 0 };
    writer.append(tokenCountRecord(usage, usage, 272000));
    writer.flush();
    writer.close();
    expect(() => writer.append(responseItemRecord(userText('late')))).toThrow(/closed/);

    const read = readRollout(writer.path);
    expect(read.warnings).toEqual([]);
    expect(read.tornTail).toBe(false);
    expect(read.meta).toMatchObject({ id, cwd: '/repo', model: 'gpt-5', harness: 'codex', cli_version: '0.1.0' });
    expect(read.meta?.timestamp).toBe(now.toISOString());
    expect(read.records.map((r) => r.type)).toEqual([
      'session_meta', 'turn_context', 'response_item', 'model_response', 'response_item', 'event_msg',
    ]);
    for (const r of read.records) expect(r.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(readRolloutMeta(writer.path)?.id).toBe(id);

    const thread = reconstructThread(read.records);
    expect(thread.history).toEqual([userText('hello'), assistantText('hi')]);
    expect(thread.turnContext?.approval_policy).toBe('on-request');
    expect(thread.totalUsage).toEqual(usage);
    const responses = recordedModelResponses(read.records);
    expect(responses).toHaveLength(1);
    // Deltas are not kept by default; the finished item is.
    expect(responses[0]!.events.map((e) => e.type)).toEqual(['created', 'item_done', 'completed']);
  });

  it('skips a torn last line quietly and keeps appending cleanly after reopening', () => {
    const writer = RolloutWriter.create({ home, threadId: newThreadId(), meta: META });
    writer.append(responseItemRecord(userText('one')));
    writer.close();
    fs.appendFileSync(writer.path, '{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payl');
    const torn = readRollout(writer.path);
    expect(torn.tornTail).toBe(true);
    expect(torn.warnings).toEqual([]);
    expect(reconstructThread(torn.records).history).toEqual([userText('one')]);

    const reopened = RolloutWriter.open({ path: writer.path });
    reopened.append(responseItemRecord(userText('two')));
    reopened.close();
    const after = readRollout(writer.path);
    // Reopening dropped the fragment, so it never becomes a corrupt line in the middle.
    expect(after.warnings).toEqual([]);
    expect(after.tornTail).toBe(false);
    expect(reconstructThread(after.records).history).toEqual([userText('one'), userText('two')]);
  });

  it('reports a corrupt middle line with its line number and continues', () => {
    const writer = RolloutWriter.create({ home, threadId: newThreadId(), meta: META });
    writer.append(responseItemRecord(userText('one')));
    fs.appendFileSync(writer.path, 'this is {not json\n');
    writer.append(responseItemRecord(userText('three')));
    writer.close();
    const read = readRollout(writer.path);
    expect(read.warnings).toHaveLength(1);
    expect(read.warnings[0]).toMatch(new RegExp(`${path.basename(writer.path)}:3: corrupt line`));
    expect(reconstructThread(read.records).history).toEqual([userText('one'), userText('three')]);
  });

  it('applies compaction replacement history and rollbacks on reconstruction', () => {
    const writer = RolloutWriter.create({ home, threadId: newThreadId(), meta: META });
    const turn = (n: number) => {
      writer.append(turnContextRecord({ cwd: '/repo', model: 'm', turn_id: `t${n}` }));
      writer.append(responseItemRecord(userText(`q${n}`)));
      writer.append(responseItemRecord(assistantText(`a${n}`)));
    };
    turn(1);
    turn(2);
    writer.append({ type: 'compacted', payload: { message: 'sum', replacement_history: [userText('q2'), userText('summary')] } });
    turn(3);
    turn(4);
    writer.append(rolledBackRecord(1));
    writer.close();
    const thread = reconstructThread(readRollout(writer.path).records);
    expect(thread.history).toEqual([userText('q2'), userText('summary'), userText('q3'), assistantText('a3')]);
    expect(thread.turns).toBe(4);
  });

  it('refuses to create a second rollout for the same thread id', () => {
    const id = newThreadId();
    const now = new Date();
    RolloutWriter.create({ home, threadId: id, meta: META, now }).close();
    expect(() => RolloutWriter.create({ home, threadId: id, meta: META, now })).toThrow(/already exists/);
  });

  it('costs well under a millisecond per item', () => {
    const writer = RolloutWriter.create({ home, threadId: newThreadId(), meta: META, secrets: ['sk-test-secret-value'] });
    const item = responseItemRecord({
      type: 'function_call_output',
      call_id: 'call_1',
      output: 'line of command output\n'.repeat(40),
    });
    const n = 2000;
    const start = performance.now();
    for (let i = 0; i < n; i++) writer.append(item);
    const perItemMs = (performance.now() - start) / n;
    writer.close();
    const bytesPerItem = writer.stats.bytes / writer.stats.records;
    // Loose bound for a loaded 2-core machine; typical is ~0.02 ms.
    expect(perItemMs).toBeLessThan(1);
    expect(bytesPerItem).toBeLessThan(1400);
  });
});

describe('context fragment detection for titles', () => {
  it('skips wrapped fragments but not prompts that merely start with a tag', () => {
    expect(looksLikeContextFragment('<environment_context>\n  <cwd>/r</cwd>\n</environment_context>')).toBe(true);
    expect(looksLikeContextFragment('<permissions instructions>\nx\n</permissions instructions>')).toBe(true);
    expect(looksLikeContextFragment('# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>')).toBe(true);
    expect(looksLikeContextFragment('<div> is misaligned, fix it')).toBe(false);
    expect(looksLikeContextFragment('fix <b>this</b>')).toBe(false);
  });
});
