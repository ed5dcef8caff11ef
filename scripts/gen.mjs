// `npm run gen`: regenerates every generated file by running each scripts/gen-*.mjs in turn. A new
// generator only has to be named gen-<what>.mjs to be included.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repo } from './load-ts.mjs';

const scripts = join(repo, 'scripts');
const generators = readdirSync(scripts).filter((name) => /^gen-.+\.mjs$/.test(name)).sort();
for (const name of generators) {
  await import(pathToFileURL(join(scripts, name)).href);
  process.stdout.write(`ran scripts/${name}\n`);
}
