// The human renderer of `rig exec`, fed events directly.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createHumanRenderer, groupThousands, renderHeader } from '../../../src/frontends/exec/human.js';
import type { ThreadEvent } from '../../../src/protocol/index.js';

function render(events: ThreadEvent[], agentMessages?: 'stream' | 'stderr'): { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const renderer = createHumanRenderer({
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    color: false,
    ...(agentMessages ? { agentMessages } : {}),
  });
  for (const event of events) renderer(event);
  return { stdout, stderr };
}

const command = (phase: 'started' | 'updated' | 'completed', extra: Partial<{ aggregated_output: string; exit_code: number | null; status: 'in_progress' | 'completed' | 'failed' | 'declined' }> = {}): ThreadEvent => ({
  type: `item.${phase}`,
  item: { id: 'item_0', type: 'command_execution', command: 'npm test', aggregated_output: '', exit_code: null, status: 'in_progress', ...extra },
});

describe('streaming agent messages (a terminal)', () => {
  test('deltas go to stdout as they arrive, the completed message adds only the line end', () => {
    const out = render([
      { type: 'item.agent_message.delta', item_id: 'item_1', delta: 'All ' },
      { type: 'item.agent_message.delta', item_id: 'item_1', delta: 'green.' },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'All green.' } },
    ]);
    expect(out).toEqual({ stdout: 'All green.\n', stderr: '' });
  });

  test('a retry closes the partial line so the next attempt starts on its own', () => {
    const out = render([
      { type: 'item.agent_message.delta', item_id: 'item_1', delta: 'All gr' },
      { type: 'model.retry', attempt: 1, max_attempts: 4, delay_ms: 200, reason: 'stream closed' },
      { type: 'item.completed', item: { id: 'item_2', type: 'error', message: 'Reconnecting... 1/4 (stream closed)' } },
      { type: 'item.agent_message.delta', item_id: 'item_3', delta: 'All green.' },
      { type: 'item.completed', item: { id: 'item_3', type: 'agent_message', text: 'All green.' } },
    ]);
    expect(out).toEqual({ stdout: 'All gr\nAll green.\n', stderr: 'warning: Reconnecting... 1/4 (stream closed)\n' });
  });

  test('progress in the middle of a streamed line ends the line first', () => {
    const out = render([
      { type: 'item.agent_message.delta', item_id: 'item_1', delta: 'Running the tests' },
      command('started'),
    ]);
    expect(out).toEqual({ stdout: 'Running the tests\n', stderr: '$ npm test\n' });
  });
});

describe('agent messages on stderr (a pipe or a file)', () => {
  test('each completed message is printed to stderr and stdout stays empty', () => {
    const out = render(
      [
        { type: 'item.agent_message.delta', item_id: 'item_0', delta: 'Checking.' },
        { type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'Checking.' } },
        command('started'),
        command('completed', { aggregated_output: 'ok\n', exit_code: 0, status: 'completed' }),
        { type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text: 'Done.\n' } },
      ],
      'stderr',
    );
    expect(out).toEqual({ stdout: '', stderr: 'Checking.\n$ npm test\n  ok\n  exit 0\nDone.\n' });
  });
});

describe('items on stderr', () => {
  test('a command that is still running (an update) prints nothing until it ends', () => {
    const out = render([command('started'), command('updated'), command('completed', { exit_code: 143, status: 'failed' })]);
    expect(out.stderr).toBe('$ npm test\n  exit 143\n');
  });

  test('a declined command shows the first line of the reason', () => {
    const out = render([command('started'), command('completed', { aggregated_output: 'rejected by policy\nmore', status: 'declined' })]);
    expect(out.stderr).toBe('$ npm test\n  declined: rejected by policy\n');
  });

  test('file changes, plans (not repeated on completion), searches, MCP failures and reasoning', () => {
    const plan = (phase: 'started' | 'updated' | 'completed', done: boolean): ThreadEvent => ({
      type: `item.${phase}`,
      item: { id: 'item_1', type: 'todo_list', items: [{ text: 'read', completed: true }, { text: 'fix', completed: done }] },
    });
    const out = render([
      plan('started', false),
      plan('updated', true),
      plan('completed', true),
      { type: 'item.completed', item: { id: 'item_2', type: 'file_change', status: 'completed', changes: [{ path: 'a.ts', kind: 'update' }, { path: 'b.ts', kind: 'add' }] } },
      { type: 'item.started', item: { id: 'item_3', type: 'web_search', query: 'vitest pools' } },
      { type: 'item.started', item: { id: 'item_4', type: 'mcp_tool_call', server: 'docs', tool: 'lookup', arguments: {}, result: null, error: null, status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_4', type: 'mcp_tool_call', server: 'docs', tool: 'lookup', arguments: {}, result: null, error: { message: 'server gone' }, status: 'failed' } },
      { type: 'item.completed', item: { id: 'item_5', type: 'reasoning', text: 'Look at the failing test first.\n' } },
    ]);
    expect(out.stderr).toBe(
      [
        '[x] read',
        '[ ] fix',
        '[x] read',
        '[x] fix',
        'M a.ts',
        'A b.ts',
        'search vitest pools',
        'mcp docs.lookup',
        '  failed: server gone',
        'thinking: Look at the failing test first.',
        '',
      ].join('\n'),
    );
  });

  test('colour uses ANSI bold and dim only when asked', () => {
    let stderr = '';
    const renderer = createHumanRenderer({ stdout: () => {}, stderr: (text) => (stderr += text), color: true });
    renderer(command('started'));
    expect(stderr).toBe('\x1b[1m$\x1b[22m npm test\n');
  });
});

describe('what codex exec users expect to see', () => {
  test('a command shows the tail of its output, then its exit status', () => {
    const output = Array.from({ length: 14 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const out = render([command('started'), command('completed', { aggregated_output: output, exit_code: 2, status: 'failed' })]);
    expect(out.stderr).toBe(['$ npm test', '  … 4 earlier lines', ...Array.from({ length: 10 }, (_, i) => `  line ${i + 5}`), '  exit 2', ''].join('\n'));
  });

  test('a file change shows its diff; a failed one says why', () => {
    const out = render([
      { type: 'item.completed', item: { id: 'item_0', type: 'file_change', status: 'completed', changes: [{ path: 'a.ts', kind: 'update', diff: '@@ -1 +1 @@\n-x\n+y' }] } },
      { type: 'item.completed', item: { id: 'item_1', type: 'file_change', status: 'failed', changes: [{ path: 'b.ts', kind: 'add' }], error: { message: 'the sandbox is read-only' } } },
    ]);
    expect(out.stderr).toBe(['M a.ts', '  @@ -1 +1 @@', '  -x', '  +y', 'A b.ts', '  not changed: the sandbox is read-only', ''].join('\n'));
  });

  test('harness reads and searches are one line each', () => {
    const item = (extra: object): ThreadEvent => ({
      type: 'item.completed',
      item: { id: 'item_0', type: 'file_tool', tool: 'Read', action: 'read', target: 'src/a.ts', arguments: {}, summary: '12 lines', status: 'completed', error: null, ...extra } as never,
    });
    const out = render([
      item({}),
      item({ action: 'search', tool: 'Grep', target: 'TODO', scope: 'src', summary: '3 result lines' }),
      item({ status: 'failed', error: { message: 'File does not exist.' } }),
    ]);
    expect(out.stderr).toBe(['read src/a.ts (12 lines)', 'search "TODO" in src (3 result lines)', 'read src/a.ts failed: File does not exist.', ''].join('\n'));
  });

  test('the tokens used end the turn when asked for', () => {
    let stderr = '';
    const renderer = createHumanRenderer({ stdout: () => {}, stderr: (text) => (stderr += text), color: false, showTokens: true });
    renderer({ type: 'turn.completed', usage: { input_tokens: 12_000, cached_input_tokens: 8_000, cache_write_input_tokens: 0, output_tokens: 345, reasoning_output_tokens: 100 } });
    expect(stderr).toBe('tokens used: 12,345 (input 12,000 of which 8,000 cached, output 345 of which 100 reasoning)\n');
  });

  test('the header names everything about the run', () => {
    expect(
      renderHeader(
        { version: '0.1.0', workdir: '/srv/app', model: 'gpt-6.1-sol', provider: { id: 'openai', name: 'OpenAI' }, harness: 'native', sandbox: 'read-only', approvals: 'never', sessionId: 'abc', reasoningEffort: 'high' },
        false,
      ),
    ).toBe(
      ['rig 0.1.0', '--------', 'workdir: /srv/app', 'model: gpt-6.1-sol', 'provider: openai (OpenAI)', 'harness: native', 'sandbox: read-only', 'approvals: never', 'reasoning effort: high', 'session id: abc', '--------', ''].join('\n'),
    );
  });
});

describe('groupThousands', () => {
  test('writes integers as toLocaleString("en-US") does, without loading ICU', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.maxSafeNat().map((n) => -n)), (value) => {
        expect(groupThousands(value)).toBe(value.toLocaleString('en-US'));
      }),
    );
    expect(groupThousands(1234567)).toBe('1,234,567');
    expect(groupThousands(999)).toBe('999');
  });
});
