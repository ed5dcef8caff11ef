// `node scripts/eval-mock.mjs [--port N]` (in a checkout): serves examples/eval offline — the
// loopback mock provider answering as the eval tests' scripted model — and prints the `rig eval`
// command that runs against it. Ctrl-C stops it. The TypeScript it runs (test/eval/support/
// example-mock.ts) is bundled with esbuild first, as `npm run bench` does.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let port = 8123;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--port' && args[i + 1] !== undefined && /^\d+$/.test(args[i + 1])) port = Number(args[++i]);
  else {
    process.stderr.write(`eval-mock: unknown argument ${JSON.stringify(args[i])} (usage: node scripts/eval-mock.mjs [--port N], default 8123)\n`);
    process.exit(2);
  }
}

// Inside node_modules so the bundle resolves the repository's packages.
const outdir = join(repo, 'node_modules', '.cache', 'rig-eval-mock');
mkdirSync(outdir, { recursive: true });
await build({
  entryPoints: { 'example-mock': join(repo, 'test', 'eval', 'support', 'example-mock.ts') },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  banner: { js: "import { createRequire as __rigCreateRequire } from 'node:module'; const require = __rigCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
const { serveExampleMock } = await import(pathToFileURL(join(outdir, 'example-mock.js')).href);

let mock;
try {
  mock = await serveExampleMock({ examplesDir: join(repo, 'examples', 'eval'), port });
} catch (error) {
  const taken = error && error.code === 'EADDRINUSE';
  process.stderr.write(`eval-mock: cannot listen on 127.0.0.1:${port}: ${taken ? 'the port is taken; pick another with --port N' : error.message}\n`);
  process.exit(1);
}
process.stdout.write(
  [
    `mock model for examples/eval listening on ${mock.url} (Ctrl-C stops it); run the examples against it with`,
    `  rig eval examples/eval --harness native,claude-code --model mock-model --provider mock -c model_providers.mock.base_url=${mock.url}`,
    '',
  ].join('\n'),
);
const stop = () => void mock.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
