// Anthropic's server web search on the Messages wire: a documented stream (fixture) parsed into
// neutral web_search_call items that keep their blocks, the blocks sent back unchanged, the server
// tool in the request, and the same search rendered as text on the wires that cannot replay it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import type { ConversationItem, ModelEvent, WebSearchCallItem } from '../../src/protocol/index.js';
import { buildMessagesBody, createMessagesParser } from '../../src/model/wires/messages.js';
import { buildChatBody } from '../../src/model/wires/chat.js';
import { buildResponsesBody } from '../../src/model/wires/responses.js';
import { baseRequest } from './helpers.js';

const FIXTURE = readFileSync(join(import.meta.dirname, '../fixtures/anthropic/web-search-stream.sse'), 'utf8');

function parseFixture(): ModelEvent[] {
  const parser = createMessagesParser(baseRequest());
  const events: ModelEvent[] = [];
  const sse = createParser({ onEvent: (message) => events.push(...parser.push(message)) });
  sse.feed(FIXTURE);
  return events;
}

function doneItems(events: ModelEvent[]): ConversationItem[] {
  return events.flatMap((event) => (event.type === 'item_done' ? [event.item] : []));
}

/** The assistant blocks of the fixture exactly as the stream delivered them, assembled. */
const SENT_BACK = [
  { type: 'text', text: "I'll check the weather in San Francisco." },
  { type: 'server_tool_use', id: 'srvtoolu_01FixtureA', name: 'web_search', input: { query: 'weather San Francisco today' } },
  {
    type: 'web_search_tool_result',
    tool_use_id: 'srvtoolu_01FixtureA',
    content: [
      { type: 'web_search_result', title: 'San Francisco forecast', url: 'https://weather.example/sf', encrypted_content: 'EqoBCioIAhgBFixtureOne', page_age: '3 hours ago' },
      { type: 'web_search_result', title: 'Bay Area weather', url: 'https://news.example/bay', encrypted_content: 'EqoBCioIAhgBFixtureTwo', page_age: null },
    ],
  },
  { type: 'server_tool_use', id: 'srvtoolu_01FixtureB', name: 'web_search', input: { query: 'SF fog' } },
  { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01FixtureB', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } },
  {
    type: 'text',
    text: 'It is sunny, with a high of 68F.',
    citations: [
      { type: 'web_search_result_location', cited_text: 'Sunny, high of 68F', url: 'https://weather.example/sf', title: 'San Francisco forecast', encrypted_index: 'EpMBCioIFixtureIdx' },
    ],
  },
];

describe("Anthropic's server web search", () => {
  it('parses the searches into items with query, results, error and their raw blocks, and counts them in usage', () => {
    const events = parseFixture();
    const items = doneItems(events);
    const searches = items.filter((item): item is WebSearchCallItem => item.type === 'web_search_call');
    expect(searches.map(({ raw: _raw, ...rest }) => rest)).toEqual([
      {
        type: 'web_search_call',
        id: 'srvtoolu_01FixtureA',
        status: 'completed',
        action: { type: 'search', query: 'weather San Francisco today' },
        results: [
          { title: 'San Francisco forecast', url: 'https://weather.example/sf', page_age: '3 hours ago' },
          { title: 'Bay Area weather', url: 'https://news.example/bay' },
        ],
      },
      { type: 'web_search_call', id: 'srvtoolu_01FixtureB', status: 'failed', action: { type: 'search', query: 'SF fog' }, error: 'max_uses_exceeded' },
    ]);
    const completed = events.at(-1);
    expect(completed).toMatchObject({ type: 'completed', stop_reason: 'end_turn', usage: { output_tokens: 510, web_search_requests: 2 } });
  });

  it('sends the assistant blocks back exactly as they came, without cache breakpoints leaking into the history', () => {
    const items = doneItems(parseFixture());
    const history: ConversationItem[] = [...baseRequest().input, ...items, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'and tomorrow?' }] }];
    const before = JSON.stringify(items);
    const body = buildMessagesBody(baseRequest({ input: history })) as { messages: { role: string; content: unknown[] }[] };
    expect(body.messages[1]).toEqual({ role: 'assistant', content: SENT_BACK });
    // The last block is the new user text; a history ending in a search gets the breakpoint on a copy.
    const ending = buildMessagesBody(baseRequest({ input: [...baseRequest().input, ...items.slice(0, 3)] })) as { messages: { content: Record<string, unknown>[] }[] };
    expect(ending.messages[1]!.content.at(-1)).toMatchObject({ type: 'web_search_tool_result', cache_control: { type: 'ephemeral' } });
    expect(JSON.stringify(items)).toBe(before);
  });

  it('puts the server tool last with its settings; without a hosted search there is none', () => {
    const hosted = { externalWebAccess: true, maxUses: 3, blockedDomains: ['spam.example'], userLocation: { city: 'Lyon', country: 'FR' } };
    const tool = { kind: 'function' as const, name: 'Read', description: 'read', parameters: { type: 'object', properties: {} }, strict: false };
    const body = buildMessagesBody(baseRequest({ tools: [tool], hostedWebSearch: hosted })) as { tools: Record<string, unknown>[] };
    expect(body.tools.map((t) => t['name'])).toEqual(['Read', 'web_search']);
    expect(body.tools[1]).toEqual({
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 3,
      blocked_domains: ['spam.example'],
      user_location: { type: 'approximate', city: 'Lyon', country: 'FR' },
      cache_control: { type: 'ephemeral' },
    });
    const plain = buildMessagesBody(baseRequest({ tools: [tool] })) as { tools: Record<string, unknown>[] };
    expect(plain.tools.map((t) => t['name'])).toEqual(['Read']);
  });

  it('on Chat and Responses the search goes back as the text of what it found', () => {
    const items = doneItems(parseFixture());
    const input = [...baseRequest().input, ...items];
    const chat = buildChatBody(baseRequest({ input })) as { messages: { role: string; content: unknown }[] };
    const said =
      "I'll check the weather in San Francisco.\n\n" +
      '[web search: "weather San Francisco today"]\n1. San Francisco forecast <https://weather.example/sf>\n2. Bay Area weather <https://news.example/bay>\n\n' +
      '[web search: "SF fog"] failed: max_uses_exceeded\n\n' +
      'It is sunny, with a high of 68F.';
    expect(chat.messages.at(-1)).toEqual({ role: 'assistant', content: said });
    const responses = buildResponsesBody(baseRequest({ input })) as { input: Record<string, unknown>[] };
    expect(JSON.stringify(responses.input)).not.toContain('srvtoolu_');
    expect(responses.input.filter((i) => i['role'] === 'assistant').map((i) => (i['content'] as { text: string }[])[0]!.text)).toEqual([
      "I'll check the weather in San Francisco.",
      '[web search: "weather San Francisco today"]\n1. San Francisco forecast <https://weather.example/sf>\n2. Bay Area weather <https://news.example/bay>',
      '[web search: "SF fog"] failed: max_uses_exceeded',
      'It is sunny, with a high of 68F.',
    ]);
  });
});
