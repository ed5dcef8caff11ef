// Bundles the CLI into dist/ with code splitting, so a command only loads the rooms it uses, and
// turns every chunk into a classic script that dist/boot.cjs (src/cli/boot/) compiles with V8's code
// cache: Node 20 caches no ES module compile, and compiling the ESM chunks was ~35 ms of each start.
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

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

// node:crypto is loaded on its first use instead of when a chunk that imports it starts. Its first
// load starts OpenSSL and ~17 internal modules, ~5-9 ms of `rig exec` before its first request
// (in-process time at the request, 3 rounds of 12 runs: 114 -> 105 ms), and nothing on that path
// needs it: the thread id reads the kernel's generator (src/store/ids.ts). Only the functions rig
// imports are wrapped; importing another name fails the build ("No matching export"), so add it here.
const LAZY_CRYPTO_FUNCTIONS = ['createHash', 'randomBytes'];
const lazyNodeCrypto = {
  name: 'lazy-node-crypto',
  setup(builder) {
    builder.onResolve({ filter: /^node:crypto$/ }, (args) =>
      args.importer.includes(`${process.cwd()}/src/`) ? { path: 'node:crypto', namespace: 'lazy-node-crypto' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'lazy-node-crypto' }, () => ({
      contents: [
        "import { createRequire } from 'node:module';",
        'let loaded;',
        "const crypto = () => (loaded ??= createRequire(import.meta.url)('node:crypto'));",
        ...LAZY_CRYPTO_FUNCTIONS.map((name) => `export function ${name}(...args) { return crypto().${name}(...args); }`),
      ].join('\n'),
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

// Native addons and wasm loaders stay in node_modules; everything else is bundled. `rig eval`'s
// report renderer (vega, vega-lite) and queue (bullmq, ioredis) stay there too: they are imported
// only by `rig eval report` and `--queue`/`rig worker`, and load their own files at run time.
const EXTERNAL = ['better-sqlite3', '@lydell/node-pty', 'web-tree-sitter', 'tree-sitter-bash', 'vega', 'vega-lite', 'bullmq', 'ioredis'];

// A classic script cannot run `import()` once it comes from a code cache (Node 20 loses the
// script's import callback), so `import()` of a package outside the bundle becomes a call to the
// loader's import function. Packages are marked here, and the mark replaced after bundling.
const IMPORT_MARK = '__rig_import__:';
const markExternalImports = {
  name: 'mark-external-imports',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind !== 'dynamic-import' || args.path.startsWith('node:')) return undefined;
      if (!EXTERNAL.some((name) => args.path === name || args.path.startsWith(`${name}/`))) return undefined;
      return { path: `${IMPORT_MARK}${args.path}`, external: true };
    });
  },
};

const shared = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', define: { RIG_VERSION: JSON.stringify(pkg.version) }, logLevel: 'warning' };
const esmRequireBanner = "import { createRequire as __rigCreateRequire } from 'node:module'; const require = __rigCreateRequire(import.meta.url);";

// Chunk names are content hashes: clear old ones so dist/ holds only this build.
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
mkdirSync(new URL('../dist', import.meta.url), { recursive: true });

const split = await build({
  ...shared,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist',
  splitting: true,
  format: 'esm',
  // Inline, so the CommonJS step below maps its output back to src/ through it.
  sourcemap: 'inline',
  external: EXTERNAL,
  plugins: [zodEnglishOnly, markExternalImports, lazyNodeCrypto],
  write: false,
});

// esbuild's CommonJS helpers copy objects. `__toESM(require("node:fs"))` builds a new namespace
// with an accessor for each of the module's ~100 exports at every import site (~110 sites of
// node:fs, node:path and node:os run before the first model request), and `__toCommonJS` copies
// every chunk's exports into another object. Instead the loader hands out one namespace per
// built-in module (`__rigBuiltin`, the same object __toESM would make), and a chunk exports its
// own export object (its accessors are the ones the copy would have forwarded to), marked as an
// ES module as the copy was. Each edit stays on its line, so the source map still holds.
const TO_ESM_BUILTIN = /__toESM\(require\("(node:[\w/]+)"\)\)/g;
const TO_COMMON_JS = /^module\.exports = __toCommonJS\((\w+)\);$/gm;
function shareNamespaces(code, path) {
  const exportsSet = code.match(TO_COMMON_JS)?.length ?? 0;
  if (exportsSet > 1) throw new Error(`build: ${path} sets module.exports ${exportsSet} times`);
  const shared = code
    .replace(TO_ESM_BUILTIN, (_, specifier) => `__rigBuiltin("${specifier}")`)
    .replace(TO_COMMON_JS, (_, name) => `__defProp(${name}, "__esModule", { value: true }), module.exports = ${name};`);
  if (/__toESM\(require\("node:/.test(shared)) throw new Error(`build: ${path} imports a built-in module in a form the loader does not share`);
  return shared;
}

// Each ES chunk becomes CommonJS: imports of other chunks turn into require() calls the loader
// answers, `import()` of a chunk or a builtin into a require() in a promise, import.meta.url into
// the chunk's own URL (the loader passes it).
const chunks = [];
for (const file of split.outputFiles) {
  const markedImports = file.text.split(`import("${IMPORT_MARK}`).length - 1;
  const text = file.text.replaceAll(`import("${IMPORT_MARK}`, '__rigImport("');
  const out = await transform(text, {
    format: 'cjs',
    loader: 'js',
    target: 'node20',
    platform: 'node',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__rigImportMetaUrl' },
    sourcemap: 'external',
    sourcefile: basename(file.path),
    logLevel: 'warning',
  });
  // The loader reads chunks as Latin-1 (no UTF-8 decoding). esbuild escapes non-ASCII characters
  // in code; what remains is in comments, and an escape there changes nothing.
  const code = shareNamespaces(out.code, file.path).replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (out.code.split('__rigImport("').length - 1 !== markedImports) throw new Error(`build: an external import() in ${file.path} was lost`);
  if (/\bimport\(/.test(code.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ''))) throw new Error(`build: ${file.path} still has an import() a cached script cannot run`);
  writeFileSync(file.path, `${code}//# sourceMappingURL=${basename(file.path)}.map\n`);
  writeFileSync(`${file.path}.map`, out.map);
  chunks.push(code);
}

// The build id keys the code cache: a cache made for another build is never offered to V8.
const buildId = createHash('sha256').update(chunks.join('\0')).digest('hex').slice(0, 16);

// The entry bin/rig.js requires (dist/rig.cjs: answers --version, else requires dist/boot.cjs, the
// loader that runs dist/main.js from the code cache). CommonJS, so that no ES module is on the way
// to the first model request: on Node 20 the first one starts the ESM loader, ~6 ms of every run
// (Node 24 has it loaded in every process, so there it makes no difference).
const bootStaysApart = {
  name: 'boot-stays-apart',
  setup(builder) {
    builder.onResolve({ filter: /^\.\/boot\.cjs$/ }, () => ({ path: './boot.cjs', external: true }));
  },
};
const commonJsEntry = { format: 'cjs', outdir: 'dist', outExtension: { '.js': '.cjs' } };
await build({
  ...shared,
  ...commonJsEntry,
  entryPoints: { rig: 'src/cli/boot/index.ts' },
  plugins: [bootStaysApart],
});
await build({
  ...shared,
  ...commonJsEntry,
  entryPoints: { boot: 'src/cli/boot/boot.ts' },
  // boot.ts is an ES module in source (tests import its parts); here its import.meta.url is the file's.
  inject: ['scripts/cjs-import-meta-url.js'],
  define: { ...shared.define, RIG_BUILD_ID: JSON.stringify(buildId), 'import.meta.url': 'importMetaUrl' },
});

// The search worker runs in a worker thread (src/tools/search/offthread.ts): a module of its own,
// the chunks above being scripts only the loader runs.
await build({
  ...shared,
  entryPoints: { 'search-worker': 'src/tools/search/worker.ts' },
  outdir: 'dist',
  format: 'esm',
  external: EXTERNAL,
  banner: { js: esmRequireBanner },
  plugins: [zodEnglishOnly],
});

// zod is off the startup path: config and harness profiles load it synchronously, only when a
// file fails their fast checks (src/config/lazy-zod.ts requires ./zod.cjs next to the chunks).
await build({
  ...shared,
  stdin: { contents: "export * from 'zod';", resolveDir: process.cwd(), loader: 'js' },
  outfile: 'dist/zod.cjs',
  format: 'cjs',
  sourcemap: false,
  plugins: [zodEnglishOnly],
});
