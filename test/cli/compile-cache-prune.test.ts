// Old code-cache packs do not pile up: a new pack (a new build, Node version or CPU) keeps the
// newest few and removes the rest, and a writer's temp file left by a killed process goes after an
// hour. Only the module's own names are touched, in a directory only this user can write.
import { chmodSync, existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CodeCache } from '../../src/cli/boot/code-cache.js';
import { removeDir, tempDir } from '../support/workspace.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function cacheDir(): string {
  const dir = tempDir('cc-prune');
  chmodSync(dir, 0o700);
  dirs.push(dir);
  return dir;
}

/** A file aged `minutes` minutes. */
function aged(dir: string, name: string, minutes: number): void {
  const file = join(dir, name);
  writeFileSync(file, 'old');
  const when = (Date.now() - minutes * 60_000) / 1000;
  utimesSync(file, when, when);
}

const chunk = { name: 'main.js', usedCache: false, createCachedData: () => Buffer.from('compiled') };

it('a new pack keeps the newest three others and removes older packs and stale temp files', () => {
  const dir = cacheDir();
  for (let i = 1; i <= 6; i++) aged(dir, `build${i}-v20.20.2-x64.cache`, i * 10);
  aged(dir, 'build9-v20.20.2-x64.cache.4242.tmp', 120);
  aged(dir, 'build8-v20.20.2-x64.cache.4343.tmp', 5);
  aged(dir, 'notes.txt', 500);
  new CodeCache(join(dir, 'fresh-v24.21.0-x64.cache')).save([chunk]);
  expect(readdirSync(dir).sort()).toEqual([
    'build1-v20.20.2-x64.cache',
    'build2-v20.20.2-x64.cache',
    'build3-v20.20.2-x64.cache',
    'build8-v20.20.2-x64.cache.4343.tmp',
    'fresh-v24.21.0-x64.cache',
    'notes.txt',
  ]);
});

it('adding chunks to an existing pack removes nothing', () => {
  const dir = cacheDir();
  const pack = join(dir, 'same-v20.20.2-x64.cache');
  new CodeCache(pack).save([chunk]);
  for (let i = 1; i <= 5; i++) aged(dir, `other${i}-v20.20.2-x64.cache`, i * 10);
  new CodeCache(pack).save([{ ...chunk, name: 'second.js' }]);
  expect(readdirSync(dir).filter((name) => name.endsWith('.cache'))).toHaveLength(6);
  expect(new CodeCache(pack).get('second.js')?.toString()).toBe('compiled');
});

it('a directory others can write is left alone', () => {
  const dir = cacheDir();
  for (let i = 1; i <= 6; i++) aged(dir, `build${i}-v20.20.2-x64.cache`, i * 10);
  chmodSync(dir, 0o777);
  new CodeCache(join(dir, 'fresh-v20.20.2-x64.cache')).save([chunk]);
  expect(existsSync(join(dir, 'build6-v20.20.2-x64.cache'))).toBe(true);
  expect(existsSync(join(dir, 'fresh-v20.20.2-x64.cache'))).toBe(false);
});
