import { describe, expect, it } from 'vitest';
import { parseEditorCommandLine, shellWords } from '../../../src/harness/text-actions/swe-agent.js';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

const editor = () => bound('swe-agent').byName.get('str_replace_editor');

describe('str_replace_editor', () => {
  it('view numbers lines like cat -n and honours view_range', async () => {
    const ctx = fakeContext();
    const path = ctx.write('a.py', 'x = 1\ny = 2\nz = 3');
    expect((await call(editor(), { command: 'view', path, view_range: [2, -1] }, ctx)).text).toBe(
      `Here's the result of running \`cat -n\` on ${path}:\n     2\ty = 2\n     3\tz = 3`,
    );
    expect((await call(editor(), { command: 'view', path, view_range: [9, 10] }, ctx)).success).toBe(false);
  });

  it('views a directory two levels deep without hidden items', async () => {
    const ctx = fakeContext();
    ctx.write('pkg/mod/deep/x.py', '');
    ctx.write('.hidden/y', '');
    expect((await call(editor(), { command: 'view', path: ctx.root }, ctx)).text).toBe(
      `Here's the files and directories up to 2 levels deep in ${ctx.root}, excluding hidden items:\n${ctx.root}\n${ctx.root}/pkg\n${ctx.root}/pkg/mod`,
    );
  });

  it('create, str_replace, insert and undo_edit go through applyChanges', async () => {
    const ctx = fakeContext();
    const path = `${ctx.root}/n.py`;
    expect((await call(editor(), { command: 'create', path, file_text: 'a\nb\nb2\n' }, ctx)).text).toBe(`File created successfully at: ${path}`);
    expect((await call(editor(), { command: 'create', path, file_text: 'again' }, ctx)).success).toBe(false);
    expect((await call(editor(), { command: 'str_replace', path, old_str: 'b', new_str: 'B' }, ctx)).text).toBe(
      `No replacement was performed. Multiple occurrences of old_str \`b\` in lines [2,3]. Please ensure it is unique`,
    );
    expect((await call(editor(), { command: 'str_replace', path, old_str: 'q', new_str: 'B' }, ctx)).text).toBe(
      `No replacement was performed, old_str \`q\` did not appear verbatim in ${path}.`,
    );
    const replaced = await call(editor(), { command: 'str_replace', path, old_str: 'b2', new_str: 'B2' }, ctx);
    expect(replaced.text).toMatch(/^The file .* has been edited\./);
    expect(ctx.read('n.py')).toBe('a\nb\nB2\n');
    expect((await call(editor(), { command: 'insert', path, insert_line: 1, new_str: 'inserted' }, ctx)).success).toBe(true);
    expect(ctx.read('n.py')).toBe('a\ninserted\nb\nB2\n');
    expect((await call(editor(), { command: 'undo_edit', path }, ctx)).success).toBe(true);
    expect(ctx.read('n.py')).toBe('a\nb\nB2\n');
    expect(ctx.applied).toHaveLength(4);
  });

  it('relative paths are refused with a hint', async () => {
    const ctx = fakeContext();
    expect((await call(editor(), { command: 'view', path: 'a.py' }, ctx)).text).toBe(
      `The path a.py is not an absolute path, it should start with \`/\`. Maybe you meant ${ctx.root}/a.py?`,
    );
  });
});

describe('editor command lines', () => {
  it('split like a shell and map flags to arguments', () => {
    expect(shellWords(`a 'b c' "d \\"e\\"" f\\ g`)).toEqual(['a', 'b c', 'd "e"', 'f g']);
    expect(parseEditorCommandLine(`str_replace_editor str_replace /a.py --old_str 'x = 1' --new_str "x = 2"`)).toEqual({
      command: 'str_replace',
      path: '/a.py',
      old_str: 'x = 1',
      new_str: 'x = 2',
    });
    expect(parseEditorCommandLine('str_replace_editor view /a.py --view_range 3 9')).toEqual({ command: 'view', path: '/a.py', view_range: [3, 9] });
    expect(parseEditorCommandLine("str_replace_editor view '/a.py")).toBe('Could not parse the str_replace_editor command: unterminated single quote');
    expect(typeof parseEditorCommandLine('str_replace_editor view /a --bogus 1')).toBe('string');
  });
});
