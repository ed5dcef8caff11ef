// Every harness's grep, glob and file-search tool gives the same text on every search backend (the
// bundled rg, rg on PATH, the in-process fallback) over a tree with ignore files at several levels
// and more files than the tools' result caps, so sorting, truncation notices and path forms cannot
// depend on which backend answered.
import { mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinProfileDir, readProfileFile } from '../../../src/harness/loader.js';
import { bindHarness } from '../../../src/tools/harness/registry.js';
import { bundledRipgrep, systemRipgrep } from '../../../src/tools/search/locate.js';
import type { ToolSpec } from '../../../src/tools/spec.js';
import { bound } from '../harness/bind.js';
import { call, fakeContext } from '../harness/fake-context.js';
import { removeDir, tempDir } from '../../support/workspace.js';
import { TREE } from './tree.js';

const SETTINGS = [
  ...(bundledRipgrep() ? ['bundled'] : []),
  ...(systemRipgrep(process.env['PATH'] ?? '') ? ['system'] : []),
  'off',
];

/** A second tree with more visible files than Glob's 100, little-coder's 500 and Kimi's 1000 caps. */
const MANY = 1_200;

interface SearchTool {
  label: string;
  spec: ToolSpec;
  capability: string;
  /** Argument names the tool's schema declares (undefined: Claude's, for the user profile). */
  params: Set<string> | undefined;
}

function searchTools(): SearchTool[] {
  const tools: SearchTool[] = [];
  for (const id of ['deepseek-tui', 'kimi-cli', 'kimi-code', 'little-coder', 'opencode', 'qwen-code']) {
    const harness = bound(id);
    for (const tool of readProfileFile(join(builtinProfileDir(), `${id}.json`), 'builtin').tools) {
      if (!['fs.grep', 'fs.glob', 'fs.file_search'].includes(tool.capability)) continue;
      const properties = (tool.parameters as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      tools.push({ label: `${id} ${tool.name}`, spec: harness.byName.get(tool.name)!, capability: tool.capability, params: new Set(Object.keys(properties)) });
    }
  }
  // Claude's and ZCode's formats (absolute paths, mtime order), which no built-in profile binds today.
  const dir = mkdtempSync(join(tmpdir(), 'rig-parity-profile-'));
  writeFileSync(join(dir, 'p.md'), 'prompt');
  const userTools = [
    { name: 'Grep', capability: 'fs.grep', options: { style: 'claude' } },
    { name: 'Glob', capability: 'fs.glob', options: { style: 'claude' } },
    { name: 'ZGrep', capability: 'fs.grep', options: { style: 'zcode' } },
    { name: 'ZGlob', capability: 'fs.glob', options: { style: 'zcode' } },
  ];
  writeFileSync(join(dir, 'mine.json'), JSON.stringify({ format: 1, id: 'mine', description: 'd', wires: ['chat'], prompt_file: 'p.md', tools: userTools }));
  const user = bindHarness(readProfileFile(join(dir, 'mine.json'), 'user'));
  removeDir(dir);
  for (const tool of userTools) tools.push({ label: `user ${tool.name} (${tool.options.style})`, spec: user.byName.get(tool.name)!, capability: tool.capability, params: undefined });
  return tools;
}

/** Argument sets for a capability; each key is kept only where the tool declares it. */
const CASES: Record<string, Record<string, unknown>[]> = {
  'fs.grep': [
    { pattern: 'needle' },
    { pattern: 'NEEDLE', '-i': true, case_insensitive: true },
    { pattern: 'needle', output_mode: 'content', '-C': 1, context_lines: 1 },
    { pattern: 'needle', output_mode: 'count' },
    { pattern: 'needle', output_mode: 'count_matches' },
    { pattern: 'needle', glob: '*.{ts,js}', include: '*.ts' },
    { pattern: 'needle', include: ['*.log'], exclude: ['src/**'] },
    { pattern: 'needle', path: 'src', type: 'ts' },
    { pattern: 'needle', output_mode: 'content', head_limit: 7, offset: 3, limit: 7, max_results: 7 },
    { pattern: 'here.and', multiline: true },
    { pattern: 'needle', include_ignored: true },
    { pattern: 'no such text anywhere' },
  ],
  'fs.glob': [
    { pattern: '**/*' },
    { pattern: '**/*.log' },
    { pattern: '*.md', path: 'docs/deep/er', directory: 'docs/deep/er' },
    { pattern: '**/*.ts', include_ignored: true },
    { pattern: 'src/*', include_dirs: true },
    { pattern: '**/*.nothing' },
  ],
  'fs.file_search': [{ query: 'log' }, { query: 'f1', limit: 50 }, { query: 'x', extensions: ['ts'], exclude: ['gen'] }],
};

/** Run in the big tree only: one listing and one content search per tool, past every cap. */
const BIG_CASES: Record<string, Record<string, unknown>[]> = {
  'fs.grep': [{ pattern: 'needle', output_mode: 'content' }],
  'fs.glob': [{ pattern: '**/*' }],
  'fs.file_search': [{ query: 'f1', limit: 500 }],
};

function argsFor(tool: SearchTool, candidate: Record<string, unknown>): Record<string, unknown> {
  const keep = (key: string): boolean => key === 'pattern' || key === 'query' || (tool.params ? tool.params.has(key) : !['case_insensitive', 'context_lines', 'include', 'exclude', 'limit', 'max_results', 'directory'].includes(key));
  return Object.fromEntries(Object.entries(candidate).filter(([key]) => keep(key)));
}

let small: ReturnType<typeof fakeContext>;
let big: ReturnType<typeof fakeContext>;
let outside: string;
const outputs = new Map<string, Map<string, string>>();
const previous = process.env['RIG_RIPGREP'];

/** Writes the files with distinct modification times not in name order, so mtime sorting shows. */
function populate(ctx: ReturnType<typeof fakeContext>, files: Record<string, string>): void {
  let n = 0;
  for (const [rel, text] of Object.entries(files)) {
    const stamp = 1_000_000 + ((n++ * 7919) % 100_000);
    utimesSync(ctx.write(rel, text), stamp, stamp);
  }
}

beforeAll(async () => {
  small = fakeContext();
  populate(small, Object.fromEntries(Object.entries(TREE).flatMap(([rel, text]) => (rel.startsWith('repo/') ? [[rel.slice('repo/'.length), text]] : []))));
  mkdirSync(join(small.root, 'empty-dir'));
  // Links out of the workspace: no backend follows them (rg does not without --follow).
  outside = tempDir('parity-outside');
  writeFileSync(join(outside, 'outside-secret.ts'), 'needle outside\n');
  symlinkSync(join(outside, 'outside-secret.ts'), join(small.root, 'src', 'linked.ts'));
  symlinkSync(outside, join(small.root, 'linked-dir'));
  big = fakeContext();
  const many: Record<string, string> = { '.git/HEAD': 'ref: refs/heads/main\n', '.gitignore': 'skip/\n' };
  for (let i = 0; i < MANY; i++) many[`${i % 10 === 0 ? 'skip' : `d${i % 7}`}/f${i}.${i % 3 === 0 ? 'ts' : 'rs'}`] = i % 3 === 0 ? `needle ${i}\n` : `hay ${i}\n`;
  populate(big, many);
  for (const setting of SETTINGS) {
    process.env['RIG_RIPGREP'] = setting;
    const bySetting = new Map<string, string>();
    for (const tool of searchTools()) {
      for (const [tree, ctx, cases] of [['small', small, CASES], ['big', big, BIG_CASES]] as const) {
        for (const candidate of cases[tool.capability]!) {
          const args = argsFor(tool, candidate);
          const key = `${tree}: ${tool.label} ${JSON.stringify(args)}`;
          // Cases that differ only in arguments this tool lacks are one call.
          if (bySetting.has(key)) continue;
          const result = await call(tool.spec, args, ctx);
          bySetting.set(key, `${result.success ? 'ok' : 'failed'}: ${result.text}`);
        }
      }
    }
    outputs.set(setting, bySetting);
  }
}, 120_000);

afterAll(() => {
  if (previous === undefined) delete process.env['RIG_RIPGREP'];
  else process.env['RIG_RIPGREP'] = previous;
  removeDir(small.root);
  removeDir(big.root);
  removeDir(outside);
});

describe('search tools on every backend', () => {
  it('ran every tool in every case and none failed', () => {
    const fallback = outputs.get('off')!;
    expect(fallback.size).toBeGreaterThan(50);
    const failures = [...fallback].filter(([, text]) => text.startsWith('failed'));
    expect(failures).toEqual([]);
  });

  it.each(SETTINGS.filter((s) => s !== 'off'))('RIG_RIPGREP=%s gives the fallback text for every call', (setting) => {
    const fallback = outputs.get('off')!;
    const other = outputs.get(setting)!;
    for (const [key, text] of fallback) expect({ key, text: other.get(key) }).toEqual({ key, text });
  });

  it('ignored files stay out unless include_ignored asks for them; links out of the workspace are never followed', () => {
    for (const [key, text] of outputs.get('off')!) {
      const hidden = key.includes('include_ignored') ? [] : ['build/out.js', 'node_modules/', 'src/gen/', 'src/a.tmp', 'excluded.dat', 'skip/', 'nested/y.md', '.git/'];
      for (const path of ['linked', 'needle outside', ...hidden]) {
        expect({ key, leaked: text.includes(path) ? path : undefined }).toEqual({ key, leaked: undefined });
      }
    }
    const withIgnored = [...outputs.get('off')!].filter(([key]) => key.includes('"include_ignored":true') && key.includes('Grep'));
    expect(withIgnored.length).toBeGreaterThan(0);
    for (const [, text] of withIgnored) expect(text).toContain('build/out.js');
  });

  it('caps and truncation notices show where the tree is larger than the cap', () => {
    const fallback = outputs.get('off')!;
    const get = (label: string): string => [...fallback].find(([key]) => key.startsWith(`big: ${label} `))![1].replace(/^ok: /, '');
    expect(get('opencode glob')).toContain('(Results are truncated.');
    expect(get('user Glob (claude)').split('\n').filter((line) => line.startsWith('/'))).toHaveLength(100);
    expect(get('little-coder glob')).toContain('(Results are truncated.');
    expect(get('kimi-code Glob')).toContain('Only the first 1000 matches are returned.');
    expect(get('opencode grep')).toContain('(Results are truncated.');
    expect(get('user Grep (claude)')).toContain('[Showing results with pagination = limit: 250, offset: 0]');
    expect(get('deepseek-tui file_search')).not.toContain('skip/');
  });
});
