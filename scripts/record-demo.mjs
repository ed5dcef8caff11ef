// Launcher for scripts/record-demo.ts: builds the CLI, bundles the TypeScript script with esbuild
// (Node 20 cannot run .ts itself) and runs it. Usage: node scripts/record-demo.mjs
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'inherit' });
// Inside node_modules so the bundle resolves the same packages the repository does.
const outdir = join(repo, 'node_modules', '.cache', 'rig-scripts');
mkdirSync(outdir, { recursive: true });
const outfile = join(outdir, 'record-demo.mjs');
await build({
  entryPoints: [join(repo, 'scripts', 'record-demo.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // The bundle lives elsewhere: each module keeps its own source file as import.meta.url.
  plugins: [
    {
      name: 'own-import-meta-url',
      setup(builder) {
        builder.onLoad({ filter: /\.ts$/ }, (args) => ({
          contents: readFileSync(args.path, 'utf8').replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href)),
          loader: 'ts',
        }));
      },
    },
  ],
  banner: { js: "import { createRequire as __rigCreateRequire } from 'node:module'; const require = __rigCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
await import(pathToFileURL(outfile).href);
