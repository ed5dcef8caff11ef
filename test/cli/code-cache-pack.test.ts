// The code-cache pack is read entry by entry as chunks compile, not held whole for the run. A
// pack another rig process replaces meanwhile (rename over it) must not mix its bytes with the
// header this process read: the open file still gives the entries it started with.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CodeCache } from '../../src/cli/boot/code-cache.js';
import { removeDir, tempDir } from '../support/workspace.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function packFile(): string {
  const dir = tempDir('cc-pack');
  chmodSync(dir, 0o700);
  dirs.push(dir);
  return join(dir, 'build-v20.20.2-x64.cache');
}

const compiled = (name: string, text: string) => ({ name, usedCache: false, createCachedData: () => Buffer.from(text) });

it('entries are read when asked for, each its own bytes', () => {
  const file = packFile();
  new CodeCache(file).save([compiled('main.js', 'main code'), compiled('tools.js', 'tools code')]);
  const cache = new CodeCache(file);
  expect(cache.get('tools.js')?.toString()).toBe('tools code');
  expect(cache.get('main.js')?.toString()).toBe('main code');
  expect(cache.get('absent.js')).toBeUndefined();
});

it('a pack replaced after opening: the open cache still reads the entries it started with', () => {
  const file = packFile();
  new CodeCache(file).save([compiled('main.js', 'first main')]);
  const opened = new CodeCache(file);
  // Another process adds a chunk: the merged pack is renamed over the file, offsets shift.
  new CodeCache(file).save([compiled('a-long-name-first.js', 'x'.repeat(5000))]);
  expect(opened.get('main.js')?.toString()).toBe('first main');
  expect(new CodeCache(file).get('main.js')?.toString()).toBe('first main');
  expect(new CodeCache(file).get('a-long-name-first.js')?.length).toBe(5000);
});

it('a truncated pack gives nothing rather than short data', () => {
  const file = packFile();
  new CodeCache(file).save([compiled('main.js', 'main code that is long enough')]);
  const whole = new CodeCache(file);
  expect(whole.get('main.js')?.toString()).toBe('main code that is long enough');
  writeFileSync(file, 'RIGCC1\n');
  expect(new CodeCache(file).get('main.js')).toBeUndefined();
});
