// The loader's shared namespaces of built-in modules (src/cli/boot/chunk-loader.ts) stand in for
// esbuild's __toESM at every `import fs from 'node:fs'` of the bundle (scripts/build.mjs): they must
// be what __toESM makes, one object for all chunks, and the built chunks must use them throughout.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinNamespace, ChunkLoader } from '../../src/cli/boot/chunk-loader.js';
import { removeDir, tempDir } from '../support/workspace.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** What esbuild's own CommonJS output gives `import fs from "<specifier>"` and `import * as ns`. */
function esbuildNamespace(mod: object): { viaDefault: unknown; namespace: Record<string, unknown> } {
  const { code } = transformSync('import viaDefault from "some-module"; import * as namespace from "some-module"; export { viaDefault, namespace };', {
    format: 'cjs',
    platform: 'node',
  });
  const module = { exports: {} as { viaDefault: unknown; namespace: Record<string, unknown> } };
  new Function('module', 'exports', 'require', code)(module, module.exports, () => mod);
  return module.exports;
}

function shape(namespace: object): Array<[string, boolean | undefined, boolean]> {
  return Object.getOwnPropertyNames(namespace)
    .sort()
    .map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(namespace, key)!;
      return [key, descriptor.enumerable, 'get' in descriptor && descriptor.get !== undefined];
    });
}

describe('a built-in module namespace', () => {
  it('is what esbuild makes of the module: default, and every own property read live', () => {
    const mod: Record<string, unknown> = { readFileSync: () => 'first', constants: { O_RDONLY: 0 } };
    Object.defineProperty(mod, 'hidden', { value: 1, enumerable: false });
    Object.defineProperty(mod, 'promises', { get: () => 'lazy', enumerable: true });
    const ours = builtinNamespace(mod) as Record<string, unknown>;
    const theirs = esbuildNamespace(mod);
    expect(ours['default']).toBe(mod);
    expect(theirs.viaDefault).toBe(mod);
    expect(shape(ours)).toEqual(shape(theirs.namespace));
    expect(Object.getPrototypeOf(ours)).toBe(Object.getPrototypeOf(theirs.namespace));
    expect(ours['promises']).toBe('lazy');
    expect(ours['hidden']).toBe(1);
    // Replaced on the module later (a test's spy, a polyfill): the namespace sees the new value.
    const replaced = () => 'second';
    mod['readFileSync'] = replaced;
    expect(ours['readFileSync']).toBe(replaced);
    expect(theirs.namespace['readFileSync']).toBe(replaced);
  });

  it('of node:fs has the shape esbuild gives it', () => {
    const fs = createRequire(import.meta.url)('node:fs') as object;
    expect(shape(builtinNamespace(fs))).toEqual(shape(esbuildNamespace(fs).namespace));
  });

  it('is one object for every chunk that imports the module', () => {
    const dist = tempDir('chunk-loader');
    dirs.push(dist);
    const chunk = (name: string) =>
      writeFileSync(join(dist, name), 'module.exports = { fs: __rigBuiltin("node:fs"), path: __rigBuiltin("node:path"), other: require("./other.js") };\n');
    chunk('main.js');
    writeFileSync(join(dist, 'other.js'), 'module.exports = { fs: __rigBuiltin("node:fs") };\n');
    const loader = new ChunkLoader(dist, undefined, (specifier) => import(specifier));
    const main = loader.load('main.js') as { fs: { default: unknown; readFileSync: unknown }; path: { join: unknown }; other: { fs: unknown } };
    const fs = createRequire(import.meta.url)('node:fs') as { readFileSync: unknown };
    expect(main.fs.default).toBe(fs);
    expect(main.fs.readFileSync).toBe(fs.readFileSync);
    expect(main.other.fs).toBe(main.fs);
    expect(typeof main.path.join).toBe('function');
  });
});

describe('the built chunks (npm run build)', () => {
  const dist = join(import.meta.dirname, '../../dist');
  const chunks = readdirSync(dist).filter((name) => name.endsWith('.js') && name !== 'search-worker.js');

  it('import built-in modules through the shared namespaces and export their own export objects', () => {
    expect(chunks.length).toBeGreaterThan(20);
    let shared = 0;
    for (const name of chunks) {
      const code = readFileSync(join(dist, name), 'latin1');
      expect(code, name).not.toMatch(/__toESM\(require\("node:/);
      expect(code, name).not.toMatch(/module\.exports = __toCommonJS\(/);
      shared += code.split('__rigBuiltin("node:').length - 1;
    }
    expect(shared).toBeGreaterThan(50);
  });
});
