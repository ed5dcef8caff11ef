// Loads a TypeScript module of the repository from a plain Node script (the generators): esbuild
// bundles it into node_modules/.cache, so its bare imports (zod, ...) resolve from the repository.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repo = fileURLToPath(new URL('..', import.meta.url));

/** `entry` is relative to the repository; `plugins` are passed to esbuild. */
export async function loadTsModule(entry, plugins = []) {
  const outfile = join(repo, 'node_modules', '.cache', 'rig-gen', `${basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [join(repo, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'warning',
    plugins,
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}
