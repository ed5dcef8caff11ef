// Codex's 1,048,576-character limit on one user input, enforced where every front end's input
// enters the engine (Thread.runTurn), counted in characters as Codex counts them.
import { expect, it } from 'vitest';
import { Thread } from '../../src/core/thread.js';
import { INPUT_TOO_LARGE_MESSAGE, MAX_USER_INPUT_TEXT_CHARS, inputChars, inputLengthProblem } from '../../src/core/input-limit.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ScriptedClient, say } from '../support/scripted-client.js';

it('counts code points, so an emoji is one character', () => {
  expect(inputChars('x'.repeat(MAX_USER_INPUT_TEXT_CHARS))).toBe(MAX_USER_INPUT_TEXT_CHARS);
  expect(inputChars('😀'.repeat(MAX_USER_INPUT_TEXT_CHARS))).toBe(MAX_USER_INPUT_TEXT_CHARS);
  expect(inputLengthProblem('😀'.repeat(MAX_USER_INPUT_TEXT_CHARS))).toBeUndefined();
  expect(inputLengthProblem('x'.repeat(MAX_USER_INPUT_TEXT_CHARS + 1))).toMatch(/^Input exceeds the maximum length of 1048576 characters\. \(the prompt has 1,048,577: /);
});

it('a turn whose input is over the limit fails before anything is sent or recorded', async () => {
  const client = new ScriptedClient([say('never')]);
  const thread = new Thread({
    id: 'thread-1', cwd: '/tmp', model: 'm', client, tools: new ToolRegistry([]), instructions: '',
    capabilities: () => ({ exec: async () => { throw new Error('no'); }, writeStdin: async () => { throw new Error('no'); }, applyChanges: async () => ({ ok: false, message: 'no' }), canWrite: () => false }),
  });
  const result = await thread.runTurn({ text: 'y'.repeat(MAX_USER_INPUT_TEXT_CHARS + 10) });
  expect(result.status).toBe('failed');
  expect(result.error!.startsWith(INPUT_TOO_LARGE_MESSAGE)).toBe(true);
  expect(client.requests).toHaveLength(0);
  expect(thread.history).toEqual([]);
});
