// Bundles the CLI into dist/ with code splitting, so a command only loads the rooms it uses.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: { rig: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Native addons and wasm loaders stay in node_modules; everything else is bundled.
  external: ['better-sqlite3', '@lydell/node-pty', 'web-tree-sitter', 'tree-sitter-bash'],
  define: { RIG_VERSION: JSON.stringify(pkg.version) },
  banner: { js: "import { createRequire as __rigCreateRequire } from 'node:module'; const require = __rigCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
