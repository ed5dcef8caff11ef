// Codex's 1,048,576-character limit on one user input, enforced where every front end's input
// enters the engine (ThreadHandle.startTurn and steer), counted in characters as Codex counts them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Thread } from '../../src/core/thread.js';
import { INPUT_TOO_LARGE_MESSAGE, MAX_USER_INPUT_TEXT_CHARS, inputChars, inputLengthProblem } from '../../src/core/input-limit.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ScriptedClient, call, callTools, say } from '../support/scripted-client.js';
import { startTestThread, writeTestHome } from '../support/engine.js';

it('counts code points, so an emoji is one character', () => {
  expect(inputChars('x'.repeat(MAX_USER_INPUT_TEXT_CHARS))).toBe(MAX_USER_INPUT_TEXT_CHARS);
  expect(inputChars('😀'.repeat(MAX_USER_INPUT_TEXT_CHARS))).toBe(MAX_USER_INPUT_TEXT_CHARS);
  expect(inputLengthProblem('😀'.repeat(MAX_USER_INPUT_TEXT_CHARS))).toBeUndefined();
  expect(inputLengthProblem('x'.repeat(MAX_USER_INPUT_TEXT_CHARS + 1))).toMatch(/^Input exceeds the maximum length of 1048576 characters\. \(the prompt has 1,048,577: /);
});

it('a turn whose input is over the limit fails before anything is sent or recorded', async () => {
  const client = new ScriptedClient([say('never')]);
  const thread = new Thread({
    id: 'thread-1', cwd: '/tmp',
    runtime: {
      model: 'm', client, tools: new ToolRegistry([]), instructions: '',
      capabilities: () => ({ exec: async () => { throw new Error('no'); }, writeStdin: async () => { throw new Error('no'); }, applyChanges: async () => ({ ok: false, message: 'no' }), canWrite: () => false }),
    },
  });
  const result = await thread.runTurn({ text: 'y'.repeat(MAX_USER_INPUT_TEXT_CHARS + 10) });
  expect(result.status).toBe('failed');
  expect(result.error!.startsWith(INPUT_TOO_LARGE_MESSAGE)).toBe(true);
  expect(client.requests).toHaveLength(0);
  expect(thread.history).toEqual([]);
});

it('the engine refuses an over-long turn or steer before it becomes a turn: nothing emitted, sent or kept', async () => {
  const home = mkdtempSync(join(tmpdir(), 'rig-input-limit-'));
  writeTestHome(home);
  // The first step waits on a command, so there is a running turn to steer.
  const client = new ScriptedClient([callTools(call('exec_command', { cmd: 'sleep 0.2' })), say('done')]);
  const started = await startTestThread({ home, cwd: home, client, request: { overrides: { harness: 'native', sandbox: 'danger-full-access', approvalPolicy: 'never' } } });
  try {
    const huge = { text: 'y'.repeat(MAX_USER_INPUT_TEXT_CHARS + 1) };
    expect(() => started.thread.startTurn(huge)).toThrow(INPUT_TOO_LARGE_MESSAGE);
    expect(started.thread.isRunning).toBe(false);
    expect(started.events().some((event) => event.type === 'turn.started')).toBe(false);
    expect(client.requests).toHaveLength(0);
    expect(started.thread.history).toEqual([]);

    const commandStarted = started.next('item.started', (event) => event.item.type === 'command_execution');
    const turn = started.thread.startTurn({ text: 'go' });
    await commandStarted;
    expect(() => started.thread.steer(huge, turn.turnId)).toThrow(INPUT_TOO_LARGE_MESSAGE);
    expect(await turn.done).toMatchObject({ status: 'completed', lastAgentMessage: 'done' });
    expect(JSON.stringify(client.requests)).not.toContain('yyyyyyyy');
  } finally {
    await started.close();
    rmSync(home, { recursive: true, force: true });
  }
});
