import { describe, expect, it } from 'vitest';
import { parsePatch } from '../../src/patch/parse.js';
import { StreamingPatchParser } from '../../src/patch/stream.js';

const BIG_PATCH = [
  '*** Begin Patch',
  '*** Add File: docs/notes.md',
  '+# Notes',
  '+',
  '+- streaming works',
  '*** Update File: src/config.ts',
  '@@ export interface Config',
  '-  progress: boolean;',
  '+  streamProgress: boolean;',
  '   verbose: boolean;',
  '@@ function defaults()',
  '-  return 500;',
  '+  return 250;',
  '*** Delete File: src/legacy.ts',
  '*** Update File: cli/main.ts',
  '*** Move to: cli/bin/rig.ts',
  '@@ function run()',
  '-  const args = parse();',
  '+  const cli = parse();',
  '*** Add File: fixtures/a.json',
  '+{"a": 1}',
  '*** Update File: README.md',
  '@@ Development',
  ' Build first.',
  '+Test streamed tool calls.',
  '*** Delete File: docs/old.md',
  '*** End Patch',
].join('\n');

describe('StreamingPatchParser', () => {
  it('reports hunks from complete lines only', () => {
    const parser = new StreamingPatchParser();
    expect(parser.feed('*** Begin Patch\n*** Add File: src/hello.txt\n+hello\n+wor')).toEqual([
      { type: 'add', path: 'src/hello.txt', contents: 'hello\n' },
    ]);
    expect(parser.feed('ld\n')).toEqual([{ type: 'add', path: 'src/hello.txt', contents: 'hello\nworld\n' }]);

    const deleting = new StreamingPatchParser();
    expect(deleting.feed('*** Begin Patch\n*** Delete File: gone.txt')).toEqual([]);
    expect(deleting.feed('\n')).toEqual([{ type: 'delete', path: 'gone.txt' }]);
  });

  it('streams a large patch one character at a time, hunk count never shrinking', () => {
    const parser = new StreamingPatchParser();
    const counts: number[] = [];
    let hunks = parser.hunks;
    for (const ch of BIG_PATCH) {
      hunks = parser.feed(ch);
      if (hunks.length !== counts[counts.length - 1]) counts.push(hunks.length);
    }
    expect(counts).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(parser.error).toBeUndefined();
    // `*** End Patch` counts once its line is complete.
    expect(parser.complete).toBe(false);
    parser.feed('\n');
    expect(parser.complete).toBe(true);
    expect(hunks).toEqual(parsePatch(BIG_PATCH).hunks);
    expect(parser.finish()).toEqual(parsePatch(BIG_PATCH));
  });

  it('never mutates a snapshot it already returned', () => {
    const parser = new StreamingPatchParser();
    const first = parser.feed('*** Begin Patch\n*** Update File: a\n@@\n-x\n');
    const frozen = JSON.stringify(first);
    parser.feed('+y\n@@ next\n-z\n*** End Patch\n');
    expect(JSON.stringify(first)).toBe(frozen);
    expect(parser.hunks[0]).toMatchObject({ chunks: [{ oldLines: ['x'], newLines: ['y'] }, { anchors: ['next'] }] });
  });

  it('stops at the first error and keeps the hunks parsed before it', () => {
    const parser = new StreamingPatchParser();
    parser.feed('*** Begin Patch\n*** Add File: a\n+a\n*** Delete File: c\n*** Bogus: b\n*** Delete File: d\n');
    expect(parser.hunks).toEqual([
      { type: 'add', path: 'a', contents: 'a\n' },
      { type: 'delete', path: 'c' },
    ]);
    expect(parser.error?.message).toMatch(/^invalid hunk at line 5, '\*\*\* Bogus: b' is not a valid hunk header/);
    expect(() => parser.finish()).toThrow(/last line of the patch/);
  });

  it('tolerates a heredoc opener and blank lines before Begin Patch, and text after End Patch', () => {
    const parser = new StreamingPatchParser();
    parser.feed("\n<<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n");
    expect(parser.error).toBeUndefined();
    expect(parser.hunks).toEqual([{ type: 'delete', path: 'x' }]);
    expect(parser.finish().hunks).toEqual([{ type: 'delete', path: 'x' }]);
  });

  it('reports a missing Begin Patch as an error', () => {
    const parser = new StreamingPatchParser();
    parser.feed('hello\n');
    expect(parser.error?.message).toBe("invalid patch: The first line of the patch must be '*** Begin Patch'");
  });
});
