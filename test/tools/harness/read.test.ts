import { describe, expect, it } from 'vitest';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

const claudeRead = () => bound('claude-code').byName.get('Read');

describe('Claude Read', () => {
  it('numbers lines as N<TAB>text from 1', async () => {
    const ctx = fakeContext();
    ctx.write('a.txt', 'one\ntwo\nthree\n');
    expect(await call(claudeRead(), { file_path: 'a.txt' }, ctx)).toEqual({ success: true, text: '1\tone\n2\ttwo\n3\tthree' });
  });

  it('offset is the 1-based first line and limit the count', async () => {
    const ctx = fakeContext();
    ctx.write('a.txt', 'l1\nl2\nl3\nl4\nl5\n');
    expect((await call(claudeRead(), { file_path: `${ctx.root}/a.txt`, offset: 2, limit: 2 }, ctx)).text).toBe('2\tl2\n3\tl3');
  });

  it('returns at most 2000 lines by default and cuts lines over 2000 characters', async () => {
    const ctx = fakeContext();
    ctx.write('big.txt', Array.from({ length: 2500 }, (_, i) => (i === 0 ? 'x'.repeat(2500) : `line ${i + 1}`)).join('\n'));
    const lines = (await call(claudeRead(), { file_path: 'big.txt' }, ctx)).text.split('\n');
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toBe(`1\t${'x'.repeat(2000)}...`);
    expect(lines[1999]).toBe('2000\tline 2000');
  });

  it('an offset past the end is reported with the file length', async () => {
    const ctx = fakeContext();
    ctx.write('a.txt', 'a\nb\n');
    expect((await call(claudeRead(), { file_path: 'a.txt', offset: 10 }, ctx)).text).toBe(
      '<system-reminder>Warning: the file exists but is shorter than the provided offset (10). The file has 2 lines.</system-reminder>',
    );
  });

  it('a missing file, a directory and a binary file are errors', async () => {
    const ctx = fakeContext();
    ctx.write('dir/x.txt', 'x');
    ctx.write('bin.dat', Buffer.from([0x7f, 0x45, 0x00, 0x01]));
    expect(await call(claudeRead(), { file_path: 'nope.txt' }, ctx)).toEqual({
      success: false,
      text: `File does not exist. Note: your current working directory is ${ctx.root}.`,
    });
    const dir = await call(claudeRead(), { file_path: 'dir' }, ctx);
    expect(dir.success).toBe(false);
    expect(dir.text).toMatch(/^EISDIR: illegal operation on a directory/);
    expect(await call(claudeRead(), { file_path: 'bin.dat' }, ctx)).toEqual({ success: false, text: 'Read failed: file is not UTF-8 text' });
  });

  it('images come back as image parts', async () => {
    const ctx = fakeContext();
    ctx.write('p.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]));
    const result = await bound('claude-code').byName.get('Read')!.handle({ file_path: 'p.png' }, ctx);
    expect(result.success).toBe(true);
    expect(result.output).toEqual([{ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgoA' }]);
  });

  it('an empty file gets the empty-contents reminder', async () => {
    const ctx = fakeContext();
    ctx.write('empty.txt', '');
    expect((await call(claudeRead(), { file_path: 'empty.txt' }, ctx)).text).toContain('contents are empty');
  });
});

describe('other Read formats', () => {
  it('kimi: 6-wide numbers, the <system> note first, a 1000-line cap and tail offsets', async () => {
    const ctx = fakeContext();
    ctx.write('k.txt', Array.from({ length: 1200 }, (_, i) => `r${i + 1}`).join('\n') + '\n');
    const read = bound('kimi-code').byName.get('Read');
    const parts = async (args: Record<string, unknown>) => JSON.parse((await call(read, args, ctx)).text).map((part: { text: string }) => part.text);
    expect(await parts({ path: 'k.txt', n_lines: 2 })).toEqual(['<system>2 lines read from file starting from line 1. Total lines in file: 1200.</system>', '     1\tr1\n     2\tr2\n']);
    const all = await parts({ path: 'k.txt' });
    expect(all[1].split('\n')).toHaveLength(1001);
    // The default asks for exactly 1000 lines, so the cap itself is not mentioned.
    expect(all[0]).toBe('<system>1000 lines read from file starting from line 1. Total lines in file: 1200.</system>');
    expect((await parts({ path: 'k.txt', n_lines: 5000 }))[0]).toContain(' Max 1000 lines reached.');
    expect(await parts({ path: 'k.txt', line_offset: -2 })).toEqual([
      '<system>2 lines read from file starting from line 1199. Total lines in file: 1200. End of file reached.</system>',
      '  1199\tr1199\n  1200\tr1200\n',
    ]);
    expect((await call(read, { path: 'missing.txt' }, ctx)).text).toBe('`missing.txt` does not exist.');
  });

  it('opencode: N: text inside <content>, 1-based offset, the continuation and end-of-file footers', async () => {
    const ctx = fakeContext();
    const path = ctx.write('o.txt', 'a\nb\nc\n');
    const read = bound('opencode').byName.get('read');
    expect((await call(read, { filePath: path, offset: 2, limit: 1 }, ctx)).text).toBe(
      `<path>${path}</path>\n<type>file</type>\n<content>\n2: b\n\n(Showing lines 2-2 of 3. Use offset=3 to continue.)\n</content>`,
    );
    expect((await call(read, { filePath: path }, ctx)).text).toContain('3: c\n\n(End of file - total 3 lines)\n</content>');
  });

  it('pi: raw text with a continuation note when cut', async () => {
    const ctx = fakeContext();
    ctx.write('p.txt', 'a\nb\nc\nd\n');
    const read = bound('pi').byName.get('read');
    expect((await call(read, { path: 'p.txt', offset: 2, limit: 2 }, ctx)).text).toBe('b\nc\n\n[Showing lines 2-3 of 4. Use offset=4 to continue.]');
    expect((await call(read, { path: 'p.txt' }, ctx)).text).toBe('a\nb\nc\nd');
    expect((await call(read, { path: 'p.txt', offset: 9 }, ctx)).success).toBe(false);
  });

  it('pi stops at 50KB', async () => {
    const ctx = fakeContext();
    ctx.write('wide.txt', Array.from({ length: 1000 }, () => 'y'.repeat(99)).join('\n'));
    const text = (await call(bound('pi').byName.get('read'), { path: 'wide.txt' }, ctx)).text;
    expect(text).toMatch(/\[Showing lines 1-512 of 1000\. Use offset=513 to continue\.\]$/);
  });

  it('qwen: offset is 0-based and a range says which lines it shows', async () => {
    const ctx = fakeContext();
    ctx.write('q.txt', 'a\nb\nc\n');
    expect((await call(bound('qwen-code').byName.get('read_file'), { file_path: 'q.txt', offset: 1, limit: 1 }, ctx)).text).toBe(
      'Showing lines 2-2 of 3 total lines.\n\n---\n\nb',
    );
  });

  it('deepseek read_file: start_line and max_lines', async () => {
    const ctx = fakeContext();
    ctx.write('d.txt', 'a\nb\nc\n');
    expect((await call(bound('deepseek-tui').byName.get('read_file'), { path: 'd.txt', start_line: 2, max_lines: 1 }, ctx)).text).toBe('b');
  });
});

describe('Claude Read limits', () => {
  it('refuses a whole-file read over 25,000 tokens unless allow_large or a range is given', async () => {
    const ctx = fakeContext();
    ctx.write('huge.txt', Array.from({ length: 1500 }, () => 'z'.repeat(80)).join('\n'));
    const read = bound('claude-code').byName.get('Read');
    const refused = await call(read, { file_path: 'huge.txt' }, ctx);
    expect(refused.success).toBe(false);
    expect(refused.text).toMatch(/^File content \(\d+ tokens\) exceeds maximum allowed tokens \(25000\)\./);
    expect((await call(read, { file_path: 'huge.txt', allow_large: true }, ctx)).success).toBe(true);
    expect((await call(read, { file_path: 'huge.txt', offset: 1, limit: 100 }, ctx)).success).toBe(true);
  });

  it('PDFs are reported as not readable here', async () => {
    const ctx = fakeContext();
    ctx.write('doc.pdf', '%PDF-1.4');
    expect((await call(bound('claude-code').byName.get('Read'), { file_path: 'doc.pdf', pages: '1-2' }, ctx)).text).toMatch(/^Reading PDF files is not available/);
  });
});
