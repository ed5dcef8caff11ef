import { describe, expect, it } from 'vitest';
import { SWE_AGENT_FORMAT_ERROR, decodeXmlEntities, parseSweAgentAction } from '../../src/harness/text-actions/swe-agent.js';
import {
  capTerminalOutput,
  parseTerminusReply,
  terminusParseErrorMessage,
  terminusTimeoutMs,
} from '../../src/harness/text-actions/terminus-2.js';

describe('SWE-agent action parsing', () => {
  it.each([
    ['DISCUSSION\nlook\n\n```bash\nls -la\n```', { kind: 'bash', command: 'ls -la' }],
    ['```\ncat a.py\n```\nlater ```\nrm x\n```', { kind: 'bash', command: 'cat a.py' }],
    ['<tool_invoke><name>execute_bash</name><code>echo &lt;hi&gt; &amp;&amp; true</code></tool_invoke>', { kind: 'bash', command: 'echo <hi> && true' }],
    ['<invoke name="bash"><parameter name="command">pwd</parameter></invoke>', { kind: 'bash', command: 'pwd' }],
    ['<invoke name="execute_bash"><command>whoami</command></invoke>', { kind: 'bash', command: 'whoami' }],
    ['<execute_bash><code>date</code></execute_bash>', { kind: 'bash', command: 'date' }],
    ['<execute_bash>uname</execute_bash>', { kind: 'bash', command: 'uname' }],
    ['```\nsubmit\n```', { kind: 'submit' }],
    ['```\nstr_replace_editor view /a.py\n```', { kind: 'editor', command: 'str_replace_editor view /a.py' }],
    ['I think we are done.', { kind: 'none' }],
    ['```\n\n```', { kind: 'none' }],
  ])('%j', (text, expected) => {
    expect(parseSweAgentAction(text)).toEqual(expected);
  });

  it('the first form in the order wins over a later fence', () => {
    expect(parseSweAgentAction('```\nls\n```\n<execute_bash>pwd</execute_bash>')).toEqual({ kind: 'bash', command: 'pwd' });
  });

  it('decodes numeric entities and explains the format when no command is found', () => {
    expect(decodeXmlEntities('&#65;&#x42;&quot;')).toBe('AB"');
    expect(SWE_AGENT_FORMAT_ERROR).toContain('DISCUSSION');
  });
});

describe('Terminus 2 reply parsing', () => {
  it('parses the first balanced object, clamps durations and reads task_complete', () => {
    const text = 'Sure.\n{"analysis":"a {brace}","plan":"p","commands":[{"keystrokes":"ls\\n","duration":0.5},{"keystrokes":"C-c","duration":99},{"keystrokes":"x"}],"task_complete":"yes"} bye';
    expect(parseTerminusReply(text)).toEqual({
      ok: true,
      warnings: ['Extra text detected before JSON object', 'Extra text detected after JSON object'],
      reply: {
        analysis: 'a {brace}',
        plan: 'p',
        commands: [
          { keystrokes: 'ls\n', duration: 0.5 },
          { keystrokes: 'C-c', duration: 60 },
          { keystrokes: 'x', duration: 1 },
        ],
        taskComplete: true,
      },
    });
  });

  it.each([
    ['no json here', 'No valid JSON found in response'],
    ['{"analysis": }', 'Invalid JSON: '],
    ['{"commands": []}', 'Missing required fields: analysis, plan'],
    ['{"analysis":"","plan":"","commands":{}}', "Field 'commands' must be an array"],
  ])('%s -> %s', (text, error) => {
    const parsed = parseTerminusReply(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.startsWith(error)).toBe(true);
  });

  it('renders parse errors for the model', () => {
    expect(terminusParseErrorMessage('Invalid JSON: x', ['Extra text detected after JSON object'])).toBe(
      'Previous response had parsing errors:\nERROR: Invalid JSON: x\nWARNINGS: - Extra text detected after JSON object\n\nPlease fix these issues and provide a proper JSON response.',
    );
  });

  it('budgets time per reply: durations + 10 s + 8 s per command, at most 180 s', () => {
    expect(terminusTimeoutMs([])).toBe(10_000);
    expect(terminusTimeoutMs([{ keystrokes: 'a', duration: 1.2345 }])).toBe(19_235);
    expect(terminusTimeoutMs(Array.from({ length: 10 }, () => ({ keystrokes: 'a', duration: 60 })))).toBe(180_000);
  });

  it('caps terminal output at 10,000 bytes, keeping head and tail', () => {
    const capped = capTerminalOutput('h'.repeat(6000) + 't'.repeat(6000));
    expect(capped.startsWith('h'.repeat(5000) + '\n[... output limited to 10000 bytes; 2000 interior bytes omitted ...]\n')).toBe(true);
    expect(capped.endsWith('t'.repeat(5000))).toBe(true);
    expect(capTerminalOutput('short')).toBe('short');
  });
});

describe('mini-swe-agent submission', () => {
  it('the sentinel on the first output line with exit 0 ends the task', async () => {
    const { miniSweSubmission } = await import('../../src/harness/text-actions/mini-swe-agent.js');
    expect(miniSweSubmission('\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\ndiff --git a b\n', 0)).toBe('diff --git a b\n');
    expect(miniSweSubmission('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n', 1)).toBeUndefined();
    expect(miniSweSubmission('hello\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n', 0)).toBeUndefined();
  });
});
