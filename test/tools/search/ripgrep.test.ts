// The rg child process is rig's own call: a config file cannot add flags (--pre would run a
// program), a pattern or path that looks like a flag stays a pattern or path, and an interrupt
// or the timeout kills the process.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { grepFiles, listFiles, type GrepQuery, type SearchBackend } from '../../../src/tools/search/index.js';
import { bundledRipgrep, configureRipgrep, searchBackend, systemRipgrep, unusableRipgrepChoice } from '../../../src/tools/search/locate.js';
import { removeDir } from '../../support/workspace.js';
import { waitUntil } from '../../frontends/exec/helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rig-rg-')));
  dirs.push(dir);
  return dir;
}

function query(root: string, overrides: Partial<GrepQuery> = {}): GrepQuery {
  return { pattern: 'x', root, globs: [], excludes: [], ignoreCase: false, multiline: false, before: 0, after: 0, includeIgnored: false, ...overrides };
}

const rg = bundledRipgrep() ?? systemRipgrep(process.env['PATH'] ?? '');
const backend: SearchBackend | undefined = rg ? { kind: 'ripgrep', path: rg, source: 'bundled' } : undefined;

describe.skipIf(!backend)('rg arguments', () => {
  it('ignores RIPGREP_CONFIG_PATH: a config with --pre cannot run a program', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'needle\n');
    const marker = join(dir, 'pre-ran');
    const pre = join(dir, 'pre.sh');
    writeFileSync(pre, `#!/bin/sh\ntouch ${marker}\ncat "$1"\n`);
    chmodSync(pre, 0o755);
    const config = join(dir, 'rgrc');
    writeFileSync(config, `--pre=${pre}\n--files\n`);
    const previous = process.env['RIPGREP_CONFIG_PATH'];
    process.env['RIPGREP_CONFIG_PATH'] = config;
    try {
      const result = await grepFiles(query(dir, { pattern: 'needle' }), 'lines', { backend: backend! });
      expect(result.files.map((f) => f.path)).toEqual([join(dir, 'a.txt')]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      if (previous === undefined) delete process.env['RIPGREP_CONFIG_PATH'];
      else process.env['RIPGREP_CONFIG_PATH'] = previous;
    }
  });

  it('a pattern, glob or path that looks like a flag is searched for, not obeyed', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'flag.txt'), 'use --files here\n');
    writeFileSync(join(dir, 'other.txt'), 'nothing\n');
    mkdirSync(join(dir, '-v'));
    writeFileSync(join(dir, '-v', 'x.txt'), 'dash dir\n');
    const asPattern = await grepFiles(query(dir, { pattern: '--files' }), 'files', { backend: backend! });
    expect(asPattern.files.map((f) => f.path)).toEqual([join(dir, 'flag.txt')]);
    const preAsPattern = await grepFiles(query(dir, { pattern: `--pre=${join(dir, 'nope')}` }), 'files', { backend: backend! });
    expect(preAsPattern.files).toEqual([]);
    const dashRoot = await grepFiles(query(join(dir, '-v'), { pattern: 'dash' }), 'files', { backend: backend! });
    expect(dashRoot.files.map((f) => f.path)).toEqual([join(dir, '-v', 'x.txt')]);
    const dashGlob = await grepFiles(query(dir, { pattern: 'dash', globs: ['--pre=x'] }), 'files', { backend: backend! });
    expect(dashGlob.files).toEqual([]);
  });
});

describe('stopping rg', () => {
  // A stand-in rg that records its pid and never finishes, so the kill is what ends it.
  function hangingRg(): { backend: SearchBackend; pidFile: string; root: string } {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    const script = join(dir, 'rg');
    writeFileSync(script, `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 300\n`);
    chmodSync(script, 0o755);
    mkdirSync(join(dir, 'root'));
    return { backend: { kind: 'ripgrep', path: script, source: 'configured' }, pidFile, root: join(dir, 'root') };
  }

  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('an abort kills the rg process', async () => {
    const fake = hangingRg();
    const controller = new AbortController();
    const search = grepFiles(query(fake.root), 'files', { backend: fake.backend, signal: controller.signal });
    await waitUntil(() => existsSync(fake.pidFile) && readFileSync(fake.pidFile, 'utf8').endsWith('\n'), 10_000, 'the fake rg to start');
    const pid = Number(readFileSync(fake.pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    controller.abort();
    await expect(search).rejects.toMatchObject({ kind: 'aborted' });
    expect(alive(pid)).toBe(false);
  });

  it('the timeout kills the rg process and says so', async () => {
    const fake = hangingRg();
    const listing = listFiles({ root: fake.root, includeIgnored: false }, { backend: fake.backend, timeoutMs: 300 });
    await expect(listing).rejects.toMatchObject({ kind: 'timeout', message: 'Search timed out after 300 ms' });
    const pid = Number(readFileSync(fake.pidFile, 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('an rg that cannot start falls back to the in-process search', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'x\n');
    const missing: SearchBackend = { kind: 'ripgrep', path: join(dir, 'no-such-rg'), source: 'configured' };
    const result = await grepFiles(query(dir), 'files', { backend: missing });
    expect(result.files.map((f) => f.path)).toEqual([join(dir, 'a.txt')]);
  });
});

describe('choosing the backend', () => {
  it('RIG_RIPGREP picks bundled, system, off, or a path', () => {
    const dir = tempDir();
    const custom = join(dir, 'my-rg');
    writeFileSync(custom, '#!/bin/sh\n');
    chmodSync(custom, 0o755);
    expect(searchBackend({ RIG_RIPGREP: 'off' })).toEqual({ kind: 'fallback', reason: 'RIG_RIPGREP=off' });
    expect(searchBackend({ RIG_RIPGREP: custom })).toEqual({ kind: 'ripgrep', path: custom, source: 'configured' });
    expect(searchBackend({ RIG_RIPGREP: join(dir, 'missing') })).toMatchObject({ kind: 'fallback' });
    expect(searchBackend({ RIG_RIPGREP: 'system', PATH: dir })).toEqual({ kind: 'fallback', reason: 'RIG_RIPGREP=system, but there is no rg on PATH' });
    writeFileSync(join(dir, 'rg'), '#!/bin/sh\n');
    chmodSync(join(dir, 'rg'), 0o755);
    expect(searchBackend({ RIG_RIPGREP: 'system', PATH: `${dir}:/usr/bin` })).toEqual({ kind: 'ripgrep', path: join(dir, 'rg'), source: 'system' });
    const bundled = bundledRipgrep();
    if (bundled) expect(searchBackend({ PATH: '' })).toEqual({ kind: 'ripgrep', path: bundled, source: 'bundled' });
  });
});

describe('the ripgrep config key', () => {
  afterEach(() => configureRipgrep(undefined));

  it('picks the backend unless RIG_RIPGREP is set, and says when its choice cannot be used', () => {
    const dir = tempDir();
    const custom = join(dir, 'my-rg');
    writeFileSync(custom, '#!/bin/sh\n');
    chmodSync(custom, 0o755);
    configureRipgrep(custom);
    expect(searchBackend({ PATH: '' })).toEqual({ kind: 'ripgrep', path: custom, source: 'configured' });
    expect(unusableRipgrepChoice({ PATH: '' })).toBeUndefined();
    expect(searchBackend({ PATH: '', RIG_RIPGREP: 'off' })).toEqual({ kind: 'fallback', reason: 'RIG_RIPGREP=off' });
    configureRipgrep('off');
    expect(searchBackend({ PATH: '' })).toEqual({ kind: 'fallback', reason: 'ripgrep = "off" in config' });
    expect(unusableRipgrepChoice({ PATH: '' })).toBeUndefined();
    configureRipgrep(join(dir, 'missing-rg'));
    expect(unusableRipgrepChoice({ PATH: '' })).toBe(`ripgrep = ${JSON.stringify(join(dir, 'missing-rg'))} in config, but that is not an executable file`);
    configureRipgrep('system');
    expect(unusableRipgrepChoice({ PATH: dir })).toBe('ripgrep = "system" in config, but there is no rg on PATH');
    configureRipgrep(undefined);
    expect(unusableRipgrepChoice({ PATH: dir })).toBeUndefined();
  });
});
