// Shared test plumbing: a client pointed at the loopback mock, an instant clock, event collection.
import type { ModelEvent } from '../../src/protocol/index.js';
import { createModelClient } from '../../src/model/create-client.js';
import type { ProviderInfo } from '../../src/model/providers.js';
import type { RetryClock } from '../../src/model/transport/retry.js';
import type { ModelClient, ModelRequest, WireApi } from '../../src/model/types.js';

export interface FakeClock extends RetryClock {
  delays: number[];
}

/** Sleeps return at once and are recorded; random() = 0.5 makes jitter exactly 1. */
export function fakeClock(now = Date.parse('2026-11-30T10:00:00Z')): FakeClock {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => void delays.push(ms),
    random: () => 0.5,
    now: () => now,
  };
}

export function mockProviderInfo(url: string, wire: WireApi, extra: Partial<ProviderInfo> = {}): ProviderInfo {
  return { id: 'mock', name: 'Mock', base_url: url, env_key: 'MOCK_API_KEY', wire_api: wire, ...extra };
}

export async function clientFor(
  url: string,
  wire: WireApi,
  extra: Partial<ProviderInfo> = {},
  clock: FakeClock = fakeClock(),
): Promise<ModelClient> {
  return createModelClient(mockProviderInfo(url, wire, extra), { env: { MOCK_API_KEY: 'sk-test-key' }, clock });
}

export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export function baseRequest(extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'test-model',
    instructions: 'You are a test.',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    tools: [],
    ...extra,
  };
}

export function textOf(events: ModelEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('');
}

export function terminal(events: ModelEvent[]): ModelEvent | undefined {
  return events.at(-1);
}
