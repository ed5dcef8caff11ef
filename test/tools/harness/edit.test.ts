import { describe, expect, it } from 'vitest';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

async function readFirst(ctx: ReturnType<typeof fakeContext>, harness: string, tool: string, args: Record<string, unknown>): Promise<void> {
  expect((await call(bound(harness).byName.get(tool), args, ctx)).success).toBe(true);
}

describe('Claude Edit', () => {
  const edit = () => bound('claude-code').byName.get('Edit');

  it('fails on a file not read first, then succeeds after Read', async () => {
    const ctx = fakeContext();
    ctx.write('a.ts', 'let x = 1;\n');
    const args = { file_path: 'a.ts', old_string: 'x = 1', new_string: 'x = 2' };
    expect(await call(edit(), args, ctx)).toEqual({ success: false, text: 'File has not been read yet. Read it first before writing to it.' });
    await readFirst(ctx, 'claude-code', 'Read', { file_path: 'a.ts' });
    expect(await call(edit(), args, ctx)).toEqual({ success: true, text: `The file ${ctx.root}/a.ts has been updated successfully.` });
    expect(ctx.read('a.ts')).toBe('let x = 2;\n');
    expect(ctx.applied.at(-1)).toEqual([{ path: `${ctx.root}/a.ts`, kind: 'update', content: 'let x = 2;\n', expectedContent: 'let x = 1;\n' }]);
  });

  it('a file changed on disk since the Read must be read again', async () => {
    const ctx = fakeContext();
    ctx.write('a.ts', 'one\n');
    await readFirst(ctx, 'claude-code', 'Read', { file_path: 'a.ts' });
    ctx.write('a.ts', 'one two\n');
    expect((await call(edit(), { file_path: 'a.ts', old_string: 'one', new_string: '1' }, ctx)).text).toBe(
      'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.',
    );
  });

  it('a missing or non-unique old_string fails unless replace_all', async () => {
    const ctx = fakeContext();
    ctx.write('a.ts', 'foo foo bar\n');
    await readFirst(ctx, 'claude-code', 'Read', { file_path: 'a.ts' });
    expect(await call(edit(), { file_path: 'a.ts', old_string: 'baz', new_string: 'q' }, ctx)).toEqual({ success: false, text: 'String to replace not found in file.\nString: baz' });
    expect((await call(edit(), { file_path: 'a.ts', old_string: 'foo', new_string: 'q' }, ctx)).text).toMatch(
      /^Found 2 matches of the string to replace, but replace_all is false\./,
    );
    expect(await call(edit(), { file_path: 'a.ts', old_string: 'foo', new_string: 'q', replace_all: true }, ctx)).toEqual({
      success: true,
      text: `The file ${ctx.root}/a.ts has been updated successfully.`,
    });
    expect(ctx.read('a.ts')).toBe('q q bar\n');
  });

  it('identical old and new text, a missing file and a directory are errors', async () => {
    const ctx = fakeContext();
    ctx.write('a.ts', 'x\n');
    ctx.write('d/f', '');
    await readFirst(ctx, 'claude-code', 'Read', { file_path: 'a.ts' });
    expect((await call(edit(), { file_path: 'a.ts', old_string: 'x', new_string: 'x' }, ctx)).success).toBe(false);
    expect(await call(edit(), { file_path: 'nope.ts', old_string: 'x', new_string: 'y' }, ctx)).toEqual({
      success: false,
      text: `File does not exist. Note: your current working directory is ${ctx.root}.`,
    });
    expect((await call(edit(), { file_path: 'd', old_string: 'x', new_string: 'y' }, ctx)).text).toContain('is a directory');
  });

  it('an empty old_string creates a missing file', async () => {
    const ctx = fakeContext();
    expect((await call(edit(), { file_path: 'new/b.ts', old_string: '', new_string: 'hi\n' }, ctx)).success).toBe(true);
    expect(ctx.read('new/b.ts')).toBe('hi\n');
  });

  it('bare Edit replies like the bare profile', async () => {
    const ctx = fakeContext();
    const path = ctx.write('a.ts', 'x\n');
    await readFirst(ctx, 'claude-code-bare', 'Read', { file_path: 'a.ts' });
    expect((await call(bound('claude-code-bare').byName.get('Edit'), { file_path: 'a.ts', old_string: 'x', new_string: 'y' }, ctx)).text).toBe(
      `The file ${path} has been updated successfully.`,
    );
  });
});

describe('other edit tools', () => {
  it('opencode honours replaceAll and requires a read', async () => {
    const ctx = fakeContext();
    const path = ctx.write('o.ts', 'a a\n');
    const edit = bound('opencode').byName.get('edit');
    expect((await call(edit, { filePath: path, oldString: 'a', newString: 'b', replaceAll: true }, ctx)).success).toBe(false);
    await readFirst(ctx, 'opencode', 'read', { filePath: path });
    expect(await call(edit, { filePath: path, oldString: 'a', newString: 'b' }, ctx)).toEqual({
      success: false,
      text: 'Found multiple matches for oldString. Provide more surrounding context to make the match unique.',
    });
    expect(await call(edit, { filePath: path, oldString: 'a', newString: 'b', replaceAll: true }, ctx)).toEqual({ success: true, text: 'Edit applied successfully.' });
    expect(ctx.read('o.ts')).toBe('b b\n');
  });

  it('pi applies edits[] counted against the original, each exactly once', async () => {
    const ctx = fakeContext();
    ctx.write('p.ts', 'alpha beta gamma\n');
    const edit = bound('pi').byName.get('edit');
    const args = { path: 'p.ts', edits: [{ oldText: 'alpha', newText: 'A' }, { oldText: 'gamma', newText: 'G' }] };
    expect(await call(edit, args, ctx)).toEqual({ success: true, text: 'Successfully replaced 2 block(s) in p.ts.' });
    expect(ctx.read('p.ts')).toBe('A beta G\n');
    ctx.write('p.ts', 'x x\n');
    expect((await call(edit, { path: 'p.ts', edits: [{ oldText: 'x', newText: 'y' }] }, ctx)).text).toBe(
      'Found 2 occurrences of the text in p.ts. The text must be unique. Please provide more context to make it unique.',
    );
  });

  it('kimi-cli StrReplaceFile takes one edit or a list and needs ReadFile first', async () => {
    const ctx = fakeContext();
    const path = ctx.write('k.py', 'a = 1\nb = 2\n');
    const edit = bound('kimi-cli').byName.get('StrReplaceFile');
    expect((await call(edit, { path, edit: { old: 'a', new: 'c' } }, ctx)).text).toBe('File has not been read yet. Read it first before writing to it.');
    await readFirst(ctx, 'kimi-cli', 'ReadFile', { path });
    expect(await call(edit, { path, edit: [{ old: 'a = 1', new: 'a = 3' }, { old: 'b', new: 'c' }] }, ctx)).toEqual({
      success: true,
      text: 'File successfully edited. Applied 2 edit(s) with 2 total replacement(s).',
    });
    expect(await call(edit, { path, edit: { old: 'zzz', new: 'y' } }, ctx)).toEqual({
      success: false,
      text: 'No replacements were made. The old string was not found in the file.',
    });
  });

  it('deepseek edit_file uses search/replace', async () => {
    const ctx = fakeContext();
    ctx.write('d.rs', 'fn a() {}\n');
    const edit = bound('deepseek-tui').byName.get('edit_file');
    expect((await call(edit, { path: 'd.rs', search: 'fn a', replace: 'fn b' }, ctx)).success).toBe(true);
    expect(ctx.read('d.rs')).toBe('fn b() {}\n');
    expect(await call(edit, { path: 'd.rs', search: 'nope', replace: 'x' }, ctx)).toEqual({ success: false, text: 'edit_file failed: search not found' });
  });

  it('an edit outside the writable roots is refused before any change', async () => {
    const ctx = fakeContext();
    const outside = fakeContext().write('x.txt', 'x\n');
    const result = await call(bound('qwen-code').byName.get('edit'), { file_path: outside, old_string: 'x', new_string: 'y' }, ctx);
    // The tool leaves the decision to the orchestrator (which may ask the user); here it refuses.
    expect(result).toEqual({ success: false, text: `Edit failed: writing outside of the project; rejected by user approval settings (${outside})` });
    expect(ctx.applied).toEqual([]);
  });
});

describe('Write', () => {
  it('Claude Write creates new files but needs a Read before overwriting', async () => {
    const ctx = fakeContext();
    const write = bound('claude-code').byName.get('Write');
    expect(await call(write, { file_path: 'n/new.txt', content: 'hey' }, ctx)).toEqual({ success: true, text: `File created successfully at: ${ctx.root}/n/new.txt` });
    ctx.write('old.txt', 'old');
    expect((await call(write, { file_path: 'old.txt', content: 'x' }, ctx)).success).toBe(false);
    await readFirst(ctx, 'claude-code', 'Read', { file_path: 'old.txt' });
    expect(await call(write, { file_path: 'old.txt', content: 'x' }, ctx)).toEqual({ success: true, text: `The file ${ctx.root}/old.txt has been updated successfully.` });
    expect(ctx.read('old.txt')).toBe('x');
  });

  it('after a Write the file counts as read', async () => {
    const ctx = fakeContext();
    await call(bound('claude-code').byName.get('Write'), { file_path: 'w.txt', content: 'abc' }, ctx);
    expect((await call(bound('claude-code').byName.get('Edit'), { file_path: 'w.txt', old_string: 'b', new_string: 'B' }, ctx)).success).toBe(true);
  });

  it('kimi Write appends in append mode; qwen and pi reply in their own words', async () => {
    const ctx = fakeContext();
    const path = ctx.write('k.txt', 'a');
    expect((await call(bound('kimi-code').byName.get('Write'), { path, content: 'b', mode: 'append' }, ctx)).success).toBe(true);
    expect(ctx.read('k.txt')).toBe('ab');
    expect((await call(bound('qwen-code').byName.get('write_file'), { file_path: 'q.txt', content: 'z' }, ctx)).text).toBe(
      `Successfully created and wrote to new file: ${ctx.root}/q.txt.`,
    );
    expect((await call(bound('pi').byName.get('write'), { path: 'p.txt', content: 'zz' }, ctx)).text).toBe('Successfully wrote 2 bytes to p.txt');
  });
});
