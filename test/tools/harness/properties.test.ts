// Round-trip properties: what Read shows can be fed back to Edit, and an edit of a unique
// substring changes exactly that substring.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

const line = fc.string({ maxLength: 40 }).map((text) => text.replace(/[\r\n]/g, ''));

describe('Read/Edit round trips', () => {
  it('stripping the N<TAB> prefixes of a Claude Read gives back the file lines', async () => {
    const read = bound('claude-code').byName.get('Read');
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 30 }), async (lines) => {
        const ctx = fakeContext();
        ctx.write('f.txt', `${lines.join('\n')}\n`);
        const result = await call(read, { file_path: 'f.txt' }, ctx);
        const shown = result.text.split('\n').map((row, i) => {
          const prefix = `${i + 1}\t`;
          expect(row.startsWith(prefix)).toBe(true);
          return row.slice(prefix.length);
        });
        expect(shown).toEqual(lines);
      }),
      { numRuns: 25 },
    );
  });

  it('an edit of a unique marker replaces exactly that text', async () => {
    const edit = bound('pi').byName.get('edit');
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), fc.string({ maxLength: 20 }), async (before, after, replacement) => {
        fc.pre(!before.includes('MARK') && !after.includes('MARK') && replacement !== '#MARK#');
        const ctx = fakeContext();
        ctx.write('f.txt', `${before}#MARK#${after}`);
        const result = await call(edit, { path: 'f.txt', edits: [{ oldText: '#MARK#', newText: replacement }] }, ctx);
        expect(result.success).toBe(true);
        expect(ctx.read('f.txt')).toBe(`${before}${replacement}${after}`);
      }),
      { numRuns: 40 },
    );
  });
});
