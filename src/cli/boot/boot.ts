// dist/boot.cjs, which dist/rig.cjs requires for every command but `--version`: runs the bundle
// (dist/main.js and the chunks it needs) from V8's code cache (code-cache.ts).
import nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keepYoungGenerationSmall } from './young-generation.js';
import { startHeapKeeper } from './heap-keeper.js';
import { ChunkLoader } from './chunk-loader.js';
import { codeCacheFile, openCodeCache } from './code-cache.js';

declare const RIG_BUILD_ID: string;

{
  keepYoungGenerationSmall();
  startHeapKeeper();
  const dist = dirname(fileURLToPath(import.meta.url));
  const file = codeCacheFile(process.env, RIG_BUILD_ID);
  const cache = file ? openCodeCache(file) : undefined;
  // Node 22.1+ caches the compile of real modules too (this one, the packages rig imports).
  const enableCompileCache = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (cache && typeof enableCompileCache === 'function') enableCompileCache(join(cache.dir, 'node'));
  // `import()` here, in a real module: a script compiled from cached data cannot import.
  const loader = new ChunkLoader(dist, cache, (specifier) => import(specifier));
  // Written at exit, when the run has compiled what it needed: off the way to the first request.
  if (cache) process.once('exit', () => cache.save(loader.chunks()));
  loader.load('main.js');
}
