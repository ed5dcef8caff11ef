// How stdin bytes become the prompt text.
import { describe, expect, test } from 'vitest';
import { PromptError, decodeStdin } from '../../../src/frontends/exec/prompt.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

describe('decodeStdin', () => {
  test('UTF-8 passes through and a UTF-8 byte-order mark is dropped', () => {
    expect(decodeStdin(Buffer.from('fix the tests — ok\n'))).toBe('fix the tests — ok\n');
    expect(decodeStdin(Buffer.concat([bytes(0xef, 0xbb, 0xbf), Buffer.from('fix')]))).toBe('fix');
  });

  test('UTF-16 with a byte-order mark is decoded in either byte order', () => {
    expect(decodeStdin(utf16le('fix the tests — ok'))).toBe('fix the tests — ok');
    expect(decodeStdin(utf16be('fix the tests — ok'))).toBe('fix the tests — ok');
  });

  test('bytes that are not UTF-8 are refused with a way to convert them', () => {
    expect(() => decodeStdin(bytes(0x63, 0x61, 0x66, 0xe9))).toThrow(
      new PromptError('stdin is not valid UTF-8: convert it first (e.g. `iconv -f LATIN1 -t UTF-8 prompt.txt | rig exec -`)'),
    );
  });

  test('UTF-32 is named rather than misread as UTF-16', () => {
    expect(() => decodeStdin(bytes(0xff, 0xfe, 0, 0, 0x68, 0, 0, 0))).toThrow('stdin is UTF-32: convert it to UTF-8 (e.g. `iconv -f UTF-32 -t UTF-8`)');
  });

  test('a UTF-16 mark followed by a broken code unit is refused', () => {
    expect(() => decodeStdin(bytes(0xff, 0xfe, 0x00, 0xd8))).toThrow(/^stdin starts with a UTF-16 byte-order mark but is not valid UTF-16/);
  });
});
