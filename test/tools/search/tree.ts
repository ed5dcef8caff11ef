// A small tree with ignore files at several levels, built the same way for every backend test:
// what ripgrep lists in it is the expectation both the rg backend and the fallback must meet.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const TREE: Record<string, string> = {
  // Above the repository: its .gitignore is not the repository's, its .ignore still counts.
  '.gitignore': '*.txt\n',
  '.ignore': 'secret.md\n',
  'repo/.git/HEAD': 'ref: refs/heads/main\n',
  'repo/.git/info/exclude': '# local\nexcluded.dat\n',
  'repo/.gitignore': 'build/\n*.log\n!keep.log\n/rootonly.js\n# comment\n\n',
  'repo/a.txt': 'alpha needle\n',
  'repo/secret.md': 'needle\n',
  'repo/rootonly.js': 'needle\n',
  'repo/excluded.dat': 'needle\n',
  'repo/debug.log': 'needle\n',
  'repo/keep.log': 'needle kept\n',
  'repo/build/out.js': 'needle\n',
  'repo/.hidden/h.ts': 'const needle = 1;\n',
  'repo/node_modules/m/i.js': 'needle\n',
  'repo/src/.gitignore': 'gen/\n!debug.log\n',
  'repo/src/.ignore': '*.tmp\n',
  'repo/src/rootonly.js': 'needle here\nand NEEDLE there\n',
  'repo/src/debug.log': 'needle\n',
  'repo/src/gen/x.ts': 'needle\n',
  'repo/src/a.tmp': 'needle\n',
  'repo/src/main.ts': 'one\nneedle two needle\nthree\n',
  'repo/docs/.ignore': '!notes.log\n',
  'repo/docs/notes.log': 'needle\n',
  'repo/docs/deep/er/x.md': 'no match\n',
  'repo/nested/.git/HEAD': 'ref: refs/heads/main\n',
  'repo/nested/.gitignore': '*.md\n',
  'repo/nested/x.log': 'needle\n',
  'repo/nested/y.md': 'needle\n',
  'repo/bin.dat': 'needle\0binary\n',
  'plain/.gitignore': '*.txt\n',
  'plain/f.txt': 'needle\n',
  'plain/.ignore': 'g.txt\n',
  'plain/g.txt': 'needle\n',
};

/** Builds TREE in a new temp dir and returns its (real) path. */
export function buildTree(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'rig-search-tree-')));
  for (const [rel, content] of Object.entries(TREE)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  // A file over the 1 MiB content-search limit: listed, never searched.
  writeFileSync(join(root, 'repo/big.txt'), `needle\n${'x'.repeat(1024 * 1024)}\n`);
  return root;
}
