// Issue 11 item 3: tool results worded as the originals word them. Every expected string below is
// the original's, checked against its source at the location named in the describe/it title
// (Claude Code is closed source: its strings are the ones issue 11 quotes). Results are rendered
// through the profile's own request shaping where the wrapping matters (error templates).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinProfileDir, readProfileFile } from '../../../src/harness/loader.js';
import { shapeRequest } from '../../../src/harness/request-shape.js';
import type { ToolOutput } from '../../../src/protocol/index.js';
import type { ExecOutcome, ToolResult } from '../../../src/tools/spec.js';
import { bound } from './bind.js';
import { call, fakeContext, type FakeContext } from './fake-context.js';

const done = (output: string, exitCode: number | null = 0, timedOut = false): ExecOutcome => ({ exitCode, output, totalBytes: output.length, wallTimeMs: 1, timedOut });

async function result(harness: string, tool: string, args: Record<string, unknown>, ctx: FakeContext): Promise<ToolResult> {
  const spec = bound(harness).byName.get(tool);
  if (!spec) throw new Error(`${harness} has no ${tool}`);
  return spec.handle(args, ctx);
}

/** The tool output as the model receives it: the result rendered by the profile's shaping. */
function asSent(harness: string, tool: string, outcome: ToolResult): ToolOutput {
  const profile = readProfileFile(join(builtinProfileDir(), `${harness}.json`), 'builtin');
  const shaped = shapeRequest(
    profile,
    {
      model: 'm',
      instructions: '',
      tools: [],
      input: [
        { type: 'function_call', call_id: 'c1', name: tool, arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: outcome.output, is_error: !outcome.success },
      ],
    },
    { now: new Date('2026-11-30T09:00:00Z'), cwd: '/srv/app', os: 'linux' },
  );
  const item = shaped.input.find((entry) => entry.type === 'function_call_output');
  if (item?.type !== 'function_call_output') throw new Error('no tool output in the shaped request');
  return item.output;
}

const texts = (output: ToolOutput): string[] => (typeof output === 'string' ? [output] : output.map((part) => ('text' in part ? part.text : '[image]')));

describe('Claude Code (closed source; strings as issue 11 quotes them) for every Claude-family profile', () => {
  const FAMILY = [
    { harness: 'claude-code', readFirst: true },
    { harness: 'claude-code-bare', readFirst: true },
    { harness: 'zcode', readFirst: true },
  ];

  it.each(FAMILY)('$harness Bash: a failed command is `Exit code N` then the output, flagged but not wrapped', async ({ harness }) => {
    const ctx = fakeContext();
    const failed = await result(harness, 'Bash', { command: 'echo boom; exit 3' }, ctx);
    expect(failed).toEqual({ success: false, output: 'Exit code 3\nboom' });
    expect(asSent(harness, 'Bash', failed)).toBe('Exit code 3\nboom');
    // Other tools' errors keep the profile's <tool_use_error> wrapper.
    expect(asSent(harness, 'Edit', { success: false, output: 'x' })).toBe('<tool_use_error>x</tool_use_error>');
  });

  it.each(FAMILY)('$harness Edit: not found, several matches, identical strings, success', async ({ harness }) => {
    const ctx = fakeContext();
    const path = ctx.write('a.py', 'x = 1\nx = 1\ny = 2\n');
    expect((await result(harness, 'Read', { file_path: path }, ctx)).success).toBe(true);
    expect(await result(harness, 'Edit', { file_path: path, old_string: 'z = 3', new_string: 'z = 4' }, ctx)).toEqual({
      success: false,
      output: 'String to replace not found in file.\nString: z = 3',
    });
    expect(await result(harness, 'Edit', { file_path: path, old_string: 'x = 1', new_string: 'x = 5' }, ctx)).toEqual({
      success: false,
      output:
        'Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. ' +
        'To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: x = 1',
    });
    expect((await result(harness, 'Edit', { file_path: path, old_string: 'y = 2', new_string: 'y = 2' }, ctx)).output).toBe(
      'No changes to make: old_string and new_string are exactly the same.',
    );
    expect(await result(harness, 'Edit', { file_path: path, old_string: 'y = 2', new_string: 'y = 3' }, ctx)).toEqual({
      success: true,
      output: `The file ${path} has been updated successfully.`,
    });
    expect(ctx.read('a.py')).toBe('x = 1\nx = 1\ny = 3\n');
  });

  it('claude-code Write: created, then updated', async () => {
    const ctx = fakeContext();
    const path = join(ctx.root, 'n.txt');
    expect((await result('claude-code', 'Write', { file_path: path, content: 'a' }, ctx)).output).toBe(`File created successfully at: ${path}`);
    expect((await result('claude-code', 'Write', { file_path: path, content: 'b' }, ctx)).output).toBe(`The file ${path} has been updated successfully.`);
  });
});

describe('opencode read (anomalyco/opencode packages/opencode/src/tool/read.ts @ 00937b9)', () => {
  const read = (args: Record<string, unknown>, ctx: FakeContext) => result('opencode', 'read', args, ctx);

  it('offset is 1-based: offset 2 returns line 2; the continuation footer names the next offset', async () => {
    const ctx = fakeContext();
    const path = ctx.write('f.txt', 'one\ntwo\nthree\nfour\n');
    expect((await read({ filePath: path, offset: 2, limit: 2 }, ctx)).output).toBe(
      `<path>${path}</path>\n<type>file</type>\n<content>\n2: two\n3: three\n\n(Showing lines 2-3 of 4. Use offset=4 to continue.)\n</content>`,
    );
    expect((await read({ filePath: path, offset: 4 }, ctx)).output).toBe(
      `<path>${path}</path>\n<type>file</type>\n<content>\n4: four\n\n(End of file - total 4 lines)\n</content>`,
    );
    expect(await read({ filePath: path, offset: 0 }, ctx)).toEqual({ success: false, output: 'offset must be greater than or equal to 1' });
    expect(await read({ filePath: path, offset: 9 }, ctx)).toEqual({ success: false, output: 'Offset 9 is out of range for this file (4 lines)' });
  });

  it('output is capped at 50 KB, long lines are cut at 2,000 characters', async () => {
    const ctx = fakeContext();
    const path = ctx.write('wide.txt', Array.from({ length: 100 }, () => 'w'.repeat(999)).join('\n'));
    const text = String((await read({ filePath: path }, ctx)).output);
    // 51 lines of 999 bytes plus their separators fit in 51,200 bytes; the 52nd does not.
    expect(text.endsWith('\n\n(Output capped at 50 KB. Showing lines 1-51. Use offset=52 to continue.)\n</content>')).toBe(true);
    const longPath = ctx.write('long.txt', 'x'.repeat(2500));
    expect(String((await read({ filePath: longPath }, ctx)).output)).toContain(`1: ${'x'.repeat(2000)}... (line truncated to 2000 chars)\n`);
  });

  it('a directory is listed as entries, directories with a slash', async () => {
    const ctx = fakeContext();
    ctx.write('d/b.txt', '');
    ctx.write('d/a/inner.txt', '');
    ctx.write('d/c.txt', '');
    expect((await read({ filePath: join(ctx.root, 'd') }, ctx)).output).toBe(`<path>${ctx.root}/d</path>\n<type>directory</type>\n<entries>\na/\nb.txt\nc.txt\n\n(3 entries)\n</entries>`);
    expect((await read({ filePath: join(ctx.root, 'd'), offset: 2, limit: 1 }, ctx)).output).toBe(
      `<path>${ctx.root}/d</path>\n<type>directory</type>\n<entries>\nb.txt\n\n(Showing 1 of 3 entries. Use 'offset' parameter to read beyond entry 3)\n</entries>`,
    );
  });

  it('a missing file names close matches in the same directory', async () => {
    const ctx = fakeContext();
    ctx.write('config.json', '{}');
    expect((await read({ filePath: join(ctx.root, 'config') }, ctx)).output).toBe(
      `File not found: ${ctx.root}/config\n\nDid you mean one of these?\n${ctx.root}/config.json`,
    );
  });
});

describe('opencode edit: the replacer chain (anomalyco/opencode packages/opencode/src/tool/edit.ts @ 00937b9, replace())', () => {
  async function edit(before: string, oldString: string, newString: string, replaceAll = false): Promise<{ result: ToolResult; after: string }> {
    const ctx = fakeContext();
    const path = ctx.write('src.ts', before);
    await result('opencode', 'read', { filePath: path }, ctx);
    const outcome = await result('opencode', 'edit', { filePath: path, oldString, newString, ...(replaceAll ? { replaceAll } : {}) }, ctx);
    return { result: outcome, after: ctx.read('src.ts') };
  }

  it.each([
    ['LineTrimmedReplacer: lines equal once trimmed', 'if (a) {\n    run();\n}\n', '  if (a) {\nrun();\n  }', 'if (b) {\n  go();\n}', 'if (b) {\n  go();\n}\n'],
    ['BlockAnchorReplacer: first and last line anchor a block', 'function f() {\n  const x = 1;\n  return x;\n}\n', 'function f() {\n  const y = 2;\n  return x;\n}', 'function g() {}', 'function g() {}\n'],
    ['WhitespaceNormalizedReplacer: runs of spaces count as one', 'let  total =   a + b;\n', 'let total = a + b;', 'let total = a - b;', 'let total = a - b;\n'],
    ['IndentationFlexibleReplacer: the same block deeper indented', 'class A {\n    m() {\n        return 1;\n    }\n}\n', 'm() {\n    return 1;\n}', 'm() {\n    return 2;\n}', 'class A {\nm() {\n    return 2;\n}\n}\n'],
    ['EscapeNormalizedReplacer: escaped newlines and quotes', 'say("hi");\nsay("bye");\n', 'say(\\"hi\\");\\nsay', 'say("hey");\nsay', 'say("hey");\nsay("bye");\n'],
    ['TrimmedBoundaryReplacer: surrounding whitespace ignored', 'alpha beta gamma\n', '  beta  ', 'BETA', 'alpha BETA gamma\n'],
  ])('%s', async (_name, before, oldString, newString, expected) => {
    const { result: outcome, after } = await edit(before, oldString, newString);
    expect(outcome).toEqual({ success: true, output: 'Edit applied successfully.' });
    expect(after).toBe(expected);
  });

  it('a CRLF file: old and new text take its line ending', async () => {
    const { after } = await edit('one\r\ntwo\r\nthree\r\n', 'two\nthree', 'TWO\nTHREE');
    expect(after).toBe('one\r\nTWO\r\nTHREE\r\n');
  });

  it('errors: not found, several matches, identical strings', async () => {
    expect((await edit('a\n', 'zzz', 'y')).result).toEqual({
      success: false,
      output: 'Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.',
    });
    expect((await edit('x x\n', 'x', 'y')).result).toEqual({
      success: false,
      output: 'Found multiple matches for oldString. Provide more surrounding context to make the match unique.',
    });
    expect((await edit('x\n', 'x', 'x')).result).toEqual({ success: false, output: 'No changes to apply: oldString and newString are identical.' });
    expect((await edit('x x\n', 'x', 'y', true)).after).toBe('y y\n');
  });

  it('an empty oldString writes newString as the whole file', async () => {
    const ctx = fakeContext();
    const path = join(ctx.root, 'new.txt');
    expect(await result('opencode', 'edit', { filePath: path, oldString: '', newString: 'fresh\n' }, ctx)).toEqual({ success: true, output: 'Edit applied successfully.' });
    expect(ctx.read('new.txt')).toBe('fresh\n');
  });
});

describe('pi edit (badlogic/pi-mono packages/coding-agent/src/core/tools/edit-diff.ts: fuzzyFindText @ 83378aa, multi-edit applyEditsToNormalizedContent)', () => {
  async function edit(before: string | Buffer, args: Record<string, unknown>): Promise<{ result: ToolResult; after: string }> {
    const ctx = fakeContext();
    ctx.write('f.md', before);
    const outcome = await result('pi', 'edit', { path: 'f.md', ...args }, ctx);
    return { result: outcome, after: ctx.read('f.md') };
  }

  it('exact text first; else fuzzy: trailing spaces, typographic quotes and dashes, no-break spaces', async () => {
    const fuzzy = await edit('He said \u201chi\u201d \u2014 twice.   \nNext\u00a0line\n', { edits: [{ oldText: 'He said "hi" - twice.\nNext line', newText: 'Done.' }] });
    expect(fuzzy.result).toEqual({ success: true, output: 'Successfully replaced 1 block(s) in f.md.' });
    expect(fuzzy.after).toBe('Done.\n');
  });

  it('CRLF and the BOM are set aside for matching and kept in the file', async () => {
    const { after } = await edit('\uFEFFa\r\nb\r\nc\r\n', { edits: [{ oldText: 'b\nc', newText: 'B\nC' }] });
    expect(after).toBe('\uFEFFa\r\nB\r\nC\r\n');
  });

  it('errors name the edit when there are several', async () => {
    expect((await edit('a b\n', { edits: [{ oldText: 'zz', newText: 'y' }] })).result.output).toBe(
      'Could not find the exact text in f.md. The old text must match exactly including all whitespace and newlines.',
    );
    expect((await edit('a b\n', { edits: [{ oldText: 'a', newText: 'A' }, { oldText: 'zz', newText: 'y' }] })).result.output).toBe(
      'Could not find edits[1] in f.md. The oldText must match exactly including all whitespace and newlines.',
    );
    expect((await edit('x x\n', { edits: [{ oldText: 'b', newText: 'B' }, { oldText: 'x', newText: 'y' }] })).result.output).toBe(
      'Could not find edits[0] in f.md. The oldText must match exactly including all whitespace and newlines.',
    );
    expect((await edit('x y x\n', { edits: [{ oldText: 'y', newText: 'Y' }, { oldText: 'x', newText: 'X' }] })).result.output).toBe(
      'Found 2 occurrences of edits[1] in f.md. Each oldText must be unique. Please provide more context to make it unique.',
    );
    expect((await edit('abcdef\n', { edits: [{ oldText: 'abcd', newText: '1' }, { oldText: 'cdef', newText: '2' }] })).result.output).toBe(
      'edits[0] and edits[1] overlap in f.md. Merge them into one edit or target disjoint regions.',
    );
    expect((await edit('a\n', { edits: [{ oldText: '', newText: 'b' }] })).result.output).toBe('oldText must not be empty in f.md.');
    expect((await edit('a  \n', { edits: [{ oldText: 'a', newText: 'a' }] })).result.output).toBe('No changes made to f.md. The replacement produced identical content.');
  });

  it('repairs the shapes models send: edits as a JSON string or one object, a top-level oldText/newText', async () => {
    expect((await edit('one\n', { edits: JSON.stringify([{ oldText: 'one', newText: '1' }]) })).after).toBe('1\n');
    expect((await edit('one\n', { edits: { oldText: 'one', newText: '1' } })).after).toBe('1\n');
    expect((await edit('one\n', { oldText: 'one', newText: '1' })).after).toBe('1\n');
  });
});

describe('opencode bash (anomalyco/opencode packages/opencode/src/tool/bash.ts, Effect rewrite; shell.ts @ 0498793)', () => {
  it('a failed command shows its output only: no exit-code line, not a tool error', async () => {
    const ctx = fakeContext({ exec: () => done('npm ERR! missing script\n', 1) });
    expect(await result('opencode', 'bash', { command: 'npm run x', description: 'run x' }, ctx)).toEqual({ success: true, output: 'npm ERR! missing script\n' });
  });

  it('empty output and a timeout', async () => {
    const ctx = fakeContext({ exec: () => done('', null, true) });
    expect((await result('opencode', 'bash', { command: 'sleep 9', timeout: 1000, description: 'wait' }, ctx)).output).toBe(
      '(no output)\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 1000 ms. ' +
        'If this command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value in milliseconds.\n</bash_metadata>',
    );
  });
});

describe('pi bash (badlogic/pi-mono packages/coding-agent/src/core/tools/bash.ts @ 83378aa)', () => {
  it('keeps its own exit-code line and names the timeout in seconds', async () => {
    expect((await result('pi', 'bash', { command: 'false' }, fakeContext({ exec: () => done('', 1) }))).output).toBe('(no output)\n\nCommand exited with code 1');
    expect((await result('pi', 'bash', { command: 'sleep 9', timeout: 2 }, fakeContext({ exec: () => done('partial', null, true) }))).output).toBe(
      'partial\n\nCommand timed out after 2 seconds',
    );
  });
});

describe('Kimi CLI Shell and ReadFile (MoonshotAI/kimi-cli src/kimi_cli/tools/shell/__init__.py, tools/file/read.py, soul/message.py @ 4a550ef)', () => {
  it.each([['kimi-cli', 'Shell'], ['kimi-code', 'Bash']])('%s %s: the <system> note comes before the output', async (harness, tool) => {
    const ok = await result(harness, tool, { command: 'echo hi' }, fakeContext({ exec: () => done('hi\n') }));
    expect(texts(asSent(harness, tool, ok))).toEqual(['<system>Command executed successfully.</system>', 'hi\n']);
    const empty = await result(harness, tool, { command: 'true' }, fakeContext({ exec: () => done('') }));
    expect(texts(asSent(harness, tool, empty))).toEqual(['<system>Command executed successfully.</system>']);
  });

  it.each([['kimi-cli', 'Shell'], ['kimi-code', 'Bash']])('%s %s: a failed command is wrapped once, as ERROR', async (harness, tool) => {
    const failed = await result(harness, tool, { command: 'make' }, fakeContext({ exec: () => done('make: *** No targets.\n', 2) }));
    expect(failed.success).toBe(false);
    expect(texts(asSent(harness, tool, failed))).toEqual(['<system>ERROR: Command failed with exit code: 2.</system>', 'make: *** No targets.\n']);
    const slow = await result(harness, tool, { command: 'sleep 99', timeout: 5 }, fakeContext({ exec: () => done('', null, true) }));
    expect(texts(asSent(harness, tool, slow))).toEqual(['<system>ERROR: Command killed by timeout (5s)</system>']);
  });

  it('ReadFile: the message first, its clauses in the original order', async () => {
    const ctx = fakeContext();
    ctx.write('k.txt', 'a\nb\n');
    const read = await result('kimi-cli', 'ReadFile', { path: 'k.txt' }, ctx);
    expect(texts(read.output)).toEqual(['<system>2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.</system>', '     1\ta\n     2\tb\n']);
  });
});

describe('Qwen Code run_shell_command (QwenLM/qwen-code packages/core/src/tools/shell.ts @ 0103af5)', () => {
  it('one field per line, Directory as given or (root); a failure is an ordinary result', async () => {
    const ctx = fakeContext({ exec: () => done('nope\n', 1) });
    expect(await result('qwen-code', 'run_shell_command', { command: 'ls x' }, ctx)).toEqual({
      success: true,
      output: 'Command: ls x\nDirectory: (root)\nOutput: nope\n\nError: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: (none)',
    });
    const sub = fakeContext({ exec: () => done('') });
    expect((await result('qwen-code', 'run_shell_command', { command: 'pwd', directory: 'pkg' }, sub)).output).toBe(
      'Command: pwd\nDirectory: pkg\nOutput: (empty)\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)',
    );
  });

  it('the timeout text, with and without output', async () => {
    expect((await result('qwen-code', 'run_shell_command', { command: 'sleep 9', timeout: 1500 }, fakeContext({ exec: () => done('', null, true) }))).output).toBe(
      'Command timed out after 1500ms before it could complete. There was no output before it timed out.',
    );
    expect((await result('qwen-code', 'run_shell_command', { command: 'sleep 9', timeout: 1500 }, fakeContext({ exec: () => done('tick\n', null, true) }))).output).toBe(
      'Command timed out after 1500ms before it could complete. Below is the output before it timed out:\ntick\n',
    );
  });
});

it('real commands still run through caps.exec for these styles', async () => {
  const ctx = fakeContext();
  expect((await call(bound('opencode').byName.get('bash'), { command: 'echo real; exit 4', description: 'x' }, ctx)).text).toBe('real\n');
});
