// Built-in profiles load from their build-time validation (no zod); the result must be exactly
// what the zod path gives for the same file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderBuiltinProfiles, shippedProfileData, textHash } from '../../src/harness/builtin-profiles.js';
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
      const text = readFileSync(location.file, 'utf8');
      expect(shippedProfileData(location.id, text), `${location.id}: ${STALE}`).toBeDefined();
      const fast = readProfileFile(location.file, 'builtin');
      // Any origin but 'builtin' takes the zod path.
      const viaZod = readProfileFile(location.file, 'user');
      expect(fast).toStrictEqual({ ...viaZod, origin: 'builtin' });
    }
  });

  it('an edited profile text is not taken from the shipped data', () => {
    const file = join(dir, 'minimal.json');
    const text = readFileSync(file, 'utf8');
    expect(shippedProfileData('minimal', text)).toBeDefined();
    expect(shippedProfileData('minimal', text.replace('"description"', ' "description"'))).toBeUndefined();
    expect(shippedProfileData('no-such-profile', text)).toBeUndefined();
    expect(textHash('a')).not.toBe(textHash('b'));
  });

  it('hands out a fresh copy each time', () => {
    const text = readFileSync(join(dir, 'minimal.json'), 'utf8');
    const first = shippedProfileData('minimal', text)!;
    first.notes.push('changed');
    expect(shippedProfileData('minimal', text)!.notes).not.toContain('changed');
  });
});
