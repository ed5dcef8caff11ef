// Built-in profiles ship pre-validated: builtin-profiles.generated.ts holds, per profile, zod's
// parse of the file (defaults filled in) and a hash of the text it came from. Loading a built-in
// profile whose text still matches takes that result and never loads zod; an edited file without a
// regenerated entry falls back to zod, so results never go stale, only slower.
// Regenerate with `node scripts/gen-builtin-profiles.mjs`; test/harness/builtin-profiles.test.ts
// fails while the generated file is stale.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_PROFILES } from './builtin-profiles.generated.js';
import { profileSchemas, type ProfileFile } from './profile-schema.js';

export interface BuiltinProfileEntry {
  /** contentHash of the profile file the data was parsed from. */
  hash: string;
  /** JSON of zod's parse of that file. */
  data: string;
}

/**
 * FNV-1a over the file's bytes, four at a time: cheap, and only has to notice an edited file. It
 * runs once per start, before V8 compiles anything hot, so in the interpreter: a loop per UTF-16
 * unit over the 13 kB native profile took 1.5-2.7 ms there (its unsigned shifts made a heap number
 * each step), this one ~0.3 ms. Words are read in the machine's byte order; on a big-endian
 * machine no hash matches and built-in profiles take the zod path (slower, same result).
 */
export function contentHash(bytes: Uint8Array): string {
  const whole = bytes.length >> 2;
  // A typed-array view needs a 4-aligned offset (readFileSync's buffers have offset 0; a pooled
  // one may not): a copy has its own. (Buffer's slice() would be a view of the same memory.)
  const source = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  const words = new Int32Array(source.buffer, source.byteOffset, whole);
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < whole; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193);
  for (let i = whole * 4; i < source.length; i++) hash = Math.imul(hash ^ source[i]!, 0x01000193);
  return `${bytes.length}:${(hash >>> 0).toString(16)}`;
}

/** The parsed built-in profile `id` for this file content, or undefined when the content is not the one shipped. */
export function shippedProfileData(id: string, bytes: Uint8Array): ProfileFile | undefined {
  const entry = Object.hasOwn(BUILTIN_PROFILES, id) ? BUILTIN_PROFILES[id] : undefined;
  if (!entry || entry.hash !== contentHash(bytes)) return undefined;
  return JSON.parse(entry.data) as ProfileFile;
}

/** What builtin-profiles.generated.ts must hold for the profiles in `dir`. */
export function renderBuiltinProfiles(dir: string): Record<string, BuiltinProfileEntry> {
  const out: Record<string, BuiltinProfileEntry> = {};
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const bytes = readFileSync(join(dir, name));
    const data = profileSchemas().profileSchema.parse(JSON.parse(bytes.toString('utf8')), { jitless: true });
    out[name.slice(0, -'.json'.length)] = { hash: contentHash(bytes), data: JSON.stringify(data) };
  }
  return out;
}
