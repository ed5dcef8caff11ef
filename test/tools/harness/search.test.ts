import { utimesSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledRipgrep, systemRipgrep } from '../../../src/tools/search/locate.js';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

function project() {
  const ctx = fakeContext();
  ctx.write('src/a.ts', 'import x from "y";\nconst Foo = 1;\nconst bar = 2;\nexport { Foo };\n');
  ctx.write('src/b.js', 'let foo = 3;\n');
  ctx.write('src/deep/c.ts', 'nothing here\n');
  ctx.write('README.md', 'FOO docs\n');
  ctx.write('node_modules/m/index.js', 'foo in deps\n');
  ctx.write('.git/config', 'foo in git\n');
  const stamp = (rel: string, seconds: number): void => utimesSync(`${ctx.root}/${rel}`, seconds, seconds);
  stamp('src/a.ts', 1000);
  stamp('src/b.js', 3000);
  stamp('src/deep/c.ts', 2000);
  stamp('README.md', 500);
  return ctx;
}

// Every format is checked on each search backend: the bundled rg, rg on PATH, and the fallback.
const BACKENDS: [string, boolean][] = [
  ['bundled', bundledRipgrep() !== undefined],
  ['system', systemRipgrep(process.env['PATH'] ?? '') !== undefined],
  ['off', true],
];

describe.each(BACKENDS)('RIG_RIPGREP=%s', (setting, available) => {
  const previous = process.env['RIG_RIPGREP'];
  beforeAll(() => {
    process.env['RIG_RIPGREP'] = setting;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env['RIG_RIPGREP'];
    else process.env['RIG_RIPGREP'] = previous;
  });
  if (!available) {
    it.skip(`no ${setting} rg here`, () => {});
    return;
  }

  describe('Grep (Claude-style options, kimi-code)', () => {
    const grep = () => bound('kimi-code').byName.get('Grep');

    it('kimi-code Grep lists files by default, skipping .git and node_modules', async () => {
      const ctx = project();
      expect((await call(grep(), { pattern: 'foo' }, ctx)).text).toBe('Found 1 file\nsrc/b.js');
      expect((await call(grep(), { pattern: 'foo', '-i': true }, ctx)).text).toBe('Found 3 files\nREADME.md\nsrc/a.ts\nsrc/b.js');
    });

    it('content mode with line numbers and context lines', async () => {
      const ctx = project();
      expect((await call(grep(), { pattern: 'bar', output_mode: 'content', '-B': 1, '-A': 1 }, ctx)).text).toBe(
        'src/a.ts-2-const Foo = 1;\nsrc/a.ts:3:const bar = 2;\nsrc/a.ts-4-export { Foo };',
      );
      expect((await call(grep(), { pattern: 'Foo', output_mode: 'content', '-n': false }, ctx)).text).toBe('src/a.ts:const Foo = 1;\nsrc/a.ts:export { Foo };');
    });

    it('count mode, type filter and glob filter', async () => {
      const ctx = project();
      expect((await call(grep(), { pattern: 'foo', '-i': true, output_mode: 'count_matches', type: 'ts' }, ctx)).text).toBe(
        'src/a.ts:2\n\nFound 2 total occurrences across 1 file.',
      );
      expect((await call(grep(), { pattern: 'foo', '-i': true, glob: '*.md' }, ctx)).text).toBe('Found 1 file\nREADME.md');
      expect((await call(grep(), { pattern: 'foo', '-i': true, glob: '*.{js,md}' }, ctx)).text).toBe('Found 2 files\nREADME.md\nsrc/b.js');
    });

    it('head_limit and offset page the entries', async () => {
      const ctx = project();
      expect((await call(grep(), { pattern: 'o', output_mode: 'content', head_limit: 2, offset: 1 }, ctx)).text).toBe(
        'src/a.ts:1:import x from "y";\nsrc/a.ts:2:const Foo = 1;\n\n[Showing results with pagination = limit: 2, offset: 1]',
      );
    });

    it('multiline lets a pattern span lines', async () => {
      const ctx = project();
      expect((await call(grep(), { pattern: 'Foo = 1;\\nconst bar', output_mode: 'content', multiline: true }, ctx)).text).toBe(
        'src/a.ts:2:const Foo = 1;\nsrc/a.ts:3:const bar = 2;',
      );
      expect((await call(grep(), { pattern: 'Foo = 1;\\nconst bar', output_mode: 'content' }, ctx)).text).toBe('No matches found');
    });

    it('an invalid pattern and a missing path are errors', async () => {
      const ctx = project();
      expect((await call(grep(), { pattern: '(' }, ctx)).text).toMatch(/^Invalid regular expression/);
      expect((await call(grep(), { pattern: 'x', path: 'nope' }, ctx)).success).toBe(false);
    });

    it('no match in files mode is No files found', async () => {
      const ctx = project();
      expect((await call(grep(), { pattern: 'zzz' }, ctx)).text).toBe('No files found');
    });
  });

  describe('other grep formats', () => {
    it('opencode: Found N matches, grouped by file, include filter', async () => {
      const ctx = project();
      expect((await call(bound('opencode').byName.get('grep'), { pattern: 'Foo|foo', include: '*.ts' }, ctx)).text).toBe(
        `Found 2 matches\n${ctx.root}/src/a.ts:\n  Line 2: const Foo = 1;\n  Line 4: export { Foo };`,
      );
      expect((await call(bound('opencode').byName.get('grep'), { pattern: 'zzz' }, ctx)).text).toBe('No files found');
    });

    it('qwen grep_search: File / L<n> blocks, limit', async () => {
      const ctx = project();
      const text = (await call(bound('qwen-code').byName.get('grep_search'), { pattern: 'Foo', limit: 1 }, ctx)).text;
      expect(text).toBe('Found 1 match for pattern "Foo" in path "." (showing first 1 of 2):\n---\nFile: src/a.ts\nL2: const Foo = 1;\n---');
    });

    it('deepseek grep_files: JSON with context lines', async () => {
      const ctx = project();
      const json = JSON.parse((await call(bound('deepseek-tui').byName.get('grep_files'), { pattern: 'bar', context_lines: 1 }, ctx)).text);
      expect(json).toEqual({
        matches: [{ file: 'src/a.ts', line_number: 3, line: 'const bar = 2;', context_before: ['const Foo = 1;'], context_after: ['export { Foo };'] }],
        total_matches: 1,
        files_searched: 4,
        truncated: false,
      });
    });
  });

  describe('Glob', () => {
    it('opencode: files only, absolute, newest first', async () => {
      const ctx = project();
      expect((await call(bound('opencode').byName.get('glob'), { pattern: '**/*.ts' }, ctx)).text).toBe(
        `${ctx.root}/src/deep/c.ts\n${ctx.root}/src/a.ts`,
      );
      expect((await call(bound('opencode').byName.get('glob'), { pattern: 'src' }, ctx)).text).toBe('No files found');
    });

    it('zcode/Claude: oldest first; kimi: relative and sorted by name with a <system> note', async () => {
      const ctx = project();
      const kimi = (await call(bound('kimi-code').byName.get('Glob'), { pattern: 'src/**' }, ctx)).text;
      expect(kimi).toBe('src/a.ts\nsrc/b.js\nsrc/deep/c.ts\n<system>Found 3 matches for pattern `src/**`.</system>');
      const legacy = (await call(bound('kimi-cli').byName.get('Glob'), { pattern: 'src/*' }, ctx)).text;
      expect(legacy).toBe('src/a.ts\nsrc/b.js\nsrc/deep\n<system>Found 3 matches for pattern `src/*`.</system>');
    });

    it('qwen: newest first with a header; braces work', async () => {
      const ctx = project();
      expect((await call(bound('qwen-code').byName.get('glob'), { pattern: '**/*.{js,md}', path: 'src' }, ctx)).text).toBe(
        `Found 1 file(s) matching "**/*.{js,md}" within ${ctx.root}/src, sorted by modification time (newest first):\n${ctx.root}/src/b.js`,
      );
    });

    it('a missing directory is an error', async () => {
      const ctx = project();
      expect((await call(bound('opencode').byName.get('glob'), { pattern: '*', path: 'nope' }, ctx)).success).toBe(false);
    });
  });

  describe('DeepSeek list_dir and file_search', () => {
    it('list_dir gives JSON entries sorted by name', async () => {
      const ctx = project();
      expect(JSON.parse((await call(bound('deepseek-tui').byName.get('list_dir'), { path: 'src' }, ctx)).text)).toEqual([
        { name: 'a.ts', is_dir: false },
        { name: 'b.js', is_dir: false },
        { name: 'deep', is_dir: true },
      ]);
    });

    it('file_search matches path substrings', async () => {
      const ctx = project();
      expect(JSON.parse((await call(bound('deepseek-tui').byName.get('file_search'), { query: 'DEEP' }, ctx)).text)).toEqual([
        { path: 'src/deep/c.ts', name: 'c.ts' },
      ]);
    });
  });

  describe('absolute glob patterns', () => {
    it('search from their fixed leading directories', async () => {
      const ctx = project();
      expect((await call(bound('opencode').byName.get('glob'), { pattern: `${ctx.root}/src/**/*.js` }, ctx)).text).toBe(`${ctx.root}/src/b.js`);
      expect((await call(bound('opencode').byName.get('glob'), { pattern: `${ctx.root}/README.md` }, ctx)).text).toBe(`${ctx.root}/README.md`);
    });
  });

  describe('deepseek grep_files include/exclude', () => {
    it('filters files with globs', async () => {
      const ctx = project();
      const grep = bound('deepseek-tui').byName.get('grep_files');
      const files = async (args: Record<string, unknown>): Promise<string[]> =>
        (JSON.parse((await call(grep, { pattern: 'o', ...args }, ctx)).text) as { matches: { file: string }[] }).matches.map((m) => m.file);
      expect([...new Set(await files({ include: ['*.ts'] }))]).toEqual(['src/a.ts', 'src/deep/c.ts']);
      expect([...new Set(await files({ include: ['*.ts'], exclude: ['**/deep/**'] }))]).toEqual(['src/a.ts']);
    });
  });

  describe('.gitignore', () => {
    it('searches skip ignored paths unless include_ignored', async () => {
      const ctx = project();
      ctx.write('.gitignore', '# build output\ndist/\n/local.txt\n*.log\n');
      ctx.write('dist/out.js', 'foo\n');
      ctx.write('local.txt', 'foo\n');
      ctx.write('src/debug.log', 'foo\n');
      ctx.write('src/local.txt', 'foo\n');
      const grep = bound('kimi-code').byName.get('Grep');
      expect((await call(grep, { pattern: 'foo' }, ctx)).text).toBe('Found 2 files\nsrc/b.js\nsrc/local.txt');
      expect((await call(grep, { pattern: 'foo', include_ignored: true }, ctx)).text).toContain('dist/out.js');
      expect((await call(bound('opencode').byName.get('glob'), { pattern: '**/*.log' }, ctx)).text).toBe('No files found');
    });
  });

  describe('Claude-style Grep in a user profile', () => {
    it('shows absolute paths, newest first, with the Claude defaults', async () => {
      const { mkdtempSync, writeFileSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      const { readProfileFile } = await import('../../../src/harness/loader.js');
      const { bindHarness } = await import('../../../src/tools/harness/registry.js');
      const dir = mkdtempSync(join(tmpdir(), 'rig-user-profile-'));
      writeFileSync(join(dir, 'p.md'), 'prompt');
      writeFileSync(
        join(dir, 'mine.json'),
        JSON.stringify({ format: 1, id: 'mine', description: 'd', wires: ['chat'], prompt_file: 'p.md', tools: [{ name: 'Grep', capability: 'fs.grep' }] }),
      );
      const grep = bindHarness(readProfileFile(join(dir, 'mine.json'), 'user')).byName.get('Grep');
      const ctx = project();
      expect((await call(grep, { pattern: 'foo', '-i': true }, ctx)).text).toBe(
        `Found 3 files\n${ctx.root}/src/b.js\n${ctx.root}/src/a.ts\n${ctx.root}/README.md`,
      );
      expect((await call(grep, { pattern: 'Foo', output_mode: 'content' }, ctx)).text).toBe(
        `${ctx.root}/src/a.ts:2:const Foo = 1;\n${ctx.root}/src/a.ts:4:export { Foo };`,
      );
    });
  });
});
