import { describe, expect, it } from 'vitest';
import { PatchParseError, parsePatch } from '../../src/patch/parse.js';

function parseError(text: string): PatchParseError {
  try {
    parsePatch(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PatchParseError);
    return error as PatchParseError;
  }
  throw new Error('expected a parse error');
}

describe('parsePatch', () => {
  it('parses add, delete, update with move, anchors and end-of-file', () => {
    const patch = parsePatch(
      [
        '*** Begin Patch',
        '*** Add File: a/new.txt',
        '+hello',
        '+',
        '*** Delete File: gone.txt',
        '*** Update File: src/x.py',
        '*** Move to: src/y.py',
        '@@ def f():',
        ' keep',
        '-old',
        '+new',
        '@@',
        '-tail',
        '+TAIL',
        '*** End of File',
        '*** End Patch',
      ].join('\n'),
    );
    expect(patch.hunks).toEqual([
      { type: 'add', path: 'a/new.txt', contents: 'hello\n\n' },
      { type: 'delete', path: 'gone.txt' },
      {
        type: 'update',
        path: 'src/x.py',
        moveTo: 'src/y.py',
        chunks: [
          { anchors: ['def f():'], oldLines: ['keep', 'old'], newLines: ['keep', 'new'], isEndOfFile: false, ops: ' -+' },
          { anchors: [], oldLines: ['tail'], newLines: ['TAIL'], isEndOfFile: true, ops: '-+' },
        ],
      },
    ]);
  });

  it('accepts an empty patch (failure comes at apply time) and an add file with no lines', () => {
    expect(parsePatch('*** Begin Patch\n*** End Patch').hunks).toEqual([]);
    expect(parsePatch('*** Begin Patch\n*** Add File: e.txt\n*** End Patch\n').hunks).toEqual([
      { type: 'add', path: 'e.txt', contents: '' },
    ]);
  });

  it('lets the first chunk omit @@ and reads an empty line as empty context', () => {
    const patch = parsePatch('*** Begin Patch\n*** Update File: f\n a\n\n-b\n+c\n*** End Patch');
    expect(patch.hunks[0]).toMatchObject({
      chunks: [{ anchors: [], oldLines: ['a', '', 'b'], newLines: ['a', '', 'c'], ops: '  -+' }],
    });
  });

  it('stacks several @@ anchors on one chunk', () => {
    const patch = parsePatch('*** Begin Patch\n*** Update File: f\n@@ class A\n@@ def m():\n-x\n+y\n*** End Patch');
    expect(patch.hunks[0]).toMatchObject({ chunks: [{ anchors: ['class A', 'def m():'] }] });
  });

  it('strips one CR per line from CRLF patches', () => {
    const patch = parsePatch('*** Begin Patch\r\n*** Update File: f\r\n@@\r\n-old\r\r\n+new\r\n*** End Patch\r\n');
    expect(patch.hunks[0]).toMatchObject({ chunks: [{ oldLines: ['old\r'], newLines: ['new'] }] });
  });

  it('unwraps a heredoc left around the patch', () => {
    for (const opener of ['<<EOF', "<<'EOF'", '<<"EOF"']) {
      const patch = parsePatch(`${opener}\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n`);
      expect(patch.hunks).toEqual([{ type: 'delete', path: 'x' }]);
    }
    expect(parseError(`<<"EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF`).message).toBe(
      "invalid patch: The first line of the patch must be '*** Begin Patch'",
    );
  });

  it('accepts whitespace-padded markers and headers outside update sections', () => {
    const patch = parsePatch('  *** Begin Patch  \n  *** Add File: a.txt\n+a\n   *** Delete File: b.txt  \n *** End Patch ');
    expect(patch.hunks.map((h) => h.path)).toEqual(['a.txt', 'b.txt']);
  });

  it('treats a space-indented header inside an update as a context line', () => {
    const patch = parsePatch('*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n *** Update File: b.txt\n*** End Patch');
    expect(patch.hunks).toHaveLength(1);
    expect(patch.hunks[0]).toMatchObject({ chunks: [{ oldLines: ['x', '*** Update File: b.txt'] }] });
  });

  it('ignores blank lines after End of File and records the environment id', () => {
    const patch = parsePatch(
      '*** Begin Patch\n*** Environment ID: remote-1\n*** Update File: f\n@@\n-a\n+b\n*** End of File\n\n*** End Patch',
    );
    expect(patch.environmentId).toBe('remote-1');
    expect(patch.hunks).toHaveLength(1);
  });

  it.each([
    ['bad', "invalid patch: The first line of the patch must be '*** Begin Patch'"],
    ['', "invalid patch: The first line of the patch must be '*** Begin Patch'"],
    ['*** Begin Patch\n*** Delete File: x', "invalid patch: The last line of the patch must be '*** End Patch'"],
    ['*** Begin Patch', "invalid patch: The last line of the patch must be '*** End Patch'"],
    [
      '*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch',
      "invalid hunk at line 2, '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
    ],
    [
      '*** Begin Patch\n*** Add File: a\n+x\nnot plus\n*** End Patch',
      "invalid hunk at line 4, Unexpected line found in add file hunk: 'not plus'. Every line should start with '+'",
    ],
    ['*** Begin Patch\n*** Update File: foo.txt\n*** End Patch', "invalid hunk at line 2, Update file hunk for path 'foo.txt' is empty"],
    [
      '*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Delete File: c\n*** End Patch',
      "invalid hunk at line 2, Update file hunk for path 'a' is empty",
    ],
    ['*** Begin Patch\n*** Update File: a\n@@\n*** End Patch', 'invalid hunk at line 4, Update hunk does not contain any lines'],
    ['*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch', 'invalid hunk at line 4, Update hunk does not contain any lines'],
    [
      '*** Begin Patch\n*** Update File: a\n@@\n*** Delete File: b\n*** End Patch',
      "invalid hunk at line 4, Unexpected line found in update hunk: '*** Delete File: b'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
    ],
    [
      '*** Begin Patch\n*** Update File: a\nbad\n*** End Patch',
      "invalid hunk at line 3, Unexpected line found in update hunk: 'bad'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
    ],
    [
      '*** Begin Patch\n*** Update File: a\n@@\n-x\nbad\n*** End Patch',
      "invalid hunk at line 5, Expected update hunk to start with a @@ context marker, got: 'bad'",
    ],
    [
      '*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\n-y\n*** End Patch',
      "invalid hunk at line 6, Expected update hunk to start with a @@ context marker, got: '-y'",
    ],
    ['*** Begin Patch\n*** End Patch\n*** Delete File: x\n*** End Patch', "invalid patch: The last line of the patch must be '*** End Patch'"],
    ['*** Begin Patch\n*** Environment ID:  \n*** End Patch', 'invalid patch: apply_patch environment_id cannot be empty'],
    [
      '*** Begin Patch\n*** Environment ID: a\n*** Environment ID: b\n*** End Patch',
      'invalid patch: apply_patch environment_id cannot be specified more than once',
    ],
  ])('rejects %j', (text, message) => {
    expect(parseError(text).message).toBe(message);
  });

  it('numbers lines of an unwrapped heredoc patch from its Begin line', () => {
    const error = parseError("<<'EOF'\n*** Begin Patch\n*** Bogus\n*** End Patch\nEOF");
    expect(error.lineNumber).toBe(2);
    expect(error.reason).toMatch(/^'\*\*\* Bogus' is not a valid hunk header/);
  });
});
