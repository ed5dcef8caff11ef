// Built-in profiles load from their build-time validation (no zod); the result must be exactly
// what the zod path gives for the same file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentHash, renderBuiltinProfiles, shippedProfileData } from '../../src/harness/builtin-profiles.js';
import { BUILTIN_PROFILES } from '../../src/harness/builtin-profiles.generated.js';
import { builtinProfileDir, listProfileLocations, readProfileFile } from '../../src/harness/loader.js';

const STALE = 'src/harness/builtin-profiles.generated.ts is stale: run `node scripts/gen-builtin-profiles.mjs`';

describe('built-in profiles shipped pre-validated', () => {
  const dir = builtinProfileDir();
  const builtins = listProfileLocations({ builtinDir: dir });

  it('the generated file equals the zod parse of every built-in profile', () => {
    const rendered = renderBuiltinProfiles(dir);
    expect(Object.keys(BUILTIN_PROFILES).sort(), STALE).toEqual(Object.keys(rendered).sort());
    for (const [id, entry] of Object.entries(rendered)) expect(BUILTIN_PROFILES[id], `${id}: ${STALE}`).toEqual(entry);
  });

  it('every built-in profile loads as the zod path loads it', () => {
    expect(builtins.length).toBeGreaterThan(5);
    for (const location of builtins) {
      const bytes = readFileSync(location.file);
      expect(shippedProfileData(location.id, bytes), `${location.id}: ${STALE}`).toBeDefined();
      const fast = readProfileFile(location.file, 'builtin');
      // Any origin but 'builtin' takes the zod path.
      const viaZod = readProfileFile(location.file, 'user');
      expect(fast).toStrictEqual({ ...viaZod, origin: 'builtin' });
    }
  });

  it('an edited profile text is not taken from the shipped data', () => {
    const file = join(dir, 'minimal.json');
    const bytes = readFileSync(file);
    expect(shippedProfileData('minimal', bytes)).toBeDefined();
    expect(shippedProfileData('minimal', Buffer.from(bytes.toString('utf8').replace('"description"', ' "description"')))).toBeUndefined();
    expect(shippedProfileData('no-such-profile', bytes)).toBeUndefined();
    // A changed byte, in a whole word or in the tail, changes the hash; the same bytes at an unaligned offset hash the same.
    const withTail = Buffer.concat([bytes, Buffer.from('\n\n\n')]);
    expect(withTail.length % 4).not.toBe(0);
    for (const at of [0, 5, withTail.length - 4, withTail.length - 1]) {
      const edited = Buffer.from(withTail);
      edited[at] = edited[at]! ^ 1;
      expect(contentHash(edited)).not.toBe(contentHash(withTail));
    }
    const unaligned = Buffer.alloc(withTail.length + 1);
    withTail.copy(unaligned, 1);
    expect(contentHash(unaligned.subarray(1))).toBe(contentHash(withTail));
  });

  it('hands out a fresh copy each time', () => {
    const bytes = readFileSync(join(dir, 'minimal.json'));
    const first = shippedProfileData('minimal', bytes)!;
    first.notes.push('changed');
    expect(shippedProfileData('minimal', bytes)!.notes).not.toContain('changed');
  });
});
