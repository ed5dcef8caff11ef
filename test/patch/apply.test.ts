import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPatch, preparePatch } from '../../src/patch/apply.js';
import { FileCommitError } from '../../src/patch/commit.js';
import { PatchParseError } from '../../src/patch/parse.js';
import { PatchApplyError } from '../../src/patch/update.js';

const dirs: string[] = [];
function workspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-apply-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function read(dir: string, name: string): string {
  return fs.readFileSync(path.join(dir, name), 'utf8');
}

describe('applyPatch', () => {
  it('applies a multi-file patch and reports A, M, D with the paths as spelled', async () => {
    const dir = workspace({ 'modify.txt': 'line1\nline2\n', 'delete.txt': 'x\n', 'old/name.txt': 'from\n' });
    const result = await applyPatch(
      [
        '*** Begin Patch',
        '*** Delete File: delete.txt',
        '*** Update File: modify.txt',
        '@@',
        '-line2',
        '+changed',
        '*** Add File: nested/new.txt',
        '+created',
        '*** Update File: old/name.txt',
        '*** Move to: renamed/name.txt',
        '@@',
        '-from',
        '+to',
        '*** End Patch',
      ].join('\n'),
      dir,
    );
    expect(result.summary).toBe(
      'Success. Updated the following files:\nA nested/new.txt\nM modify.txt\nM renamed/name.txt\nD delete.txt\n',
    );
    expect(result.changes).toEqual([
      { path: 'delete.txt', kind: 'delete' },
      { path: 'modify.txt', kind: 'update' },
      { path: 'nested/new.txt', kind: 'add' },
      { path: 'renamed/name.txt', kind: 'update' },
    ]);
    expect(read(dir, 'modify.txt')).toBe('line1\nchanged\n');
    expect(read(dir, 'renamed/name.txt')).toBe('to\n');
    expect(fs.existsSync(path.join(dir, 'old/name.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'old'))).toBe(true);
  });

  it('changes nothing when the second file fails, and says why', async () => {
    const dir = workspace({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const error = await applyPatch(
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-nope\n+B\n*** End Patch',
      dir,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PatchApplyError);
    expect((error as Error).message).toBe(`Failed to find expected lines in ${path.join(dir, 'b.txt')}:\nnope`);
    expect(read(dir, 'a.txt')).toBe('a\n');
  });

  it('preserves CRLF through a whole apply', async () => {
    const dir = workspace({ 'win.txt': 'one\r\ntwo\r\n' });
    await applyPatch('*** Begin Patch\r\n*** Update File: win.txt\r\n@@\r\n one\r\n-two\r\n+TWO\r\n+three\r\n*** End Patch\r\n', dir);
    expect(read(dir, 'win.txt')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('rejects an empty patch, parse errors and double targets', async () => {
    const dir = workspace({ 'f.txt': 'f\n' });
    await expect(applyPatch('*** Begin Patch\n*** End Patch', dir)).rejects.toThrow(new PatchApplyError('No files were modified.'));
    await expect(applyPatch('*** Begin Patch\n*** Nope\n*** End Patch', dir)).rejects.toBeInstanceOf(PatchParseError);
    await expect(
      applyPatch('*** Begin Patch\n*** Delete File: f.txt\n*** Add File: f.txt\n+x\n*** End Patch', dir),
    ).rejects.toThrow(`multiple operations target ${path.join(dir, 'f.txt')}`);
    await expect(applyPatch('*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch', dir)).rejects.toThrow(
      `Failed to delete file ${path.join(dir, 'missing.txt')}`,
    );
    await expect(
      applyPatch('*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch', dir),
    ).rejects.toThrow(`Failed to read file to update ${path.join(dir, 'missing.txt')}: No such file or directory (os error 2)`);
    expect(read(dir, 'f.txt')).toBe('f\n');
  });

  it('round-trips a UTF-8 byte-order mark through read, verify and commit', async () => {
    const dir = workspace({ 'bom.txt': '\uFEFFa\nb\n' });
    await applyPatch('*** Begin Patch\n*** Update File: bom.txt\n@@\n a\n-b\n+B\n*** End Patch', dir);
    expect(fs.readFileSync(path.join(dir, 'bom.txt'))).toEqual(Buffer.from('\uFEFFa\nB\n', 'utf8'));
  });

  it('refuses binary (non UTF-8) files instead of corrupting them', async () => {
    const dir = workspace({});
    fs.writeFileSync(path.join(dir, 'bin.dat'), Buffer.from([0xff, 0xfe, 0x0a]));
    await expect(
      applyPatch('*** Begin Patch\n*** Update File: bin.dat\n@@\n+x\n*** End Patch', dir),
    ).rejects.toThrow(/not UTF-8 text/);
  });

  it('asks canWrite and refuses paths outside the writable area', async () => {
    const dir = workspace({});
    const outside = path.resolve(dir, '../rig-apply-outside-target.txt');
    const error = await applyPatch(`*** Begin Patch\n*** Add File: ${outside}\n+x\n*** End Patch`, dir, {
      canWrite: (abs) => abs.startsWith(dir + path.sep),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileCommitError);
    expect(fs.existsSync(outside)).toBe(false);
  });

  it('prepares the change set with before and after text without writing', () => {
    const dir = workspace({ 'a.txt': 'a\n' });
    const prepared = preparePatch('*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch', dir);
    expect(prepared.edits).toEqual([
      { path: path.join(dir, 'a.txt'), kind: 'update', content: 'b\n', expectedContent: 'a\n' },
    ]);
    expect(prepared.displayPath(path.join(dir, 'a.txt'))).toBe('a.txt');
    expect(read(dir, 'a.txt')).toBe('a\n');
  });
});
