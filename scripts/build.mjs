// Bundles the CLI into dist/ with code splitting, so a command only loads the rooms it uses.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// `import { z } from 'zod'` keeps every export of zod's namespace, including `z.locales`: error
// messages in ~50 languages, 370 kB that every command parsed at startup. rig only uses the
// English messages zod installs by default, so `z.locales` (and `z.core.locales`) is cut down to `en`.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)) return undefined;
      return { path: 'zod-locales-en', namespace: 'zod-english-only', pluginData: { dir: `${dirname(args.resolveDir)}/locales` } };
    });
    builder.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: args.pluginData.dir,
      loader: 'js',
    }));
  },
};

// Chunk names are content hashes: clear old ones so dist/ holds only this build.
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  // The search worker is its own entry: the fallback search runs in a worker thread (src/tools/search/offthread.ts).
  entryPoints: { rig: 'src/cli/main.ts', 'search-worker': 'src/tools/search/worker.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Native addons and wasm loaders stay in node_modules; everything else is bundled. `rig eval`'s
  // report renderer (vega, vega-lite) and queue (bullmq, ioredis) stay there too: they are imported
  // only by `rig eval report` and `--queue`/`rig worker`, and load their own files at run time.
  external: ['better-sqlite3', '@lydell/node-pty', 'web-tree-sitter', 'tree-sitter-bash', 'vega', 'vega-lite', 'bullmq', 'ioredis'],
  define: { RIG_VERSION: JSON.stringify(pkg.version) },
  banner: { js: "import { createRequire as __rigCreateRequire } from 'node:module'; const require = __rigCreateRequire(import.meta.url);" },
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
});

// zod is off the startup path: config and harness profiles load it synchronously, only when a
// file fails their fast checks (src/config/lazy-zod.ts requires ./zod.cjs next to the chunks).
await build({
  stdin: { contents: "export * from 'zod';", resolveDir: process.cwd(), loader: 'js' },
  outfile: 'dist/zod.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
});
