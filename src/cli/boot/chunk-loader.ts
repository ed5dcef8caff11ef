// Runs the bundle's chunks (dist/*.js, CommonJS made by scripts/build.mjs) as vm scripts, so each
// compiles from the code cache. A chunk's require() of another chunk comes here; anything else
// goes to Node's require, and `import()` of a package outside the bundle to the loader's import().
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import type { CodeCache, CompiledChunk } from './code-cache.js';

type ChunkFunction = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  __filename: string,
  __dirname: string,
  __rigImport: (specifier: string) => Promise<unknown>,
  __rigImportMetaUrl: string,
  __rigBuiltin: (specifier: string) => object,
) => void;

// On the chunk's first line, so line numbers in stack traces are the file's own.
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname, __rigImport, __rigImportMetaUrl, __rigBuiltin) {';
const WRAPPER_END = '\n})';

export class ChunkLoader {
  private readonly modules = new Map<string, { exports: unknown }>();
  private readonly namespaces = new Map<string, object>();
  /** A built-in module's namespace as an ES import sees it, one for every chunk (scripts/build.mjs). */
  private readonly builtin = (specifier: string): object => {
    let namespace = this.namespaces.get(specifier);
    if (!namespace) {
      namespace = builtinNamespace(this.requireFromDist()(specifier) as object);
      this.namespaces.set(specifier, namespace);
    }
    return namespace;
  };
  private readonly compiled: CompiledChunk[] = [];
  private sharedRequire: NodeJS.Require | undefined;
  // Chunk names are URL-safe ([A-Za-z0-9_-] and ".js"): one pathToFileURL() (~0.1 ms each) serves all.
  private readonly distUrl: string;

  constructor(
    private readonly dist: string,
    private readonly cache: CodeCache | undefined,
    private readonly importModule: (specifier: string) => Promise<unknown>,
  ) {
    this.distUrl = pathToFileURL(join(dist, '/')).href;
  }

  /** The exports of a chunk, given by its file name in dist/; runs it the first time. */
  load(name: string): unknown {
    const known = this.modules.get(name);
    if (known) return known.exports;
    const filename = join(this.dist, name);
    // ASCII (the build checks), so Latin-1 reads it without UTF-8 decoding.
    const source = readFileSync(filename, 'latin1');
    const cachedData = this.cache?.get(name);
    const script = new vm.Script(WRAPPER_START + source + WRAPPER_END, { filename, ...(cachedData ? { cachedData } : {}) });
    const usedCache = cachedData !== undefined && script.cachedDataRejected === false;
    this.compiled.push({ name, usedCache, createCachedData: () => script.createCachedData() });
    const module = { exports: {} as unknown };
    // Registered before it runs: chunks that require each other in a cycle get the partial exports, as in CommonJS.
    this.modules.set(name, module);
    const run = script.runInThisContext() as ChunkFunction;
    run.call(module.exports, module.exports, this.requireFromDist(), module, filename, this.dist, this.importModule, this.distUrl + name, this.builtin);
    return module.exports;
  }

  /** Every chunk compiled in this process, for the code cache to save. */
  chunks(): readonly CompiledChunk[] {
    return this.compiled;
  }

  // One for every chunk: they all live in dist/, and each createRequire() costs ~0.1 ms (it
  // computes the node_modules lookup paths).
  private requireFromDist(): NodeJS.Require {
    if (this.sharedRequire) return this.sharedRequire;
    const nodeRequire = createRequire(join(this.dist, 'main.js'));
    const chunkRequire = ((specifier: string) => {
      // The build names chunks "./name-HASH.js" next to each other; nothing else in dist/ is a chunk.
      if (specifier.startsWith('./') && specifier.endsWith('.js') && !specifier.includes('/', 2)) return this.load(specifier.slice(2));
      return nodeRequire(specifier);
    }) as NodeJS.Require;
    chunkRequire.resolve = nodeRequire.resolve;
    chunkRequire.cache = nodeRequire.cache;
    chunkRequire.main = nodeRequire.main;
    chunkRequire.extensions = nodeRequire.extensions;
    this.sharedRequire = chunkRequire;
    return chunkRequire;
  }
}

/**
 * What esbuild's __toESM makes of a CommonJS module in an ES import: an object with `default` the
 * module and, for each of its own properties, an accessor reading the module's current value.
 */
export function builtinNamespace(mod: object): object {
  const namespace = Object.create(Object.getPrototypeOf(mod) as object | null) as Record<string, unknown>;
  Object.defineProperty(namespace, 'default', { value: mod, enumerable: true });
  for (const key of Object.getOwnPropertyNames(mod)) {
    if (key === 'default') continue;
    const descriptor = Object.getOwnPropertyDescriptor(mod, key);
    Object.defineProperty(namespace, key, { get: () => (mod as Record<string, unknown>)[key], enumerable: descriptor?.enumerable !== false });
  }
  return namespace;
}
