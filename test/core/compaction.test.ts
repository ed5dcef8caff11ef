import { describe, expect, it } from 'vitest';
import { Thread } from '../../src/core/thread.js';
import { compactThread, userMessageBudget } from '../../src/core/compaction.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { SUMMARY_PROMPT, estimateTokens } from '../../src/context/index.js';
import { messageText, type ModelEvent, type ThreadEvent } from '../../src/protocol/index.js';
import type { ModelRequest } from '../../src/model/types.js';
import { ScriptedClient, usage } from '../support/scripted-client.js';

const noCaps = () => ({
  exec: async () => { throw new Error('unused'); },
  writeStdin: async () => { throw new Error('unused'); },
  applyChanges: async () => ({ ok: false, message: 'unused' }),
  canWrite: () => false,
});

function lastUserText(request: ModelRequest): string {
  for (let i = request.input.length - 1; i >= 0; i--) {
    const item = request.input[i]!;
    if (item.type === 'message' && item.role === 'user') return messageText(item);
  }
  return '';
}

/** A model that reports usage like a provider would and answers summary requests. */
function windowedModel(window: number, seen: { tokens: number[]; summaries: number }) {
  return (request: ModelRequest): AsyncIterable<ModelEvent> => {
    const tokens = estimateTokens(request.input) + Math.ceil(request.instructions.length / 4);
    seen.tokens.push(tokens);
    const isSummary = lastUserText(request) === SUMMARY_PROMPT;
    if (isSummary) seen.summaries += 1;
    const text = tokens > window
      ? undefined
      : isSummary
        ? `summary #${seen.summaries}: the user has sent numbered instructions; keep following the latest`
        : `ack ${lastUserText(request).slice(0, 20)} ${'x'.repeat(2000)}`;
    return (async function* (): AsyncIterable<ModelEvent> {
      yield { type: 'created' };
      if (text === undefined) {
        yield { type: 'error', error: { kind: 'context_length', message: 'context window exceeded' } };
        return;
      }
      yield { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } };
      yield { type: 'completed', stop_reason: 'end_turn', usage: usage(tokens, Math.ceil(text.length / 4)) };
    })();
  };
}

describe('compaction', () => {
  it('keeps a 200-turn session inside the window and keeps the latest instruction', async () => {
    const window = 8_000;
    const seen = { tokens: [] as number[], summaries: 0 };
    const model = windowedModel(window, seen);
    const client = new ScriptedClient(Array.from({ length: 1000 }, () => model));
    const events: ThreadEvent[] = [];
    const thread = new Thread({
      id: 't', cwd: '/tmp',
      runtime: {
        model: 'm', client, tools: new ToolRegistry(), instructions: 'be brief', capabilities: noCaps,
        autoCompact: {
          limit: Math.floor(window * 0.9),
          compact: async (target) =>
            (await compactThread(target, { config: {}, model: 'm', maxUserTokens: userMessageBudget(Math.floor(window * 0.9)) })).status === 'completed',
        },
      },
    });
    thread.subscribe(({ event }) => events.push(event));
    for (let turn = 1; turn <= 200; turn++) {
      const result = await thread.runTurn({ text: `instruction ${turn}: ${'detail '.repeat(50)}` });
      expect(result.status, `turn ${turn}: ${result.error}`).toBe('completed');
    }
    expect(Math.max(...seen.tokens)).toBeLessThanOrEqual(window);
    expect(seen.summaries).toBeGreaterThan(5);
    const lastRequest = client.requests.at(-1)!;
    expect(lastUserText(lastRequest)).toContain('instruction 200:');
    expect(events.filter((e) => e.type === 'item.completed' && e.item.type === 'context_compaction')).toHaveLength(seen.summaries);
  });

  it('keeps the last request verbatim and the summary after a manual compaction', async () => {
    const client = new ScriptedClient([
      [{ type: 'created' }, { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'first answer' }] } }, { type: 'completed', stop_reason: 'end_turn' }],
      [{ type: 'created' }, { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'SUMMARY TEXT' }] } }, { type: 'completed', stop_reason: 'end_turn' }],
    ]);
    const thread = new Thread({ id: 't', cwd: '/tmp', runtime: { model: 'm', client, tools: new ToolRegistry(), instructions: '', capabilities: noCaps } });
    await thread.runTurn({ text: 'please refactor the parser' });
    const result = await compactThread(thread, { config: {}, model: 'm' });
    expect(result.status).toBe('completed');
    expect(lastUserText(client.requests[1]!)).toBe(SUMMARY_PROMPT);
    const texts = thread.history.map((item) => (item.type === 'message' ? messageText(item) : item.type));
    expect(texts[0]).toBe('please refactor the parser');
    expect(texts[1]).toContain('SUMMARY TEXT');
    expect(texts).toHaveLength(2);
  });

  it('compacts and retries when a request fails for context length', async () => {
    const fail: ModelEvent[] = [{ type: 'created' }, { type: 'error', error: { kind: 'context_length', message: 'too long' } }];
    const reply = (text: string): ModelEvent[] => [{ type: 'created' }, { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } }, { type: 'completed', stop_reason: 'end_turn' }];
    const client = new ScriptedClient([fail, reply('the summary'), reply('answer after compaction')]);
    const thread = new Thread({
      id: 't', cwd: '/tmp',
      runtime: {
        model: 'm', client, tools: new ToolRegistry(), instructions: '', capabilities: noCaps,
        onContextOverflow: async (target) => (await compactThread(target, { config: {}, model: 'm' })).status === 'completed',
      },
    });
    const result = await thread.runTurn({ text: 'go' });
    expect(result.status).toBe('completed');
    expect(result.lastAgentMessage).toBe('answer after compaction');
  });
});
