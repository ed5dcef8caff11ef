// SQLite (the better-sqlite3 addon, or node:sqlite) and gpt-tokenizer (~150 ms to load) are lazy: importing the store
// and context rooms must load neither. Checked on a real esbuild bundle run by a real node.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { sqliteEngine } from '../../src/store/sqlite.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-lazy-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

it('loads the SQLite addon only when openIndex is called', async () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const entry = path.join(tmp, 'entry.ts');
  fs.writeFileSync(
    entry,
    `import * as store from ${JSON.stringify(path.join(root, 'src/store/index.ts'))};
     import * as context from ${JSON.stringify(path.join(root, 'src/context/index.ts'))};
     const loaded = () => (globalThis as any).__dlopened.filter((f: string) => f.includes('better_sqlite3')).length;
     const before = { sqlite: loaded(), tokenizer: context.tokenizerLoaded() };
     const index = await store.openIndex(process.env.RIG_HOME!);
     index.close();
     await context.loadTokenizer();
     console.log(JSON.stringify({ before, after: { sqlite: loaded(), tokenizer: context.tokenizerLoaded() } }));`,
  );
  const outdir = path.join(tmp, 'dist');
  await build({
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3'],
    nodePaths: [path.join(root, 'node_modules')],
    logLevel: 'silent',
  });
  // Externals resolve from the bundle's folder, as from dist/ in the package.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(tmp, 'node_modules'));
  const preload = path.join(tmp, 'preload.cjs');
  fs.writeFileSync(
    preload,
    `globalThis.__dlopened = []; const orig = process.dlopen;
     process.dlopen = function (module, filename, ...rest) { globalThis.__dlopened.push(filename); return orig.call(this, module, filename, ...rest); };`,
  );
  const home = path.join(tmp, 'home');
  const out = execFileSync(process.execPath, ['--require', preload, path.join(outdir, 'entry.js')], {
    env: { ...process.env, RIG_HOME: home },
    encoding: 'utf8',
  });
  // Where Node has node:sqlite built in, the addon is never loaded at all.
  const addonLoads = sqliteEngine() === 'better-sqlite3' ? 1 : 0;
  expect(JSON.parse(out.trim())).toEqual({ before: { sqlite: 0, tokenizer: false }, after: { sqlite: addonLoads, tokenizer: true } });
  // The tokenizer's multi-megabyte rank table went into a lazy chunk, not the entry.
  const sizes = fs.readdirSync(outdir).map((f) => ({ f, size: fs.statSync(path.join(outdir, f)).size }));
  expect(sizes.find((s) => s.f === 'entry.js')!.size).toBeLessThan(200_000);
  expect(sizes.some((s) => s.f !== 'entry.js' && s.size > 1_000_000)).toBe(true);
}, 30_000);
