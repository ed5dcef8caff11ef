// Every error condition of the reference's alias semantics (§4.4), for every built-in profile's
// read and edit tools in their own argument shapes: missing file, directory given as a file,
// binary file, offset past the end, non-unique and absent old text, and editing an unread file
// (an error exactly where the profile enforces read-before-edit). Texts are in the snapshot.
import { describe, expect, it } from 'vitest';
import { builtinProfileDir, listProfileLocations, readProfileFile } from '../../../src/harness/loader.js';
import type { ToolSpec } from '../../../src/tools/spec.js';
import { bound } from './bind.js';
import { call, fakeContext, type FakeContext } from './fake-context.js';

const profiles = listProfileLocations({ builtinDir: builtinProfileDir() }).map(({ file }) => readProfileFile(file, 'builtin'));

function props(spec: ToolSpec): Record<string, unknown> {
  return ((spec.parameters ?? {}) as { properties?: Record<string, unknown> }).properties ?? {};
}

function pathKey(spec: ToolSpec): string {
  return ['file_path', 'path', 'filePath'].find((key) => key in props(spec)) ?? 'path';
}

function editArgs(spec: ToolSpec, path: string, oldText: string, newText: string): Record<string, unknown> {
  const p = props(spec);
  const at = { [pathKey(spec)]: path };
  if ('edits' in p) return { ...at, edits: [{ oldText, newText }] };
  if ('edit' in p) return { ...at, edit: { old: oldText, new: newText } };
  if ('search' in p) return { ...at, search: oldText, replace: newText };
  if ('oldString' in p) return { ...at, oldString: oldText, newString: newText };
  return { ...at, old_string: oldText, new_string: newText };
}

function offsetKey(spec: ToolSpec): string | undefined {
  return ['offset', 'line_offset', 'start_line'].find((key) => key in props(spec));
}

const tools = (capability: string) =>
  profiles.flatMap((profile) =>
    profile.tools
      .filter((tool) => tool.capability === capability)
      .map((tool) => ({ id: profile.id, name: tool.name, readFirst: tool.options['read_before_edit'] === true, reader: profile.tools.find((t) => t.capability === 'fs.read')?.name })),
  );

function normalize(ctx: FakeContext, text: string): string {
  return text.split(ctx.root).join('<ROOT>');
}

/** Read tools whose original lists a directory instead of refusing it (opencode's read.ts). */
const LISTS_DIRECTORIES = new Set(['opencode read']);

describe.each(tools('fs.read'))('$id $name', ({ id, name }) => {
  const spec = () => bound(id).byName.get(name)!;

  it('missing file, directory, binary file: errors; an offset past the end is reported', async ({ expect }) => {
    const ctx = fakeContext();
    ctx.write('a.txt', 'a\nb\n');
    ctx.write('dir/x.txt', 'x');
    ctx.write('bin.dat', Buffer.from([0x7f, 0x45, 0x00, 0x01, 0xff, 0xfe]));
    const key = pathKey(spec());
    const missing = await call(spec(), { [key]: `${ctx.root}/nope.txt` }, ctx);
    const directory = await call(spec(), { [key]: `${ctx.root}/dir` }, ctx);
    const binary = await call(spec(), { [key]: `${ctx.root}/bin.dat` }, ctx);
    expect([missing.success, directory.success, binary.success]).toEqual([false, LISTS_DIRECTORIES.has(`${id} ${name}`), false]);
    const offset = offsetKey(spec());
    const pastEnd = offset ? await call(spec(), { [key]: `${ctx.root}/a.txt`, [offset]: 100 }, ctx) : undefined;
    // Past the end nothing of the file may come back as if it were there.
    if (pastEnd) expect(pastEnd.text).not.toMatch(/\ba\n.*\bb\b/s);
    expect({
      missing: normalize(ctx, missing.text),
      directory: normalize(ctx, directory.text),
      binary: normalize(ctx, binary.text),
      pastEnd: pastEnd && { success: pastEnd.success, text: normalize(ctx, pastEnd.text) },
    }).toMatchSnapshot();
  });
});

describe.each(tools('fs.edit'))('$id $name', ({ id, name, readFirst, reader }) => {
  const harness = () => bound(id);
  const spec = () => harness().byName.get(name)!;

  it('unread file: refused exactly where the profile enforces read-before-edit', async ({ expect }) => {
    const ctx = fakeContext();
    const file = ctx.write('a.txt', 'foo\nbar\n');
    const unread = await call(spec(), editArgs(spec(), file, 'bar', 'baz'), ctx);
    expect(unread.success).toBe(!readFirst);
    expect(ctx.read('a.txt')).toBe(readFirst ? 'foo\nbar\n' : 'foo\nbaz\n');
    expect(normalize(ctx, unread.text)).toMatchSnapshot();
  });

  it('non-unique and absent old text, missing file, directory, binary file: errors that change nothing', async ({ expect }) => {
    const ctx = fakeContext();
    const file = ctx.write('a.txt', 'foo\nfoo\n');
    const binaryFile = ctx.write('bin.dat', Buffer.from([0x00, 0xff, 0x66, 0x6f, 0x6f]));
    ctx.write('dir/x.txt', 'x');
    const read = reader ? harness().byName.get(reader) : undefined;
    if (read) {
      await call(read, { [pathKey(read)]: file }, ctx);
      await call(read, { [pathKey(read)]: binaryFile }, ctx);
    }
    const results = {
      nonUnique: await call(spec(), editArgs(spec(), file, 'foo', 'x'), ctx),
      absent: await call(spec(), editArgs(spec(), file, 'nothing-like-this', 'x'), ctx),
      missing: await call(spec(), editArgs(spec(), `${ctx.root}/nope.txt`, 'foo', 'x'), ctx),
      directory: await call(spec(), editArgs(spec(), `${ctx.root}/dir`, 'foo', 'x'), ctx),
      binary: await call(spec(), editArgs(spec(), binaryFile, 'foo', 'x'), ctx),
    };
    expect(Object.fromEntries(Object.entries(results).map(([key, value]) => [key, value.success]))).toEqual({
      nonUnique: false, absent: false, missing: false, directory: false, binary: false,
    });
    expect(ctx.read('a.txt')).toBe('foo\nfoo\n');
    expect(ctx.applied).toEqual([]);
    expect(Object.fromEntries(Object.entries(results).map(([key, value]) => [key, normalize(ctx, value.text)]))).toMatchSnapshot();
  });
});

describe('swe-agent str_replace_editor', () => {
  const spec = () => bound('swe-agent').byName.get('str_replace_editor')!;
  it('every error condition of the editor', async () => {
    const ctx = fakeContext();
    const file = ctx.write('a.txt', 'foo\nfoo\n');
    const bin = ctx.write('bin.dat', Buffer.from([0x00, 0xff]));
    const results = await Promise.all([
      call(spec(), { command: 'str_replace', path: file, old_str: 'foo', new_str: 'x' }, ctx),
      call(spec(), { command: 'str_replace', path: file, old_str: 'zzz', new_str: 'x' }, ctx),
      call(spec(), { command: 'view', path: `${ctx.root}/nope.txt` }, ctx),
      call(spec(), { command: 'str_replace', path: ctx.root, old_str: 'foo', new_str: 'x' }, ctx),
      call(spec(), { command: 'view', path: bin }, ctx),
      call(spec(), { command: 'view', path: file, view_range: [10, 12] }, ctx),
      call(spec(), { command: 'view', path: 'a.txt' }, ctx),
      call(spec(), { command: 'create', path: file, file_text: 'x' }, ctx),
    ]);
    expect(results.map((result) => result.success)).toEqual([false, false, false, false, false, false, false, false]);
    expect(ctx.read('a.txt')).toBe('foo\nfoo\n');
    expect(results.map((result) => normalize(ctx, result.text))).toEqual([
      'No replacement was performed. Multiple occurrences of old_str `foo` in lines [1,2]. Please ensure it is unique',
      'No replacement was performed, old_str `zzz` did not appear verbatim in <ROOT>/a.txt.',
      'The path <ROOT>/nope.txt does not exist. Please provide a valid path.',
      'The path <ROOT> is a directory and only the `view` command can be used on directories',
      '<ROOT>/bin.dat is not a UTF-8 text file',
      'Invalid `view_range`: [10,12]. Its first element should be within the range of lines of the file: [1, 3]',
      'The path a.txt is not an absolute path, it should start with `/`. Maybe you meant <ROOT>/a.txt?',
      'File already exists at: <ROOT>/a.txt. Cannot overwrite files using command `create`.',
    ]);
  });
});

it('the tables above cover every read and edit tool of every built-in profile', () => {
  expect(tools('fs.read').length).toBeGreaterThanOrEqual(10);
  expect(tools('fs.edit').length).toBeGreaterThanOrEqual(10);
});
