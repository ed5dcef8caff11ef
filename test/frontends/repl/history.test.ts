// The compact history printout for any harness's tool shapes: the engine's projection of stored
// history into turns of display items (core/history-view.ts), as the REPL prints them.
import { expect, test } from 'vitest';
import type { ConversationItem } from '../../../src/protocol/index.js';
import { assistantText, userText } from '../../../src/protocol/index.js';
import { projectConversation, projectRollout } from '../../../src/core/history-view.js';
import type { RolloutRecord } from '../../../src/store/index.js';
import { formatHistoryLine, historyLines, recentTurns } from '../../../src/frontends/repl/history.js';

const call = (call_id: string, name: string, args: unknown): ConversationItem => ({ type: 'function_call', call_id, name, arguments: JSON.stringify(args) });
const output = (call_id: string, text: string, is_error?: boolean): ConversationItem => ({ type: 'function_call_output', call_id, output: text, ...(is_error ? { is_error } : {}) });

function render(history: ConversationItem[]): string[] {
  return historyLines(projectConversation([userText('go'), ...history])).slice(1).map((line) => formatHistoryLine(line, { color: false }));
}

test('skips context fragments and developer messages; marks interruptions', () => {
  expect(
    historyLines(
      projectConversation([
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'be careful' }] },
        userText('<environment_context>\n  <cwd>/x</cwd>\n</environment_context>'),
        userText('# AGENTS.md instructions for /x\n\nrules'),
        userText('fix the bug\nin parser.ts'),
        userText('<turn_aborted>The user interrupted</turn_aborted>'),
        userText('go on'),
        assistantText('ok'),
      ]),
    ).map((line) => formatHistoryLine(line, { color: false })),
  ).toEqual(['› fix the bug\n  in parser.ts', '(turn interrupted)', '› go on', '• ok']);
});

test('commands from several harnesses show their command line and exit code', () => {
  expect(
    render([
      call('1', 'exec_command', { cmd: 'ls -la' }),
      call('2', 'shell', { command: ['bash', '-lc', 'npm test'] }),
      call('3', 'Bash', { command: 'make' }),
      call('4', 'exec_command', { cmd: 'sleep 100' }),
      call('5', 'shell', { command: ['git', 'status'] }),
      output('1', 'Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n'),
      output('2', 'Exit code: 1\nWall time: 2 seconds\nOutput:\nfail'),
      output('3', 'Error: make: *** No targets', true),
      output('4', 'Process running with session ID 7\nOutput:\n'),
    ]),
  ).toEqual([
    '$ ls -la  → exit 0',
    '$ npm test  → exit 1',
    '$ make  → failed: Error: make: *** No targets',
    '$ sleep 100  → still running',
    '$ git status  (no result: the turn was cut off)',
  ]);
});

test('file changes: apply_patch (freeform or JSON) and edit tools', () => {
  const patch = '*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n@@\n-y\n+z\n*** Delete File: c.txt\n*** End Patch';
  expect(
    render([
      { type: 'custom_tool_call', call_id: 'p', name: 'apply_patch', input: patch },
      { type: 'custom_tool_call_output', call_id: 'p', output: 'Success' },
      call('e', 'Edit', { file_path: '/r/src/x.ts', old_string: 'a', new_string: 'b' }),
      output('e', 'ok'),
      call('v', 'view_image', { path: 'shot.png' }),
      output('v', 'ok'),
      call('w', 'web_fetch', { url: 'http://example.com' }),
      output('w', 'nope', true),
    ]),
  ).toEqual([
    'A a.txt, M b.txt, D c.txt',
    'M /r/src/x.ts',
    'view_image shot.png',
    'web_fetch {"url":"http://example.com"}  → failed: nope',
  ]);
});

test('long messages are cut to a preview', () => {
  const long = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
  const [line] = render([assistantText(long)]);
  expect(line!.split('\n')).toHaveLength(13);
  expect(line).toContain('… (18 more lines)');
});

test('recentTurns keeps the last N turns and counts the ones before', () => {
  const turns = projectConversation([
    userText('<environment_context>\n</environment_context>'),
    userText('one'),
    assistantText('a'),
    userText('two'),
    userText('<turn_aborted>x</turn_aborted>'),
    userText('three'),
    assistantText('c'),
  ]);
  expect(turns.map((turn) => turn.status)).toEqual(['completed', 'interrupted', 'completed']);
  expect(recentTurns(turns, 2)).toEqual({ shown: turns.slice(1), hidden: 1 });
  expect(recentTurns(turns, 9)).toEqual({ shown: turns, hidden: 0 });
});

test('a rollout projects into its recorded turns, with ids and end states', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const records = [
    { type: 'session_meta', payload: { id: 't', timestamp: at, cwd: '/x', originator: 'rig', cli_version: '0' }, timestamp: at },
    { type: 'turn_context', payload: { turn_id: 'turn_0', cwd: '/x', model: 'm' }, timestamp: at },
    { type: 'response_item', payload: userText('first'), timestamp: at },
    { type: 'response_item', payload: { type: 'function_call', call_id: 'c', name: 'exec_command', arguments: '{"cmd":"make"}' }, timestamp: at },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c', output: 'Process exited with code 2\nOutput:\n' }, timestamp: at },
    { type: 'event_msg', payload: { type: 'turn_aborted', turn_id: 'turn_0' }, timestamp: at },
    { type: 'turn_context', payload: { turn_id: 'turn_1', cwd: '/x', model: 'm' }, timestamp: at },
    { type: 'response_item', payload: userText('second'), timestamp: at },
    { type: 'response_item', payload: assistantText('done'), timestamp: at },
    { type: 'event_msg', payload: { type: 'turn_complete', turn_id: 'turn_1' }, timestamp: at },
  ] as RolloutRecord[];
  const turns = projectRollout(records);
  expect(turns.map((turn) => [turn.id, turn.status])).toEqual([['turn_0', 'interrupted'], ['turn_1', 'completed']]);
  expect(turns[0]!.items.map((item) => item.type)).toEqual(['user_message', 'command_execution']);
  expect(turns[0]!.items[1]).toMatchObject({ command: 'make', exit_code: 2, status: 'failed' });
  expect(historyLines(turns).map((line) => formatHistoryLine(line, { color: false }))).toEqual([
    '› first', '$ make  → exit 2', '(turn interrupted)', '› second', '• done',
  ]);
});

test("a command's stored output loses the framing the model was sent: resumed commands carry what they printed", () => {
  const turns = projectConversation([
    userText('go'),
    call('1', 'exec_command', { cmd: 'ls' }),
    output('1', 'Chunk ID: 4f2a1c\nWall time: 0.0123 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\na.txt\nb.txt'),
    call('2', 'shell', { command: ['bash', '-lc', 'false'] }),
    output('2', 'Exit code: 1\nWall time: 0.1 seconds\nTotal output lines: 1\nOutput:\nboom'),
    call('3', 'Bash', { command: 'echo hi' }),
    // Another harness's own shape is left as it is.
    output('3', 'hi\nOutput: not a header'),
  ]);
  const commands = turns[0]!.items.filter((item) => item.type === 'command_execution');
  expect(commands.map((item) => [item.aggregated_output, item.exit_code])).toEqual([
    ['a.txt\nb.txt', 0],
    ['boom', 1],
    ['hi\nOutput: not a header', null],
  ]);
});
