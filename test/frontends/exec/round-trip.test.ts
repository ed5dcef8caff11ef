// `rig exec` end to end on each wire: the model asks for a command, gets its output back in the
// wire's own tool-result shape, and answers. The --json stream is checked event by event.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome, progress } from '../../support/workspace.js';
import { toolResult } from './helpers.js';

let mock: MockProvider;
let repo: string;
const homes: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'note.txt': 'alpha\nbeta\n' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  for (const home of homes) removeDir(home);
});

function home(wire: MockWire): string {
  const dir = tempRigHome({ url: mock.url, wire });
  homes.push(dir);
  return dir;
}

describe.each<MockWire>(['responses', 'chat', 'messages'])('rig exec --json on the %s wire', (wire) => {
  test('a tool call round-trip, then a final answer', async () => {
    const before = mock.requests.length;
    const callId = wire === 'messages' ? 'toolu_roundtrip' : 'call_roundtrip';
    mock.enqueue(
      { toolCalls: [{ id: callId, name: 'exec_command', arguments: { cmd: 'cat note.txt' } }], usage: { input_tokens: 100, cached_input_tokens: 30, output_tokens: 12 } },
      { text: 'The note says alpha and beta.', usage: { input_tokens: 140, cached_input_tokens: 100, output_tokens: 9, reasoning_output_tokens: 4 } },
    );

    const run = await runRig(['exec', '--json', '--harness', 'native', 'read the note'], { cwd: repo, home: home(wire) });

    expect(progress(run.stderr)).toBe('');
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    expect(events).toHaveLength(6);
    expect(events[0]).toEqual({ type: 'thread.started', thread_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) });
    expect(events[1]).toEqual({ type: 'turn.started' });
    expect(events[2]).toEqual({
      type: 'item.started',
      item: { id: 'item_0', type: 'command_execution', command: 'cat note.txt', aggregated_output: '', exit_code: null, status: 'in_progress' },
    });
    expect(events[3]).toEqual({
      type: 'item.completed',
      item: { id: 'item_0', type: 'command_execution', command: 'cat note.txt', aggregated_output: 'alpha\nbeta\n', exit_code: 0, status: 'completed' },
    });
    expect(events[4]).toEqual({ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'The note says alpha and beta.' } });
    // Anthropic's usage has no separate count of thinking tokens.
    expect(events[5]).toEqual({
      type: 'turn.completed',
      usage: { input_tokens: 240, cached_input_tokens: 130, cache_write_input_tokens: 0, output_tokens: 21, reasoning_output_tokens: wire === 'messages' ? 0 : 4 },
    });

    const requests = mock.requests.slice(before);
    expect(requests.map((r) => r.wire)).toEqual([wire, wire]);
    const result = toolResult(wire, requests[1]!.body);
    expect(result.callId).toBe(callId);
    expect(result.text).toContain('alpha\nbeta\n');
    expect(result.text).toContain('Process exited with code 0');
  });
});

describe('rig exec human output', () => {
  test('stdout gets only the final answer; stderr the transcript; -o the final message', async () => {
    mock.enqueue(
      { text: 'Let me read it.', toolCalls: [{ name: 'exec_command', arguments: { cmd: 'cat note.txt' } }] },
      { text: 'Two lines.' },
    );
    const last = join(repo, '.git', 'last-message.txt');

    const run = await runRig(['exec', '--harness', 'native', '-o', last, 'read the note'], { cwd: repo, home: home('responses') });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Two lines.\n');
    // As codex exec: with stdout not a terminal, every message is on stderr and the last also on stdout.
    expect(progress(run.stderr)).toBe('Let me read it.\n$ cat note.txt\n  alpha\n  beta\n  exit 0\nTwo lines.\n');
    expect(readFileSync(last, 'utf8')).toBe('Two lines.');
  });
});
