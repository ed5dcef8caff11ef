import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxPolicyError, resolveSandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import { makeScratch, noTmp, type Scratch } from './helpers.js';

let s: Scratch;
beforeEach(() => {
  s = makeScratch();
});
afterEach(() => s.remove());

describe('resolveSandboxPolicy', () => {
  it('read-only has no writable roots and no network unless asked', () => {
    const p = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws });
    expect(p).toMatchObject({ mode: 'read-only', cwd: s.ws, writableRoots: [], networkAccess: false });
    expect(resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws, networkAccess: true }).networkAccess).toBe(true);
  });

  it('danger-full-access always has the network', () => {
    expect(resolveSandboxPolicy({ mode: 'danger-full-access', cwd: s.ws }).networkAccess).toBe(true);
  });

  it('workspace-write: cwd, add-dirs, configured roots, /tmp and $TMPDIR, shallowest first', () => {
    const extra = path.join(s.base, 'extra');
    const added = path.join(s.base, 'added');
    const tmpdir = path.join(s.base, 'tmpdir');
    for (const d of [extra, added, tmpdir]) fs.mkdirSync(d);
    const p = resolveSandboxPolicy({
      mode: 'workspace-write',
      cwd: s.ws,
      addDirs: [added],
      writableRoots: [extra],
      env: { TMPDIR: tmpdir },
    });
    expect(p.writableRoots.map((r) => r.root)).toEqual(['/tmp', added, extra, tmpdir, s.ws].sort(byDepth));
    expect(p.networkAccess).toBe(false);
  });

  it('excludes /tmp and $TMPDIR on request', () => {
    const p = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, env: { TMPDIR: s.outside }, ...noTmp });
    expect(p.writableRoots.map((r) => r.root)).toEqual([s.ws]);
  });

  it('realpaths roots, drops duplicates, resolves relative --add-dir, warns about missing or relative config roots', () => {
    fs.symlinkSync(s.ws, path.join(s.base, 'link-to-ws'));
    const p = resolveSandboxPolicy({
      mode: 'workspace-write',
      cwd: path.join(s.base, 'link-to-ws'),
      addDirs: [s.ws, path.join(s.base, 'nope'), '../outside'],
      writableRoots: ['relative/dir'],
      ...noTmp,
    });
    expect(p.cwd).toBe(s.ws);
    expect(p.writableRoots.map((r) => r.root)).toEqual([s.outside, s.ws]);
    expect(p.warnings).toEqual([
      `Ignoring writable root ${path.join(s.base, 'nope')} from --add-dir: it does not exist or is not a directory.`,
      'Ignoring writable root "relative/dir" from sandbox_workspace_write.writable_roots: it must be an absolute path.',
    ]);
  });

  it('protects existing .git/.agents/.codex/.rig and missing .rig/.codex in the workspace', () => {
    fs.mkdirSync(path.join(s.ws, '.git'));
    fs.mkdirSync(path.join(s.ws, '.agents'));
    const p = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    expect(p.writableRoots[0]).toEqual({
      root: s.ws,
      readOnlySubpaths: [path.join(s.ws, '.agents'), path.join(s.ws, '.git')],
      missingProtected: [path.join(s.ws, '.rig'), path.join(s.ws, '.codex')],
    });
  });

  it('only the workspace root protects missing config dirs', () => {
    const extra = path.join(s.base, 'extra');
    fs.mkdirSync(extra);
    const p = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, addDirs: [extra], ...noTmp });
    expect(p.writableRoots.find((r) => r.root === extra)?.missingProtected).toEqual([]);
  });

  it('follows a .git pointer file to the real git dir and a worktree to its common dir', () => {
    const main = path.join(s.outside, 'main.git');
    const wt = path.join(main, 'worktrees', 'ws');
    fs.mkdirSync(wt, { recursive: true });
    fs.writeFileSync(path.join(wt, 'commondir'), '../..\n');
    fs.writeFileSync(path.join(s.ws, '.git'), `gitdir: ${path.relative(s.ws, wt)}\n`);
    const p = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    expect(p.writableRoots[0]?.readOnlySubpaths).toEqual([main, wt, path.join(s.ws, '.git')].sort());
  });

  it('a symlinked protected name protects its target', () => {
    fs.mkdirSync(path.join(s.ws, 'real-agents'));
    fs.symlinkSync('real-agents', path.join(s.ws, '.agents'));
    const p = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    expect(p.writableRoots[0]?.readOnlySubpaths).toEqual([path.join(s.ws, 'real-agents')]);
  });

  it('rejects an unknown mode and a missing cwd with a useful message', () => {
    expect(() => resolveSandboxPolicy({ mode: 'workspace' as never, cwd: s.ws })).toThrow(
      /Unknown sandbox mode "workspace": use one of read-only, workspace-write, danger-full-access/,
    );
    expect(() => resolveSandboxPolicy({ mode: 'read-only', cwd: path.join(s.ws, 'gone') })).toThrow(SandboxPolicyError);
  });
});

function byDepth(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || a.localeCompare(b);
}
