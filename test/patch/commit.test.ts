import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileCommitError, commitFileEdits } from '../../src/patch/commit.js';
import type { FileEdit } from '../../src/tools/spec.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-commit-'));
  dirs.push(dir);
  return dir;
}
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every path under root with file contents (and link targets), for before/after comparison. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      const rel = path.relative(root, abs);
      const stat = fs.lstatSync(abs);
      if (stat.isSymbolicLink()) out[rel] = `link -> ${fs.readlinkSync(abs)}`;
      else if (stat.isDirectory()) {
        out[rel] = 'dir';
        walk(abs);
      } else out[rel] = fs.readFileSync(abs, 'utf8');
    }
  };
  walk(root);
  return out;
}

async function commitError(edits: FileEdit[], options = {}): Promise<FileCommitError> {
  const error = await commitFileEdits(edits, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FileCommitError);
  return error as FileCommitError;
}

describe('commitFileEdits', () => {
  it('adds, updates, moves and deletes, creating parent directories, and summarises', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'mod.txt'), 'old\n');
    fs.writeFileSync(path.join(root, 'gone.txt'), 'bye\n');
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src/from.txt'), 'x\n');
    const { summary } = await commitFileEdits(
      [
        { path: path.join(root, 'mod.txt'), kind: 'update', content: 'new\n', expectedContent: 'old\n' },
        { path: path.join(root, 'a/b/new.txt'), kind: 'add', content: 'hello\n' },
        { path: path.join(root, 'gone.txt'), kind: 'delete', expectedContent: 'bye\n' },
        {
          path: path.join(root, 'src/from.txt'),
          kind: 'update',
          content: 'y\n',
          expectedContent: 'x\n',
          moveTo: path.join(root, 'dst/to.txt'),
        },
      ],
      { displayPath: (abs) => path.relative(root, abs) },
    );
    expect(tree(root)).toEqual({
      a: 'dir',
      'a/b': 'dir',
      'a/b/new.txt': 'hello\n',
      dst: 'dir',
      'dst/to.txt': 'y\n',
      'mod.txt': 'new\n',
      src: 'dir',
    });
    expect(summary.changes).toEqual([
      { path: 'mod.txt', kind: 'update' },
      { path: 'a/b/new.txt', kind: 'add' },
      { path: 'gone.txt', kind: 'delete' },
      { path: 'dst/to.txt', kind: 'update' },
    ]);
    expect(summary.text).toBe(
      'Success. Updated the following files:\nA a/b/new.txt\nM mod.txt\nM dst/to.txt\nD gone.txt\n',
    );
  });

  it('returns undo edits that restore the previous tree exactly', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'mod.txt'), 'old\r\n');
    fs.writeFileSync(path.join(root, 'gone.txt'), 'bye\n');
    fs.writeFileSync(path.join(root, 'over.txt'), 'was here\n');
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src/from.txt'), 'x\n');
    fs.writeFileSync(path.join(root, 'dest.txt'), 'replaced by move\n');
    const before = tree(root);
    const { undo } = await commitFileEdits([
      { path: path.join(root, 'mod.txt'), kind: 'update', content: 'new\r\n' },
      { path: path.join(root, 'fresh.txt'), kind: 'add', content: 'hello\n' },
      { path: path.join(root, 'over.txt'), kind: 'add', content: 'overwritten\n' },
      { path: path.join(root, 'gone.txt'), kind: 'delete' },
      { path: path.join(root, 'src/from.txt'), kind: 'update', content: 'y\n', moveTo: path.join(root, 'dest.txt') },
    ]);
    expect(tree(root)).not.toEqual(before);
    await commitFileEdits(undo);
    expect(tree(root)).toEqual(before);
  });

  it('keeps the permission bits of a replaced file', async () => {
    const root = tempDir();
    const script = path.join(root, 'run.sh');
    fs.writeFileSync(script, 'echo 1\n');
    fs.chmodSync(script, 0o751);
    await commitFileEdits([{ path: script, kind: 'update', content: 'echo 2\n', expectedContent: 'echo 1\n' }]);
    expect(fs.statSync(script).mode & 0o777).toBe(0o751);
    expect(fs.readFileSync(script, 'utf8')).toBe('echo 2\n');
  });

  it('keeps the owner of a replaced file when running as root', async () => {
    if (process.getuid?.() !== 0) return;
    const root = tempDir();
    const file = path.join(root, 'owned.txt');
    fs.writeFileSync(file, 'a\n');
    fs.chownSync(file, 65534, 65534);
    await commitFileEdits([{ path: file, kind: 'update', content: 'b\n', expectedContent: 'a\n' }]);
    expect(fs.statSync(file)).toMatchObject({ uid: 65534, gid: 65534 });
  });

  it('changes nothing when a later file changed on disk since the edit was computed', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(root, 'b.txt'), 'changed meanwhile\n');
    const before = tree(root);
    const error = await commitError([
      { path: path.join(root, 'a.txt'), kind: 'update', content: 'A\n', expectedContent: 'a\n' },
      { path: path.join(root, 'new/c.txt'), kind: 'add', content: 'c\n' },
      { path: path.join(root, 'b.txt'), kind: 'update', content: 'B\n', expectedContent: 'b\n' },
    ]);
    expect(error.message).toBe(
      `${path.join(root, 'b.txt')} changed on disk after the edit was prepared; read it again and redo the edit\nNo files were changed.`,
    );
    expect(tree(root)).toEqual(before);
  });

  it('refuses to treat directories as files', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'dir'));
    const before = tree(root);
    expect((await commitError([{ path: path.join(root, 'dir'), kind: 'delete' }])).message).toMatch(/it is a directory/);
    expect((await commitError([{ path: path.join(root, 'dir'), kind: 'add', content: '' }])).message).toMatch(/it is a directory/);
    fs.writeFileSync(path.join(root, 'file'), '');
    expect((await commitError([{ path: path.join(root, 'file/x'), kind: 'add', content: '' }])).message).toMatch(
      /is not a directory/,
    );
    fs.rmSync(path.join(root, 'file'));
    expect(tree(root)).toEqual(before);
  });

  it('refuses the whole change set when canWrite rejects one path', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'ok.txt'), 'ok\n');
    const before = tree(root);
    const blocked = path.join(root, 'blocked.txt');
    const error = await commitError(
      [
        { path: path.join(root, 'ok.txt'), kind: 'update', content: 'changed\n', expectedContent: 'ok\n' },
        { path: blocked, kind: 'add', content: 'x' },
      ],
      { canWrite: (abs: string) => abs !== blocked },
    );
    expect(error.message).toBe(`Cannot write ${blocked}: the sandbox policy does not allow writing there\nNo files were changed.`);
    expect(error.path).toBe(blocked);
    expect(tree(root)).toEqual(before);
  });

  it('writes through a symlink to its target, keeping the link', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'real.txt'), 'one\n');
    fs.symlinkSync('real.txt', path.join(root, 'link.txt'));
    await commitFileEdits([{ path: path.join(root, 'link.txt'), kind: 'update', content: 'two\n', expectedContent: 'one\n' }]);
    expect(tree(root)).toEqual({ 'link.txt': 'link -> real.txt', 'real.txt': 'two\n' });
  });

  it('never follows a symlink out of the writable area', async () => {
    const inside = tempDir();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'keep\n');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(inside, 'innocent.txt'));
    fs.symlinkSync(outside, path.join(inside, 'linkdir'));
    const canWrite = (abs: string): boolean => abs.startsWith(inside + path.sep);
    const before = [tree(inside), tree(outside)];

    const viaFile = await commitError(
      [{ path: path.join(inside, 'innocent.txt'), kind: 'add', content: 'pwned\n' }],
      { canWrite },
    );
    expect(viaFile.message).toContain(`resolves through a symbolic link to ${path.join(outside, 'secret.txt')}`);
    const viaDir = await commitError(
      [{ path: path.join(inside, 'linkdir/new/file.txt'), kind: 'add', content: 'x\n' }],
      { canWrite },
    );
    expect(viaDir.message).toContain(path.join(outside, 'new/file.txt'));
    const deleteViaDir = await commitError([{ path: path.join(inside, 'linkdir/secret.txt'), kind: 'delete' }], { canWrite });
    expect(deleteViaDir.message).toContain('symbolic link');
    expect([tree(inside), tree(outside)]).toEqual(before);
  });

  it('rolls back renames already done when a later one is denied mid-commit', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'first.txt'), 'first\n');
    fs.mkdirSync(path.join(root, 'locked'));
    const lockedFile = path.join(root, 'locked/victim.txt');
    fs.writeFileSync(lockedFile, 'victim\n');
    const before = tree(root);
    // A real permission failure that only shows at rename time: root ignores mode bits, so
    // there the file is made immutable instead.
    if (process.getuid?.() === 0) {
      try {
        execFileSync('chattr', ['+i', lockedFile], { stdio: 'ignore' });
      } catch {
        console.warn('chattr +i unavailable; cannot provoke a permission error as root');
        return;
      }
      cleanups.push(() => execFileSync('chattr', ['-i', lockedFile], { stdio: 'ignore' }));
    } else {
      fs.chmodSync(path.join(root, 'locked'), 0o555);
      cleanups.push(() => fs.chmodSync(path.join(root, 'locked'), 0o755));
    }
    const error = await commitError([
      { path: path.join(root, 'first.txt'), kind: 'update', content: 'FIRST\n', expectedContent: 'first\n' },
      { path: path.join(root, 'made/deep/new.txt'), kind: 'add', content: 'new\n' },
      { path: lockedFile, kind: 'delete', expectedContent: 'victim\n' },
    ]);
    expect(error.message).toMatch(new RegExp(`^Failed to delete file ${lockedFile}: E(PERM|ACCES)`));
    expect(error.message.endsWith('\nNo files were changed.')).toBe(true);
    for (const cleanup of cleanups.splice(0)) cleanup();
    expect(tree(root)).toEqual(before);
  });

  it('leaves no temporary or backup files behind', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(root, 'b.txt'), 'b\n');
    await commitFileEdits([
      { path: path.join(root, 'a.txt'), kind: 'update', content: 'A\n' },
      { path: path.join(root, 'b.txt'), kind: 'delete' },
    ]);
    expect(fs.readdirSync(root)).toEqual(['a.txt']);
  });

  it('rejects two edits of one file and relative paths', async () => {
    const root = tempDir();
    const file = path.join(root, 'x.txt');
    expect(
      (await commitError([
        { path: file, kind: 'add', content: '1' },
        { path: file, kind: 'add', content: '2' },
      ])).message,
    ).toMatch(/^More than one edit targets/);
    expect((await commitError([{ path: 'rel.txt', kind: 'add', content: '' }])).message).toMatch(/must be absolute/);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  describe('a directory swapped for a symlink after the check', () => {
    // The check (canWrite) runs during planning; swapping inside it reproduces the race
    // deterministically: the path was fine when checked and leads outside when written.
    function swapOnCheck(root: string, outside: string, dirName: string): (abs: string) => boolean {
      let swapped = false;
      return (abs) => {
        if (!swapped) {
          swapped = true;
          fs.renameSync(path.join(root, dirName), path.join(root, `${dirName}-moved`));
          fs.symlinkSync(outside, path.join(root, dirName));
        }
        return abs.startsWith(root + '/') && !abs.startsWith(outside);
      };
    }

    for (const kind of ['add', 'update', 'delete'] as const) {
      it(`${kind}: fails, writes nothing outside and leaves no temp file`, async () => {
        const base = fs.realpathSync(tempDir());
        const root = path.join(base, 'ws');
        const outside = path.join(base, 'outside');
        fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
        fs.mkdirSync(outside);
        fs.writeFileSync(path.join(root, 'sub', 'f.txt'), 'inside\n');
        fs.writeFileSync(path.join(outside, 'f.txt'), 'victim\n');
        const target = path.join(root, 'sub', kind === 'add' ? 'new/deeper/g.txt' : 'f.txt');
        const edit: FileEdit = kind === 'delete' ? { path: target, kind } : { path: target, kind, content: 'model\n' };
        const error = await commitError([edit], { canWrite: swapOnCheck(root, outside, 'sub') });
        expect(error.message).toMatch(/changed while the edit was being applied/);
        expect(tree(outside)).toEqual({ 'f.txt': 'victim\n' });
        expect(tree(path.join(root, 'sub-moved'))).toEqual({ 'f.txt': 'inside\n' });
      });
    }
  });
});

describe('temp file names', () => {
  it('match the pattern the start-up walk removes when their writer is gone', async () => {
    const { siblingName } = await import('../../src/patch/commit.js');
    const { EDIT_TEMP_NAME } = await import('../../src/exec/sandbox/protected-scan.js');
    const name = siblingName('notes.md', 'tmp');
    expect(EDIT_TEMP_NAME.exec(name)?.[1]).toBe(String(process.pid));
    expect(EDIT_TEMP_NAME.test(siblingName('notes.md', 'bak'))).toBe(false);
  });
});
