import { beforeAll, describe, expect, it } from 'vitest';
import { extractShellScript, loadBashParser, parseShellScript, type BashParser } from '../../src/policy/index.js';

let bash: BashParser;
beforeAll(async () => {
  bash = await loadBashParser();
});

describe('loadBashParser', () => {
  it('initialises once and hands out the same parser', async () => {
    expect(await loadBashParser()).toBe(bash);
  });
});

describe('parsePlainCommands', () => {
  const accepted: Array<[string, string[][]]> = [
    ['ls -1', [['ls', '-1']]],
    ["ls && pwd; echo 'hi there' | wc -l", [['ls'], ['pwd'], ['echo', 'hi there'], ['wc', '-l']]],
    ['grep -R "Cargo.toml" -n || true', [['grep', '-R', 'Cargo.toml', '-n'], ['true']]],
    ['git commit -m "line1\nline2"', [['git', 'commit', '-m', 'line1\nline2']]],
    [`echo "/usr"'/'"local"/bin`, [['echo', '/usr/local/bin']]],
    ['rg -n "foo" -g"*.py"', [['rg', '-n', 'foo', '-g*.py']]],
    ['echo 123 456', [['echo', '123', '456']]],
    ['echo x\\ y "a\\"b" \'c\\d\'', [['echo', 'x y', 'a"b', 'c\\d']]],
    ['ls\npwd', [['ls'], ['pwd']]],
    ['find . -exec echo {} +', [['find', '.', '-exec', 'echo', '{}', '+']]],
  ];
  it.each(accepted)('reads %j', (script, commands) => {
    expect(bash.parsePlainCommands(script)).toEqual(commands);
  });

  const rejected = [
    '(ls)',
    'ls || (pwd && echo hi)',
    'ls > out.txt',
    'ls 2>/dev/null',
    'cat < in.txt',
    'echo hi & echo bye',
    'echo $(pwd)',
    'echo `pwd`',
    'echo $HOME',
    'echo "hi $USER"',
    'echo "hi ${USER}"',
    'FOO=bar ls',
    'ls &&',
    '&& ls',
    'ls ;; pwd',
    'ls | | wc',
    'if true; then ls; fi',
    'for f in a b; do echo $f; done',
    '{ ls; }',
    'f() { ls; }',
    'cat <<EOF\nhi\nEOF',
    'diff <(ls a) <(ls b)',
    "echo $'a\\nb'",
    'ls # comment',
    'echo {a,b}',
    'touch x{1..3}',
  ];
  it.each(rejected)('rejects %j', (script) => {
    expect(bash.parsePlainCommands(script)).toBeNull();
  });

  it('is exposed as parseShellScript', async () => {
    expect(await parseShellScript('ls && pwd')).toEqual({ commands: [['ls'], ['pwd']] });
    expect(await parseShellScript('ls > x')).toBeNull();
  });
});

describe('parseHeredocCommandPrefix', () => {
  it('reads the single command fed by a heredoc', () => {
    expect(bash.parseHeredocCommandPrefix("python3 -u <<'PY'\nprint(1)\nPY")).toEqual(['python3', '-u']);
    expect(bash.parseHeredocCommandPrefix('cat <<EOF\n$HOME\nEOF')).toEqual(['cat']);
  });
  it('refuses several commands, file redirects, non-literal words and scripts without a heredoc', () => {
    expect(bash.parseHeredocCommandPrefix('cat <<EOF > out\nx\nEOF')).toBeNull();
    expect(bash.parseHeredocCommandPrefix('cat <<EOF\nx\nEOF\nls')).toBeNull();
    expect(bash.parseHeredocCommandPrefix('$CMD <<EOF\nx\nEOF')).toBeNull();
    expect(bash.parseHeredocCommandPrefix('ls -l')).toBeNull();
  });
});

describe('allCommands', () => {
  it('finds commands inside substitutions, subshells and control flow, keeping non-literal arguments as text', () => {
    expect(bash.allCommands('if true; then (rm -rf "$DIR"); fi; echo $(whoami) > out')).toEqual([
      ['true'],
      ['rm', '-rf', '"$DIR"'],
      ['echo', '$(whoami)'],
      ['whoami'],
    ]);
  });
});

describe('extractShellScript', () => {
  it('accepts bash, zsh and sh with -c or -lc and exactly one script', () => {
    expect(extractShellScript(['bash', '-lc', 'ls'])).toEqual({ shell: 'bash', flag: '-lc', script: 'ls' });
    expect(extractShellScript(['/bin/zsh', '-c', 'ls'])).toEqual({ shell: '/bin/zsh', flag: '-c', script: 'ls' });
    expect(extractShellScript(['sh', '-c', 'ls'])?.script).toBe('ls');
  });
  it('refuses other shells, flags and argument counts', () => {
    expect(extractShellScript(['fish', '-c', 'ls'])).toBeNull();
    expect(extractShellScript(['bash', '-x', 'ls'])).toBeNull();
    expect(extractShellScript(['bash', '-lc', 'git', 'status'])).toBeNull();
    expect(extractShellScript(['bash'])).toBeNull();
  });
});
