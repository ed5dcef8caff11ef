// zod, loaded on first use and synchronously. Validation with zod is the slow, exact path (error
// and warning messages); the common valid case never needs it (see fast-check.ts), so zod must
// stay off the startup path. Config and profile loading are synchronous APIs, and an ESM chunk
// cannot be loaded synchronously, so zod comes through require(): the build's English-only
// dist/zod.cjs next to the bundle, else the zod package (source runs, tests, generators).
import { createRequire } from 'node:module';
import type * as Zod from 'zod';

const requireHere = createRequire(import.meta.url);
let loaded: typeof Zod | undefined;

export function loadZod(): typeof Zod {
  if (loaded) return loaded;
  try {
    loaded = requireHere('./zod.cjs') as typeof Zod;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    loaded = requireHere('zod') as typeof Zod;
  }
  return loaded;
}
