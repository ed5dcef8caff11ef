import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PROJECT_DOC_SEPARATOR,
  buildInitialContextMessage,
  buildUserInstructionsMessage,
  discoverProjectDocs,
  findProjectRoot,
  isContextualUserMessage,
} from '../../src/context/index.js';

let tmp: string;
let repo: string;
let home: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-docs-')));
  repo = path.join(tmp, 'repo');
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.mkdirSync(path.join(repo, 'pkg', 'sub'), { recursive: true });
  fs.mkdirSync(home);
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const write = (rel: string, content: string | Buffer) => fs.writeFileSync(path.join(tmp, rel), content);

describe('discoverProjectDocs', () => {
  it('concatenates docs from the project root down to cwd, root first', () => {
    write('repo/AGENTS.md', 'root rules\n');
    write('repo/pkg/AGENTS.md', 'pkg rules');
    write('repo/pkg/sub/AGENTS.md', 'sub rules');
    const docs = discoverProjectDocs({ cwd: path.join(repo, 'pkg', 'sub') });
    expect(docs.projectRoot).toBe(repo);
    expect(docs.text).toBe('root rules\n\n\npkg rules\n\nsub rules');
    expect(docs.sources.map((s) => path.relative(tmp, s.path))).toEqual([
      'repo/AGENTS.md',
      'repo/pkg/AGENTS.md',
      'repo/pkg/sub/AGENTS.md',
    ]);
  });

  it('does not look above the project root, and only in cwd without a marker', () => {
    write('AGENTS.md', 'outside the repo');
    write('repo/pkg/AGENTS.md', 'pkg');
    expect(discoverProjectDocs({ cwd: path.join(repo, 'pkg') }).text).toBe('pkg');
    fs.rmSync(path.join(repo, '.git'), { recursive: true });
    expect(findProjectRoot(path.join(repo, 'pkg'))).toBe(path.join(repo, 'pkg'));
    expect(discoverProjectDocs({ cwd: path.join(repo, 'pkg', 'sub') }).text).toBe('');
  });

  it('honours custom markers and [] disables the walk', () => {
    write('repo/AGENTS.md', 'root');
    write('repo/pkg/.hg', '');
    write('repo/pkg/sub/AGENTS.md', 'sub');
    expect(discoverProjectDocs({ cwd: path.join(repo, 'pkg', 'sub'), markers: ['.hg'] }).projectRoot).toBe(path.join(repo, 'pkg'));
    expect(discoverProjectDocs({ cwd: path.join(repo, 'pkg', 'sub'), markers: [] }).text).toBe('sub');
  });

  it('takes AGENTS.override.md over AGENTS.md in the same directory', () => {
    write('repo/AGENTS.md', 'normal');
    write('repo/AGENTS.override.md', 'override');
    write('repo/pkg/AGENTS.md', 'pkg');
    expect(discoverProjectDocs({ cwd: path.join(repo, 'pkg') }).text).toBe('override\n\npkg');
  });

  it('uses fallback filenames in order, only when no AGENTS file exists there', () => {
    write('repo/CLAUDE.md', 'claude root');
    write('repo/pkg/AGENTS.md', 'agents pkg');
    write('repo/pkg/CLAUDE.md', 'claude pkg');
    write('repo/pkg/sub/GEMINI.md', 'gemini sub');
    write('repo/pkg/sub/CLAUDE.md', 'claude sub');
    const docs = discoverProjectDocs({ cwd: path.join(repo, 'pkg', 'sub'), fallbackFilenames: ['', 'GEMINI.md', 'CLAUDE.md', 'GEMINI.md'] });
    expect(docs.text).toBe('claude root\n\nagents pkg\n\ngemini sub');
  });

  it('skips blank files', () => {
    write('repo/AGENTS.md', '  \n\n');
    write('repo/pkg/AGENTS.md', 'pkg');
    expect(discoverProjectDocs({ cwd: path.join(repo, 'pkg') }).text).toBe('pkg');
  });

  it('shares project_doc_max_bytes across files and notes truncation', () => {
    write('repo/AGENTS.md', 'a'.repeat(60));
    write('repo/pkg/AGENTS.md', 'b'.repeat(60));
    write('repo/pkg/sub/AGENTS.md', 'c'.repeat(10));
    const docs = discoverProjectDocs({ cwd: path.join(repo, 'pkg', 'sub'), maxBytes: 100 });
    const [a, b, c] = docs.sources;
    expect(a).toMatchObject({ includedBytes: 60, truncated: false });
    expect(b).toMatchObject({ bytes: 60, includedBytes: 40, truncated: true });
    expect(c).toMatchObject({ includedBytes: 0, truncated: true });
    expect(docs.text).toContain('a'.repeat(60));
    expect(docs.text).toContain('b'.repeat(40) + '\n\n[rig: ');
    expect(docs.text).not.toContain('b'.repeat(41));
    expect(docs.text).toMatch(/truncated: included 40 of 60 bytes \(project_doc_max_bytes = 100\)/);
    expect(docs.text).toMatch(/sub\/AGENTS\.md omitted/);
    expect(docs.text).not.toContain('ccc');
    expect(discoverProjectDocs({ cwd: repo, maxBytes: 0 }).text).toBe('');
  });

  it('never cuts a multi-byte character in half', () => {
    write('repo/AGENTS.md', 'ééé'); // 6 bytes
    const docs = discoverProjectDocs({ cwd: repo, maxBytes: 3 });
    expect(docs.sources[0]).toMatchObject({ includedBytes: 2, truncated: true, lossy: false });
    expect(docs.text.startsWith('é\n\n[rig:')).toBe(true);
  });

  it('decodes non-UTF-8 files lossily with a note', () => {
    write('repo/AGENTS.md', Buffer.from([0x68, 0x69, 0x20, 0xff, 0xfe, 0x21])); // "hi \xff\xfe!"
    const docs = discoverProjectDocs({ cwd: repo });
    expect(docs.sources[0]?.lossy).toBe(true);
    expect(docs.text.startsWith('hi \uFFFD\uFFFD!')).toBe(true);
    expect(docs.text).toContain('is not valid UTF-8');
  });

  it('puts global instructions from RIG_HOME first, override first, trimmed', () => {
    write('home/AGENTS.md', '  global rules \n');
    write('repo/AGENTS.md', 'project rules');
    expect(discoverProjectDocs({ cwd: repo, home }).text).toBe(`global rules${PROJECT_DOC_SEPARATOR}project rules`);
    write('home/AGENTS.override.md', 'override global');
    const docs = discoverProjectDocs({ cwd: repo, home, userInstructions: 'from config' });
    expect(docs.text).toBe(`override global\n\nfrom config${PROJECT_DOC_SEPARATOR}project rules`);
    expect(docs.sources[0]).toMatchObject({ kind: 'global', path: path.join(home, 'AGENTS.override.md') });
    fs.rmSync(path.join(repo, 'AGENTS.md'));
    expect(discoverProjectDocs({ cwd: repo, home }).text).toBe('override global');
  });
});

describe('instructions message', () => {
  it('wraps the text in the AGENTS.md block', () => {
    const msg = buildUserInstructionsMessage('/repo', 'be careful');
    expect(msg).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nbe careful\n</INSTRUCTIONS>' }],
    });
    expect(buildUserInstructionsMessage('/repo', '  ')).toBeUndefined();
    expect(isContextualUserMessage(msg!)).toBe(true);
  });

  it('combines instructions and environment into one user message', () => {
    const msg = buildInitialContextMessage({ cwd: '/r', instructions: 'x', environmentContext: '<environment_context>\n</environment_context>' });
    expect(msg?.content).toHaveLength(2);
    expect(isContextualUserMessage(msg!)).toBe(true);
    expect(buildInitialContextMessage({ cwd: '/r' })).toBeUndefined();
  });
});
