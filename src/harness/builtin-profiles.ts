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
  /** textHash of the profile file the data was parsed from. */
  hash: string;
  /** JSON of zod's parse of that file. */
  data: string;
}

/** FNV-1a over UTF-16 code units: cheap, and only has to notice an edited file. */
export function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${text.length}:${hash.toString(16)}`;
}

/** The parsed built-in profile `id` for this file text, or undefined when the text is not the one shipped. */
export function shippedProfileData(id: string, text: string): ProfileFile | undefined {
  const entry = Object.hasOwn(BUILTIN_PROFILES, id) ? BUILTIN_PROFILES[id] : undefined;
  if (!entry || entry.hash !== textHash(text)) return undefined;
  return JSON.parse(entry.data) as ProfileFile;
}

/** What builtin-profiles.generated.ts must hold for the profiles in `dir`. */
export function renderBuiltinProfiles(dir: string): Record<string, BuiltinProfileEntry> {
  const out: Record<string, BuiltinProfileEntry> = {};
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const text = readFileSync(join(dir, name), 'utf8');
    const data = profileSchemas().profileSchema.parse(JSON.parse(text), { jitless: true });
    out[name.slice(0, -'.json'.length)] = { hash: textHash(text), data: JSON.stringify(data) };
  }
  return out;
}
