import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand, isKnownSafeCommand, isSafeToCallWithExec, loadBashParser, type BashParser } from '../../src/policy/index.js';

let bash: BashParser;
let base = '';
// Read-only git commands are known safe only in a directory whose repository runs nothing else,
// checked against what the sandbox could write (here: nothing).
const linux = { platform: 'linux' as const, cwd: '', tty: false, canWrite: (_: string) => false, env: {} as Record<string, string> };

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore', env: { PATH: process.env['PATH'], HOME: base, GIT_CONFIG_NOSYSTEM: '1' } });
function repo(name: string): string {
  const dir = path.join(base, name);
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

beforeAll(async () => {
  bash = await loadBashParser();
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-safe-commands-')));
  linux.cwd = repo('clean');
  linux.env = { HOME: path.join(base, 'home') };
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const SAFE: string[][] = [
  ['ls'], ['ls', '-la', '/etc'], ['/bin/ls'], ['cat', 'README.md'], ['cd', 'src'], ['cut', '-d,', '-f1'], ['echo', 'hi'],
  ['expr', '1', '+', '2'], ['false'], ['grep', '-R', 'TODO', '.'], ['head', '-n', '5', 'x'], ['id'], ['nl', '-nrz', 'Cargo.toml'],
  ['paste', 'a', 'b'], ['pwd'], ['rev'], ['seq', '3'], ['stat', 'x'], ['tail', '-f', 'log'], ['tr', 'a', 'b'], ['true'],
  ['uname', '-a'], ['uniq'], ['wc', '-l'], ['which', 'git'], ['whoami'], ['numfmt', '1000'], ['tac', 'x'],
  ['base64'], ['base64', '-d', 'in'],
  ['find', '.', '-name', 'file.txt'], ['find', '.', '-type', 'f', '-print'],
  ['rg', 'Cargo.toml', '-n'], ['rg', '--pretty', 'x'],
  ['sed', '-n', '10p'], ['sed', '-n', '1,5p', 'file.txt'],
  ['git', 'status'], ['git', 'status', '--short'], ['git', 'log', '-p', '-1'], ['git', 'diff', '--stat'], ['git', 'show', 'HEAD'],
  ['git', '--no-pager', 'log'], ['/usr/bin/git', 'diff'],
  ['git', 'branch'], ['git', 'branch', '--show-current'], ['git', 'branch', '-a', '-v'], ['git', 'branch', '--format=%(refname)'],
];

const UNSAFE: string[][] = [
  [], ['foo'], ['cargo', 'check'], ['rm', 'x'], ['python3', '-c', 'print(1)'], ['npm', 'test'], ['touch', 'x'],
  ['base64', '-o', 'out.bin'], ['base64', '--output', 'out.bin'], ['base64', '--output=out.bin'], ['base64', '-ob64.txt'],
  ['find', '.', '-name', 'file.txt', '-exec', 'rm', '{}', ';'], ['find', '.', '-execdir', 'python3', '{}', ';'],
  ['find', '.', '-ok', 'rm', '{}', ';'], ['find', '.', '-okdir', 'rm', '{}', ';'], ['find', '.', '-delete'],
  ['find', '.', '-fls', '/etc/passwd'], ['find', '.', '-fprint', 'x'], ['find', '.', '-fprint0', 'x'], ['find', '.', '-fprintf', 'x', '%p'],
  ['rg', '--pre', 'pwned', 'files'], ['rg', '--pre=pwned', 'files'], ['rg', '--hostname-bin', 'pwned'], ['rg', '--hostname-bin=pwned'],
  ['rg', '--search-zip', 'files'], ['rg', '-z', 'files'],
  ['sed', '-n', 'xp', 'file.txt'], ['sed', '-i', 's/a/b/', 'f'], ['sed', '-n', '1p', 'a', 'b'], ['sed', '-n', '1,2,3p'], ['sed', '1p'],
  ['git', 'fetch'], ['git', 'push'], ['git', 'checkout', 'main'], ['git', 'commit', '-m', 'x'],
  ['git', '-c', 'core.pager=evil', 'log'], ['git', '-ccore.pager=evil', 'log'], ['git', '-C', '/repo', 'status'], ['git', '-C/repo', 'status'],
  ['git', '-p', 'log'], ['git', '--paginate', 'log'], ['git', '--config-env', 'core.pager=X', 'log'], ['git', '--config-env=core.pager=X', 'log'],
  ['git', '--exec-path=/tmp', 'status'], ['git', '--git-dir', '/x', 'status'], ['git', '--work-tree=/x', 'status'],
  ['git', '--namespace', 'n', 'log'], ['git', '--super-prefix=x', 'status'],
  ['git', 'diff', '--output', 'patch.txt'], ['git', 'diff', '--output=patch.txt'], ['git', 'diff', '--ext-diff'], ['git', 'log', '--textconv'],
  ['git', 'show', '--exec=x'], ['git', 'show', '--exec', 'x'],
  ['git', 'branch', 'new-feature'], ['git', 'branch', '-d', 'old'], ['git', 'branch', '-D', 'old'], ['git', 'branch', '-m', 'a', 'b'],
  ['git', 'branch', '--list', 'x'],
  // rig is stricter than the reference list where the program can still write or run something.
  ['uniq', 'a', 'b'], ['uniq', '-c', 'in', 'out'], ['uniq', '-f', '1', 'in', 'out'], ['rg', '-nz', 'x'], ['rg', '-iz', 'x'], ['base64', '-do', 'x'],
  ['git', '--bare', 'status'], ['git', '--list-cmds=main', 'status'], ['git', 'diff', '--outp=x'], ['git', 'log', '--ext'], ['git', 'log', '--textc'],
  ['./ls'], ['/tmp/ls'], ['bin/cat', 'x'], ['/usr/bin/../../tmp/ls'],
];

describe('isSafeToCallWithExec', () => {
  it.each(SAFE)('safe: %j', (...argv) => {
    expect(isSafeToCallWithExec(argv, linux)).toBe(true);
  });
  it.each(UNSAFE.map((argv) => [argv]))('not safe: %j', (argv) => {
    expect(isSafeToCallWithExec(argv, linux)).toBe(false);
  });
  it('knows numfmt and tac only on Linux', () => {
    expect(isSafeToCallWithExec(['tac', 'x'], { platform: 'darwin' })).toBe(false);
    expect(isSafeToCallWithExec(['numfmt', '1'], { platform: 'darwin' })).toBe(false);
  });
  it('keeps a short-option value from looking like a flag', () => {
    expect(isSafeToCallWithExec(['rg', '-gz', 'x'], linux)).toBe(true);
    expect(isSafeToCallWithExec(['uniq', '-f1', 'in'], linux)).toBe(true);
    expect(isSafeToCallWithExec(['git', 'diff', '--text'], linux)).toBe(true);
  });
  it('counts git only where it runs and only off a terminal (less would read the keystrokes)', () => {
    expect(isSafeToCallWithExec(['git', 'status'], { platform: 'linux' })).toBe(false);
    expect(isSafeToCallWithExec(['git', 'log'], { ...linux, tty: true })).toBe(false);
    expect(isSafeToCallWithExec(['git', '--no-pager', 'log'], { ...linux, tty: true })).toBe(true);
    expect(isSafeToCallWithExec(['git', 'status'], { ...linux, canWrite: () => true })).toBe(false);
  });
});

describe('a bare program name counts only where PATH finds the real one', () => {
  it('is not safe when PATH searches a directory commands can write (or the cwd) before finding it', () => {
    const planted = path.join(base, 'planted-bin');
    fs.mkdirSync(planted, { recursive: true });
    fs.writeFileSync(path.join(planted, 'ls'), '#!/bin/sh\n', { mode: 0o755 });
    const inPlanted = (p: string) => p.startsWith(planted);
    const at = (PATH: string, canWrite: (p: string) => boolean = () => false) => isSafeToCallWithExec(['ls'], { ...linux, env: { ...linux.env, PATH }, canWrite });
    expect(at(`/usr/bin:/bin`)).toBe(true);
    expect(at(`${planted}:/usr/bin:/bin`, inPlanted)).toBe(false);
    // Even before anything is planted there: a command could put one in later.
    expect(at(`${path.join(base, 'empty-bin')}:/usr/bin:/bin`, (p) => p.startsWith(path.join(base, 'empty-bin')))).toBe(false);
    expect(at(`.:/usr/bin:/bin`)).toBe(false);
    expect(at(`/usr/bin::/bin`)).toBe(true);
    expect(at(`::/usr/bin`)).toBe(false);
    // A directory the user cannot write is not the model's, even without a sandbox (root can write it).
    expect(at(`/usr/bin:/bin`, () => true)).toBe(process.getuid?.() !== 0);
  });
});

describe('read-only git in a repository that would run a program', () => {
  const status = (cwd: string, extra: Partial<typeof linux> = {}) => isSafeToCallWithExec(['git', 'status'], { ...linux, cwd, ...extra });

  it('is not safe in a directory that git takes for a bare repository (its own config applies)', () => {
    const evil = path.join(linux.cwd, 'evil');
    fs.mkdirSync(path.join(evil, 'objects'), { recursive: true });
    fs.mkdirSync(path.join(evil, 'refs'));
    fs.writeFileSync(path.join(evil, 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(evil, 'config'), '[core]\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch pwned; false"\n');
    expect(status(evil)).toBe(false);
    expect(isKnownSafeCommand(['bash', '-lc', 'cd evil && git status'], bash, linux)).toBe(false);
    expect(status(linux.cwd)).toBe(true);
  });

  it.each([
    ['core.fsmonitor', 'core.fsmonitor', 'touch pwned'],
    ['core.pager', 'core.pager', 'sh -c x'],
    ['core.hooksPath', 'core.hooksPath', '/tmp/hooks'],
    ['diff.external', 'diff.external', 'x'],
    ['a textconv driver', 'diff.bin.textconv', 'x'],
    ['a clean filter', 'filter.x.clean', 'x'],
    ['an include', 'include.path', '../other'],
    ['a conditional include', 'includeIf.gitdir:/.path', '../other'],
    ['a pager for one command', 'pager.status', 'x'],
    ['a gpg program', 'gpg.program', 'x'],
  ])('is not safe when the repository config sets %s', (_name, key, value) => {
    const dir = repo(`config-${key}`);
    git(dir, 'config', key, value);
    expect(status(dir)).toBe(false);
  });

  it('stays safe with the builtin fsmonitor and Git LFS filters', () => {
    const dir = repo('fine-config');
    git(dir, 'config', 'core.fsmonitor', 'true');
    git(dir, 'config', 'filter.lfs.clean', 'git-lfs clean -- %f');
    git(dir, 'config', 'filter.lfs.process', 'git-lfs filter-process');
    expect(status(dir)).toBe(true);
  });

  it('is not safe when a sandboxed command could rewrite the repository (a nested .git in the work tree)', () => {
    const dir = repo('nested');
    const writableGit = (p: string) => p.startsWith(path.join(dir, '.git'));
    expect(status(dir, { canWrite: writableGit })).toBe(false);
    expect(status(dir)).toBe(true);
  });

  it('is not safe in a subdirectory a command could plant a .git in', () => {
    const dir = repo('with-sub');
    fs.mkdirSync(path.join(dir, 'sub'));
    expect(status(path.join(dir, 'sub'))).toBe(true);
    expect(status(path.join(dir, 'sub'), { canWrite: (p) => p.startsWith(path.join(dir, 'sub')) })).toBe(false);
  });

  it('is not safe when the user config could have been written by a command', () => {
    const home = path.join(base, 'home');
    expect(status(linux.cwd, { canWrite: (p) => p.startsWith(home) })).toBe(false);
  });

  it('is not safe in a repository with a submodule (git status recurses into its work-tree .git)', () => {
    const dir = repo('super');
    const sub = repo('super-sub');
    git(sub, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
    git(dir, 'update-index', '--add', '--cacheinfo', `160000,${execFileSync('git', ['rev-parse', 'HEAD'], { cwd: sub, encoding: 'utf8' }).trim()},vendor`);
    expect(status(dir)).toBe(false);
    const plain = repo('plain-index');
    fs.writeFileSync(path.join(plain, 'a.txt'), 'a\n');
    git(plain, 'add', 'a.txt');
    expect(status(plain)).toBe(true);
  });

  it('follows a .git file to its git directory and the common directory of a linked worktree', () => {
    const main = repo('main-for-worktree');
    git(main, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
    const linked = path.join(base, 'linked');
    git(main, 'worktree', 'add', '-q', linked);
    expect(status(linked)).toBe(true);
    git(main, 'config', 'core.fsmonitor', 'touch pwned');
    expect(status(linked)).toBe(false);
  });
});

const SAFE_SCRIPTS = [
  'ls', 'ls -1', 'grep -R "Cargo.toml" -n', 'sed -n 1,5p file.txt', "sed -n '1,5p' file.txt", 'find . -name file.txt',
  'grep -R "Cargo.toml" -n || true', 'ls && pwd', "echo 'hi' ; ls", 'ls | wc -l', 'cat a | grep x | head -n 3',
  'git status && git diff --stat', 'rg -n foo -g"*.py"', 'cd src && git status',
];
const UNSAFE_SCRIPTS = [
  'ls && rm -rf /', 'find . -name file.txt -delete', 'find . -exec rm {} \\;', '(ls)', 'ls || (pwd && echo hi)', 'ls > out.txt',
  'ls 2>/dev/null', 'cat x >> y', 'echo $(rm x)', 'echo `rm x`', 'echo $HOME', 'cat <<EOF\nhi\nEOF', 'rg --pre cat x',
  'git -c core.pager=sh log', 'git diff --output=x', 'FOO=1 ls', 'ls &', 'ls; python3 x.py', 'cargo build | tee log',
  'if true; then ls; fi', '', 'ls &&', 'ls *.ts', 'cat ~/.bashrc', "echo $'hi'", 'ls \\\n-la', 'cd - && git status',
  'uniq a b', 'find *',
];

describe('isKnownSafeCommand', () => {
  it.each(SAFE_SCRIPTS)('bash -lc %j is safe', (script) => {
    expect(isKnownSafeCommand(['bash', '-lc', script], bash, linux)).toBe(true);
    expect(isKnownSafeCommand(['zsh', '-lc', script], bash, linux)).toBe(true);
    expect(isKnownSafeCommand(['/bin/sh', '-c', script], bash, linux)).toBe(true);
  });
  it.each(UNSAFE_SCRIPTS)('bash -lc %j is not safe', (script) => {
    expect(isKnownSafeCommand(['bash', '-lc', script], bash, linux)).toBe(false);
  });
  it('needs the script as one argument, unquoted', () => {
    expect(isKnownSafeCommand(['bash', '-lc', 'git', 'status'], bash)).toBe(false);
    expect(isKnownSafeCommand(['bash', '-lc', "'git status'"], bash)).toBe(false);
  });
  it('reads plain one-line scripts without the parser, and calls nothing else safe without it', () => {
    expect(isKnownSafeCommand(['bash', '-lc', 'ls | wc -l'], null)).toBe(true);
    expect(isKnownSafeCommand(['bash', '-lc', "ls 'a b'"], null)).toBe(false);
    expect(isKnownSafeCommand(['ls'], null)).toBe(true);
  });
  it('counts a shell only when it is the real one: a bare name, a system path, or the session shell', () => {
    expect(isKnownSafeCommand(['/bin/bash', '-lc', 'ls'], bash, linux)).toBe(true);
    expect(isKnownSafeCommand(['/home/u/.local/bin/zsh', '-lc', 'ls'], bash, linux)).toBe(false);
    expect(isKnownSafeCommand(['/home/u/.local/bin/zsh', '-lc', 'ls'], bash, { ...linux, trustedShells: ['/home/u/.local/bin/zsh'] })).toBe(true);
    expect(isKnownSafeCommand(['./bash', '-lc', 'ls'], bash, linux)).toBe(false);
  });
  it('does not run a login shell or zsh unasked when commands could write their startup files in HOME', () => {
    const homeWritable = { ...linux, canWrite: (p: string) => p.startsWith(linux.env['HOME']!) };
    expect(isKnownSafeCommand(['bash', '-c', 'ls'], bash, homeWritable)).toBe(true);
    expect(isKnownSafeCommand(['bash', '-lc', 'ls'], bash, homeWritable)).toBe(false);
    expect(isKnownSafeCommand(['zsh', '-c', 'ls'], bash, homeWritable)).toBe(false);
    expect(isKnownSafeCommand(['zsh', '-c', 'ls'], bash, linux)).toBe(true);
  });
  it('reads characters that only some shells treat specially with care', () => {
    for (const script of ['git show HEAD^', 'git log HEAD~2..HEAD', 'echo a#b', 'echo hi!', 'expr 1 = 1']) {
      expect(isKnownSafeCommand(['bash', '-lc', script], bash, linux), script).toBe(true);
    }
    for (const script of ['ls ^x', 'ls a/^b', 'echo =ls', 'ls ~']) expect(isKnownSafeCommand(['bash', '-lc', script], bash, linux), script).toBe(false);
  });
  it('is available without holding a parser through classifyCommand', async () => {
    expect(await classifyCommand(['bash', '-lc', 'ls | wc -l'])).toEqual({ knownSafe: true, dangerous: false });
    expect(await classifyCommand(['rm', '-rf', 'build'])).toEqual({
      knownSafe: false,
      dangerous: true,
      dangerReason: 'rm -f style commands are not permitted. Use a safer approach',
    });
  });
});
