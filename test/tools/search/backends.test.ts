// Every search backend — the bundled rg, the system rg, the in-process fallback — lists and
// searches the same files in a tree with ignore files at several levels, as ripgrep defines it.
import { relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grepFiles, listFiles, type GrepQuery, type SearchBackend } from '../../../src/tools/search/index.js';
import { bundledRipgrep, systemRipgrep } from '../../../src/tools/search/locate.js';
import { removeDir } from '../../support/workspace.js';
import { buildTree } from './tree.js';

const bundled = bundledRipgrep();
const system = systemRipgrep(process.env['PATH'] ?? '');
const BACKENDS: [string, SearchBackend | undefined][] = [
  ['bundled rg', bundled ? { kind: 'ripgrep', path: bundled, source: 'bundled' } : undefined],
  ['system rg', system ? { kind: 'ripgrep', path: system, source: 'system' } : undefined],
  ['in-process fallback', { kind: 'fallback', reason: 'test' }],
];

const root = buildTree();
afterAll(() => removeDir(root));

const REPO_FILES = [
  '.gitignore',
  '.hidden/h.ts',
  'a.txt',
  'big.txt',
  'bin.dat',
  'docs/.ignore',
  'docs/deep/er/x.md',
  'docs/notes.log',
  'keep.log',
  'nested/.gitignore',
  'nested/x.log',
  'src/.gitignore',
  'src/.ignore',
  'src/debug.log',
  'src/main.ts',
  'src/rootonly.js',
];

function query(overrides: Partial<GrepQuery> = {}): GrepQuery {
  return { pattern: 'needle', root: `${root}/repo`, globs: [], excludes: [], ignoreCase: false, multiline: false, before: 0, after: 0, includeIgnored: false, ...overrides };
}

describe.each(BACKENDS)('%s', (_name, backend) => {
  const available = backend !== undefined;
  const rel = (base: string, paths: string[]): string[] => paths.map((path) => relative(base, path)).sort();

  it.skipIf(!available)('lists files as ripgrep does: nested .gitignore/.ignore, info/exclude, negations, nested repositories', async () => {
    const { paths } = await listFiles({ root: `${root}/repo`, includeIgnored: false }, { backend: backend! });
    expect(rel(`${root}/repo`, paths)).toEqual(REPO_FILES);
  });

  it.skipIf(!available)('a subdirectory still obeys the repository root .gitignore; outside a repository only .ignore counts', async () => {
    const { paths } = await listFiles({ root: `${root}/repo/src`, includeIgnored: false }, { backend: backend! });
    expect(rel(`${root}/repo/src`, paths)).toEqual(['.gitignore', '.ignore', 'debug.log', 'main.ts', 'rootonly.js']);
    const plain = await listFiles({ root: `${root}/plain`, includeIgnored: false }, { backend: backend! });
    expect(rel(`${root}/plain`, plain.paths)).toEqual(['.gitignore', '.ignore', 'f.txt']);
  });

  it.skipIf(!available)('includeIgnored lists everything, .git and node_modules included', async () => {
    const { paths } = await listFiles({ root: `${root}/repo`, includeIgnored: true }, { backend: backend! });
    const all = rel(`${root}/repo`, paths);
    expect(all).toContain('node_modules/m/i.js');
    expect(all).toContain('.git/info/exclude');
    expect(all).toContain('build/out.js');
    expect(all).toContain('nested/y.md');
  });

  it.skipIf(!available)('grep: files, counts and lines skip binary and oversized files', async () => {
    const files = await grepFiles(query(), 'files', { backend: backend! });
    const expected = ['.hidden/h.ts', 'a.txt', 'docs/notes.log', 'keep.log', 'nested/x.log', 'src/debug.log', 'src/main.ts', 'src/rootonly.js'];
    expect(rel(`${root}/repo`, files.files.map((f) => f.path))).toEqual(expected);
    expect(files.files.map((f) => f.path)).toEqual([...files.files.map((f) => f.path)].sort());

    const counts = await grepFiles(query({ ignoreCase: true }), 'counts', { backend: backend! });
    const byFile = Object.fromEntries(counts.files.map((f) => [relative(`${root}/repo`, f.path), f.matches]));
    expect(byFile['src/main.ts']).toBe(2);
    expect(byFile['src/rootonly.js']).toBe(2);

    const lines = await grepFiles(query({ root: `${root}/repo/src/main.ts`, before: 1, after: 1 }), 'lines', { backend: backend! });
    expect(lines.files).toEqual([
      {
        path: `${root}/repo/src/main.ts`,
        matches: 1,
        lines: [
          { line: 1, text: 'one', match: false },
          { line: 2, text: 'needle two needle', match: true },
          { line: 3, text: 'three', match: false },
        ],
      },
    ]);
  });

  it.skipIf(!available)('grep: globs (which override ignore files, as in rg), excludes, extensions, case folding and multiline', async () => {
    const paths = async (overrides: Partial<GrepQuery>): Promise<string[]> =>
      rel(`${root}/repo`, (await grepFiles(query(overrides), 'files', { backend: backend! })).files.map((f) => f.path));
    // rootonly.js is ignored by /rootonly.js, but the glob names it; build/ stays ignored as a directory.
    expect(await paths({ globs: ['*.{ts,js}'] })).toEqual(['.hidden/h.ts', 'rootonly.js', 'src/main.ts', 'src/rootonly.js']);
    expect(await paths({ globs: ['src/**'] })).toEqual(['src/a.tmp', 'src/debug.log', 'src/gen/x.ts', 'src/main.ts', 'src/rootonly.js']);
    expect(await paths({ excludes: ['*.log', 'src/**'] })).toEqual(['.hidden/h.ts', 'a.txt']);
    expect(await paths({ extensions: ['ts'] })).toEqual(['.hidden/h.ts', 'src/main.ts']);
    expect(await paths({ pattern: 'NEEDLE there', ignoreCase: false })).toEqual(['src/rootonly.js']);
    expect(await paths({ pattern: 'here.and', multiline: true })).toEqual(['src/rootonly.js']);
    expect(await paths({ pattern: 'here.and' })).toEqual([]);
  });

  it.skipIf(!available)('an invalid pattern is a pattern error', async () => {
    await expect(grepFiles(query({ pattern: '(' }), 'files', { backend: backend! })).rejects.toMatchObject({ kind: 'pattern' });
  });

  it.skipIf(!available)('counts the files it searched (DeepSeek files_searched)', async () => {
    const result = await grepFiles(query({ root: `${root}/repo/src` }), 'lines', { backend: backend!, stats: true });
    expect(result.searched).toBe(5);
  });
});
