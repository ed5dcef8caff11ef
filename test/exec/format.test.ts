import { describe, expect, it } from 'vitest';
import { formatShellOutput, formatUnifiedExecResponse, newChunkId } from '../../src/exec/format.js';

describe('exec_command / write_stdin text', () => {
  it('formats a finished command', () => {
    const text = formatUnifiedExecResponse({
      chunkId: '3f9a1c',
      wallTimeMs: 1234.5,
      exitCode: 0,
      originalTokenCount: 2,
      output: 'hello\n',
    });
    expect(text).toBe(
      'Chunk ID: 3f9a1c\nWall time: 1.2345 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nhello\n',
    );
  });

  it('formats a running session', () => {
    const text = formatUnifiedExecResponse({
      chunkId: 'abcdef',
      wallTimeMs: 250,
      exitCode: null,
      sessionId: 48213,
      originalTokenCount: 0,
      output: '',
    });
    expect(text).toBe(
      'Chunk ID: abcdef\nWall time: 0.2500 seconds\nProcess running with session ID 48213\nOriginal token count: 0\nOutput:\n',
    );
  });

  it('omits an empty chunk id and absent counts, and notes pruned sessions', () => {
    expect(formatUnifiedExecResponse({ chunkId: '', wallTimeMs: 0, output: 'x' })).toBe(
      'Wall time: 0.0000 seconds\nOutput:\nx',
    );
    expect(
      formatUnifiedExecResponse({ chunkId: '', wallTimeMs: 0, output: '', prunedSessionIds: [1234] }),
    ).toBe(
      'Wall time: 0.0000 seconds\nNote: session 1234 was closed and its process killed to stay within the live session limit.\nOutput:\n',
    );
  });

  it('truncates output to max_output_tokens with the warning header', () => {
    const output = 'a'.repeat(100);
    const text = formatUnifiedExecResponse(
      { chunkId: 'abcdef', wallTimeMs: 1, exitCode: 0, originalTokenCount: 25, output },
      { maxOutputTokens: 10 },
    );
    expect(text).toBe(
      'Chunk ID: abcdef\nWall time: 0.0010 seconds\nProcess exited with code 0\nOriginal token count: 25\nOutput:\n' +
        `Warning: truncated output (original token count: 25)\nTotal output lines: 1\n\n${'a'.repeat(20)}…15 tokens truncated…${'a'.repeat(20)}`,
    );
    // The model's policy caps a larger max_output_tokens.
    const capped = formatUnifiedExecResponse(
      { chunkId: '', wallTimeMs: 0, output },
      { maxOutputTokens: 1000, policy: { mode: 'tokens', limit: 10 } },
    );
    expect(capped).toContain('…15 tokens truncated…');
  });

  it('makes six-hex-digit chunk ids', () => {
    expect(newChunkId()).toMatch(/^[0-9a-f]{6}$/);
  });
});

describe('shell / shell_command text', () => {
  it('formats exit code, wall time to one decimal, and output', () => {
    expect(formatShellOutput({ exitCode: 0, wallTimeMs: 412, timedOut: false, output: 'hi\n' })).toBe(
      'Exit code: 0\nWall time: 0.4 seconds\nOutput:\nhi\n',
    );
    expect(formatShellOutput({ exitCode: 2, wallTimeMs: 2000, timedOut: false, output: '' })).toBe(
      'Exit code: 2\nWall time: 2 seconds\nOutput:\n',
    );
  });

  it('prefixes a timeout line', () => {
    expect(formatShellOutput({ exitCode: 124, wallTimeMs: 10003.7, timedOut: true, output: 'partial\n' })).toBe(
      'Exit code: 124\nWall time: 10 seconds\nOutput:\ncommand timed out after 10003 milliseconds\npartial\n',
    );
  });

  it('adds Total output lines only when truncation removed lines', () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const text = formatShellOutput(
      { exitCode: 0, wallTimeMs: 50, timedOut: false, output },
      { mode: 'bytes', limit: 40 },
    );
    expect(text.startsWith('Exit code: 0\nWall time: 0.1 seconds\nTotal output lines: 100\nOutput:\nline 0\nline 1\nline 2…')).toBe(true);
    expect(text).toMatch(/…\d+ chars truncated…/);
    expect(text.endsWith('line 99')).toBe(true);
  });
});
