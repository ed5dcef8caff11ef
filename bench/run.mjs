// `npm run bench` (after `npm run build`): bundles the TypeScript bench (bench/main.ts, plus
// bench/sessions.ts and bench/sandbox.ts when they exist) with esbuild and runs it. Arguments after
// `--` go to the bench: npm run bench -- --runs 9 --only startup,steps
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Inside node_modules so bundled code resolves the repository's packages (better-sqlite3, ...).
const outdir = join(repo, 'node_modules', '.cache', 'rig-bench');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const entryPoints = { main: join(repo, 'bench', 'main.ts') };
for (const optional of ['sessions', 'sandbox', 'mcp', 'agents']) {
  const file = join(repo, 'bench', `${optional}.ts`);
  if (existsSync(file)) entryPoints[optional] = file;
}

// Each module keeps its own import.meta.url (its source file), as if run from source: modules
// find bin/rig.js, fixtures and profiles relative to themselves.
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

await build({
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  banner: { js: "import { createRequire as __rigCreateRequire } from 'node:module'; const require = __rigCreateRequire(import.meta.url);" },
  plugins: [ownImportMetaUrl],
  logLevel: 'warning',
});

// A child process of its own, so the bench's numbers are not mixed with esbuild's memory.
const run = spawnSync(process.execPath, [join(outdir, 'main.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, RIG_BENCH_REPO: repo, RIG_BENCH_OUT: outdir },
});
process.exitCode = run.status ?? 1;
