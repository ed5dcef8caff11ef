// A RIG_HOME for sub-agent tests: the issue's configuration (or another) pointed at the loopback
// mock, its role file, and a mock script that answers each request by the model it names, so a
// root and its children can run in any interleaving.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MockProvider, MockRequest, MockTurn } from './mock-provider/index.js';
import { IMPLEMENTER_ROLE_FILE, ISSUE_CONFIG } from './agents-config.js';
import { tempDir } from './workspace.js';

export const ROOT_MODEL = 'gpt-6-astra';
export const CHILD_MODEL = 'gpt-5.6-sol';

export function agentsHome(mockUrl: string, options: { config?: string; wire?: 'responses' | 'chat' | 'messages'; extra?: string } = {}): string {
  const home = tempDir('agents-home');
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model_provider = "mock"',
      options.config ?? ISSUE_CONFIG,
      options.extra ?? '',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = "${mockUrl}"`,
      `wire_api = "${options.wire ?? 'responses'}"`,
      'env_key = "MOCK_API_KEY"',
      'stream_idle_timeout_ms = 5000',
      '',
    ].join('\n'),
  );
  mkdirSync(join(home, 'agents'), { recursive: true });
  writeFileSync(join(home, 'agents', 'implementer.toml'), IMPLEMENTER_ROLE_FILE);
  return home;
}

/**
 * Scripts per model: each request is answered with the next turn of the script for its model
 * (`request.body.model`). Returns the requests each model received.
 */
export function scriptByModel(mock: MockProvider, scripts: Record<string, MockTurn[]>): Record<string, MockRequest[]> {
  const seen: Record<string, MockRequest[]> = Object.fromEntries(Object.keys(scripts).map((model) => [model, []]));
  const total = Object.values(scripts).reduce((sum, turns) => sum + turns.length, 0);
  const queues = Object.fromEntries(Object.entries(scripts).map(([model, turns]) => [model, [...turns]]));
  for (let i = 0; i < total; i++) {
    mock.enqueue((request) => {
      const model = String(request.body?.model);
      const next = queues[model]?.shift();
      if (!next) return { status: 400, message: `no scripted turn left for model ${model}` };
      seen[model]!.push(request);
      return next;
    });
  }
  return seen;
}

/** Every text of a request's input (Responses), for checks on instructions and notifications. */
export function inputTexts(request: MockRequest): string[] {
  const body = request.body as { input?: { type: string; role?: string; content?: { text?: string }[]; output?: unknown }[] };
  return (body.input ?? []).flatMap((item) => {
    if (item.type === 'message') return [(item.content ?? []).map((part) => part.text ?? '').join('')];
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') return [typeof item.output === 'string' ? item.output : JSON.stringify(item.output)];
    return [];
  });
}

export function developerTexts(request: MockRequest): string[] {
  const body = request.body as { input?: { type: string; role?: string; content?: { text?: string }[] }[] };
  return (body.input ?? []).filter((item) => item.type === 'message' && item.role === 'developer').map((item) => (item.content ?? []).map((part) => part.text ?? '').join(''));
}
