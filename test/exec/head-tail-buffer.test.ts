import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTPUT_MAX_BYTES, HeadTailBuffer } from '../../src/exec/head-tail-buffer.js';

describe('HeadTailBuffer', () => {
  it('defaults to 1 MiB split 512 KiB head + 512 KiB tail', () => {
    const buffer = new HeadTailBuffer();
    expect(DEFAULT_OUTPUT_MAX_BYTES).toBe(1024 * 1024);
    expect(buffer.headBudget).toBe(512 * 1024);
    expect(buffer.tailBudget).toBe(512 * 1024);
    buffer.push(Buffer.alloc(3 * 1024 * 1024, 'x'));
    expect(buffer.retainedBytes).toBe(1024 * 1024);
    expect(buffer.omittedBytes).toBe(2 * 1024 * 1024);
    expect(buffer.toString()).toContain(`\n... ${2 * 1024 * 1024} bytes omitted ...\n`);
  });

  it('keeps everything while under the limit', () => {
    const buffer = new HeadTailBuffer(10);
    buffer.push(Buffer.from('abc'));
    buffer.push(Buffer.from('def'));
    expect(buffer.toString()).toBe('abcdef');
    expect(buffer.omittedBytes).toBe(0);
  });

  it('drops the middle and marks it', () => {
    const buffer = new HeadTailBuffer(6);
    for (const piece of ['ab', 'cd', 'ef', 'gh', 'ij']) buffer.push(Buffer.from(piece));
    expect(buffer.toString()).toBe('abc\n... 4 bytes omitted ...\nhij');
    expect(buffer.totalBytes).toBe(10);
  });

  it('drain returns the kept bytes and resets', () => {
    const buffer = new HeadTailBuffer(4);
    buffer.push(Buffer.from('123456'));
    expect(buffer.drain().toString()).toBe('12\n... 2 bytes omitted ...\n56');
    expect(buffer.retainedBytes).toBe(0);
    expect(buffer.totalBytes).toBe(0);
    buffer.push(Buffer.from('xy'));
    expect(buffer.toString()).toBe('xy');
  });

  it('keeps an exact prefix and suffix of any input within bounds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 20 }),
        fc.integer({ min: 0, max: 64 }),
        (chunks, max) => {
          const buffer = new HeadTailBuffer(max);
          for (const chunk of chunks) buffer.push(chunk);
          const all = Buffer.concat(chunks);
          const kept = buffer.toBuffer();
          expect(kept.length).toBe(Math.min(all.length, max));
          expect(buffer.omittedBytes).toBe(all.length - kept.length);
          const head = Math.min(buffer.headBudget, all.length);
          expect(kept.subarray(0, head).equals(all.subarray(0, head))).toBe(true);
          const tail = kept.length - head;
          expect(kept.subarray(head).equals(all.subarray(all.length - tail))).toBe(true);
        },
      ),
    );
  });
});
