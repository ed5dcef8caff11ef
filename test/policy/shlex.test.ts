import { describe, expect, it } from 'vitest';
import { shlexJoin, shlexQuote, shlexSplit } from '../../src/policy/index.js';

describe('shlexSplit', () => {
  it.each([
    ['git push origin', ['git', 'push', 'origin']],
    [`echo 'a b' "c \\"d\\" \\$e" f\\ g`, ['echo', 'a b', 'c "d" $e', 'f g']],
    ['ls # comment', ['ls']],
    ['a"b"c', ['abc']],
    ["''", ['']],
    ['  ', []],
  ])('%j', (text, words) => {
    expect(shlexSplit(text)).toEqual(words);
  });
  it('returns null for unbalanced quotes or a trailing backslash', () => {
    expect(shlexSplit("echo 'x")).toBeNull();
    expect(shlexSplit('echo "x')).toBeNull();
    expect(shlexSplit('echo x\\')).toBeNull();
  });
});

describe('shlexQuote / shlexJoin', () => {
  it.each([
    ['plain-word_1.2/3:4@x', 'plain-word_1.2/3:4@x'],
    ['', "''"],
    ['hello world', "'hello world'"],
    ['HEAD~1', "'HEAD~1'"],
    ['--format=%s', "'--format=%s'"],
    ["it's", `"it's"`],
    ['$HOME', "'$HOME'"],
    ["it's $HOME", `"it's "'$HOME'`],
    ['^x', "'^x'"],
    ['a\\b', `"a\\\\b"`],
    ['é', "'é'"],
  ])('%j → %s', (word, quoted) => {
    expect(shlexQuote(word)).toBe(quoted);
    expect(shlexSplit(quoted)).toEqual([word]);
  });
  it('joins with spaces, falling back to plain joining for NUL bytes', () => {
    expect(shlexJoin(['bash', '-lc', 'ls && pwd'])).toBe("bash -lc 'ls && pwd'");
    expect(shlexJoin(['a\0b', 'c d'])).toBe('a\0b c d');
  });
});
