import { beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand, isKnownSafeCommand, isSafeToCallWithExec, loadBashParser, type BashParser } from '../../src/policy/index.js';

let bash: BashParser;
beforeAll(async () => {
  bash = await loadBashParser();
});

const linux = { platform: 'linux' as const };

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
});

const SAFE_SCRIPTS = [
  'ls', 'ls -1', 'grep -R "Cargo.toml" -n', 'sed -n 1,5p file.txt', "sed -n '1,5p' file.txt", 'find . -name file.txt',
  'grep -R "Cargo.toml" -n || true', 'ls && pwd', "echo 'hi' ; ls", 'ls | wc -l', 'cat a | grep x | head -n 3',
  'git status && git diff --stat', 'rg -n foo -g"*.py"',
];
const UNSAFE_SCRIPTS = [
  'ls && rm -rf /', 'find . -name file.txt -delete', 'find . -exec rm {} \\;', '(ls)', 'ls || (pwd && echo hi)', 'ls > out.txt',
  'ls 2>/dev/null', 'cat x >> y', 'echo $(rm x)', 'echo `rm x`', 'echo $HOME', 'cat <<EOF\nhi\nEOF', 'rg --pre cat x',
  'git -c core.pager=sh log', 'git diff --output=x', 'FOO=1 ls', 'ls &', 'ls; python3 x.py', 'cargo build | tee log',
  'if true; then ls; fi', '', 'ls &&',
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
  it('never calls a shell script safe without a parser, but still knows plain argv', () => {
    expect(isKnownSafeCommand(['bash', '-lc', 'ls'], null)).toBe(false);
    expect(isKnownSafeCommand(['ls'], null)).toBe(true);
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
