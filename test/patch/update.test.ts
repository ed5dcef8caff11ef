import { describe, expect, it } from 'vitest';
import { parsePatch } from '../../src/patch/parse.js';
import type { UpdateChunk, UpdateFileHunk } from '../../src/patch/types.js';
import { PatchApplyError, applyUpdateChunks, splitKeepingEndings } from '../../src/patch/update.js';

function chunksOf(body: string): UpdateChunk[] {
  const patch = parsePatch(`*** Begin Patch\n*** Update File: f.txt\n${body}\n*** End Patch`);
  return (patch.hunks[0] as UpdateFileHunk).chunks;
}

function update(original: string, body: string): string {
  return applyUpdateChunks(original, chunksOf(body), '/w/f.txt');
}

describe('applyUpdateChunks', () => {
  it('keeps CRLF files CRLF', () => {
    expect(update('one\r\ntwo\r\nthree\r\n', '@@\n-one\n+ONE\n two\n+between\n three')).toBe(
      'ONE\r\ntwo\r\nbetween\r\nthree\r\n',
    );
  });

  it('keeps each context line its own ending in mixed files; new lines take the first-seen ending', () => {
    expect(update('one\r\ntwo\rthree\nfour\r\n', '@@\n one\n two\n-three\n+THREE\n four')).toBe(
      'one\r\ntwo\rTHREE\r\nfour\r\n',
    );
    expect(update('a\nb\r\nc\r\n', '@@\n-b\n+B')).toBe('a\nB\nc\r\n');
  });

  it('keeps the file text of context lines matched leniently', () => {
    expect(update('  indented  \nold\n', '@@\n indented\n-old\n+new')).toBe('  indented  \nnew\n');
  });

  it('always ends an updated file with a line terminator', () => {
    expect(update('no newline at end', '@@\n-no newline at end\n+first\n+second')).toBe('first\nsecond\n');
    expect(update('a\r\nlast', '@@\n-a\n+A')).toBe('A\r\nlast\r\n');
  });

  it('appends pure additions at the end of the file', () => {
    expect(update('line1\nline2\n', '@@\n+added 1\n+added 2')).toBe('line1\nline2\nadded 1\nadded 2\n');
    expect(update('x\r\ny', '@@\n+z')).toBe('x\r\ny\r\nz\r\n');
  });

  it('inserts an anchored pure addition right after its anchor line', () => {
    expect(update('def f():\n    pass\nx = 1\n', '@@ def f():\n+    "doc"')).toBe('def f():\n    "doc"\n    pass\nx = 1\n');
  });

  it('keeps a byte-order mark out of matching and in the result', () => {
    expect(update('\uFEFFfirst\r\nsecond\r\n', '@@\n-first\n+FIRST')).toBe('\uFEFFFIRST\r\nsecond\r\n');
  });

  it('applies several chunks in order and seeks anchors from the cursor', () => {
    const original = 'def a():\n    return 1\n\ndef b():\n    return 1\n';
    expect(update(original, '@@ def b():\n-    return 1\n+    return 2')).toBe(
      'def a():\n    return 1\n\ndef b():\n    return 2\n',
    );
    expect(update('1\n2\n3\n4\n', '@@\n-2\n+two\n@@\n-4\n+four')).toBe('1\ntwo\n3\nfour\n');
  });

  it('uses stacked anchors to narrow the position', () => {
    const original = 'class A:\n  def m():\n    x = 1\nclass B:\n  def m():\n    x = 1\n';
    expect(update(original, '@@ class B:\n@@   def m():\n-    x = 1\n+    x = 2')).toBe(
      'class A:\n  def m():\n    x = 1\nclass B:\n  def m():\n    x = 2\n',
    );
  });

  it('matches an End of File chunk only at the end', () => {
    expect(update('x\ny\nx\n', '@@\n-x\n+X\n*** End of File')).toBe('x\ny\nX\n');
  });

  it('retries without a trailing blank context line the file does not have', () => {
    expect(update('a\nb\n', '@@\n-b\n+B\n')).toBe('a\nB\n');
  });

  it('reports missing context and missing lines with Codex messages', () => {
    expect(() => update('a\n', '@@ nowhere\n-a\n+b')).toThrow(new PatchApplyError("Failed to find context 'nowhere' in /w/f.txt", '/w/f.txt'));
    expect(() => update('a\n', '@@\n-missing\n-lines\n+x')).toThrow(
      new PatchApplyError('Failed to find expected lines in /w/f.txt:\nmissing\nlines', '/w/f.txt'),
    );
  });

  it('applies hand-built chunks without ops by replacing whole segments', () => {
    const chunk: UpdateChunk = { anchors: [], oldLines: ['b'], newLines: ['B', 'C'], isEndOfFile: false, ops: '' };
    expect(applyUpdateChunks('a\r\nb\r\n', [chunk], 'f')).toBe('a\r\nB\r\nC\r\n');
  });

  it('splits text keeping each terminator', () => {
    expect(splitKeepingEndings('a\r\nb\rc\nd')).toEqual({
      lines: [
        { text: 'a', ending: '\r\n' },
        { text: 'b', ending: '\r' },
        { text: 'c', ending: '\n' },
        { text: 'd', ending: '' },
      ],
      preferredEnding: '\r\n',
    });
    expect(splitKeepingEndings('')).toEqual({ lines: [], preferredEnding: '\n' });
  });

  it('applies 100 chunks to a 20,000-line file quickly', () => {
    const original = Array.from({ length: 20_000 }, (_, i) => `    value_${i} = compute(${i})`).join('\n') + '\n';
    const body: string[] = [];
    for (let i = 0; i < 100; i++) {
      const at = i * 200 + 50;
      body.push('@@', `     value_${at - 1} = compute(${at - 1})`, `-    value_${at} = compute(${at})`, `+    value_${at} = compute(${at} * 2)`, `     value_${at + 1} = compute(${at + 1})`);
    }
    const chunks = chunksOf(body.join('\n'));
    // CPU time, not wall time: the machine running the tests may be busy. The bound only
    // catches quadratic behaviour; bench/ measures the real target (under 20 ms).
    const started = process.cpuUsage();
    const result = applyUpdateChunks(original, chunks, 'big.py');
    const elapsed = process.cpuUsage(started).user / 1000;
    expect(result).toContain('value_19850 = compute(19850 * 2)');
    expect(result.split('\n')).toHaveLength(20_001);
    expect(elapsed).toBeLessThan(250);
  });
});
