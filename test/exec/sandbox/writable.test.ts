import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSandboxPolicy, type SandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import {
  canWritePath,
  explainWriteDenied,
  resolveWriteTarget,
} from '../../../src/exec/sandbox/writable.js';
import { makeScratch, noTmp, type Scratch } from './helpers.js';

let s: Scratch;
let policy: SandboxPolicy;

beforeEach(() => {
  s = makeScratch();
  fs.mkdirSync(path.join(s.ws, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(s.ws, '.git', 'config'), '[core]\n');
  fs.mkdirSync(path.join(s.ws, 'src'));
  fs.writeFileSync(path.join(s.ws, 'src', 'a.ts'), 'a');
  policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
});
afterEach(() => s.remove());

// Joined without normalizing, so `..` reaches the code under test.
const ws = (...p: string[]): string => [s.ws, ...p].join('/');

describe('canWritePath', () => {
  it('allows existing and new files inside the workspace, including nested new directories', () => {
    expect(canWritePath(ws('src', 'a.ts'), policy)).toBe(true);
    expect(canWritePath(ws('src', 'new.ts'), policy)).toBe(true);
    expect(canWritePath(ws('deep', 'er', 'new.ts'), policy)).toBe(true);
    expect(canWritePath(ws('deep', 'x', '..', 'y.ts'), policy)).toBe(true);
  });

  it('relative paths are taken from the policy cwd', () => {
    expect(canWritePath('src/b.ts', policy)).toBe(true);
    expect(canWritePath('../outside/x', policy)).toBe(false);
  });

  it('refuses an absolute path outside the roots, and says how to allow it', () => {
    const target = path.join(s.outside, 'x.txt');
    expect(canWritePath(target, policy)).toBe(false);
    expect(explainWriteDenied(target, policy)).toBe(
      `${target} is outside the writable roots. Writable: ${s.ws}. ` +
        'Add the directory with --add-dir or sandbox_workspace_write.writable_roots, or approve the write.',
    );
    expect(canWritePath('/etc/passwd', policy)).toBe(false);
  });

  it('refuses .. escapes, also through non-existent directories', () => {
    expect(canWritePath(ws('src', '..', '..', 'outside', 'x'), policy)).toBe(false);
    expect(canWritePath(ws('nope', '..', '..', 'outside', 'x'), policy)).toBe(false);
  });

  it('follows a symlink inside the workspace that points outside', () => {
    fs.symlinkSync(s.outside, ws('out'));
    expect(canWritePath(ws('out', 'x.txt'), policy)).toBe(false);
    expect(explainWriteDenied(ws('out', 'x.txt'), policy)).toContain(`(it resolves to ${path.join(s.outside, 'x.txt')})`);
  });

  it('takes .. after a symlink physically, not lexically', () => {
    fs.mkdirSync(path.join(s.outside, 'sub'));
    fs.symlinkSync(path.join(s.outside, 'sub'), ws('link'));
    // Lexically ws/link/../x is ws/x; the kernel goes to outside/x.
    expect(canWritePath(ws('link', '..', 'x'), policy)).toBe(false);
  });

  it('follows a dangling symlink to where the file would be created', () => {
    fs.symlinkSync(path.join(s.outside, 'not-yet'), ws('dangling'));
    expect(resolveWriteTarget(ws('dangling'))).toBe(path.join(s.outside, 'not-yet'));
    expect(canWritePath(ws('dangling'), policy)).toBe(false);
  });

  it('deleting a symlink itself is judged by the link, not its target', () => {
    fs.symlinkSync(path.join(s.outside, 'x'), ws('link-file'));
    expect(canWritePath(ws('link-file'), policy, { followFinalSymlink: false })).toBe(true);
    expect(canWritePath(ws('link-file'), policy)).toBe(false);
  });

  it('refuses symlink loops', () => {
    fs.symlinkSync('loop-b', ws('loop-a'));
    fs.symlinkSync('loop-a', ws('loop-b'));
    expect(resolveWriteTarget(ws('loop-a', 'x'))).toBeUndefined();
    expect(explainWriteDenied(ws('loop-a', 'x'), policy)).toMatch(/symlink loop/);
  });

  it('protects .git (hooks, config) and names .rig/.codex/.agents even before they exist', () => {
    expect(canWritePath(ws('.git', 'hooks', 'pre-commit'), policy)).toBe(false);
    expect(canWritePath(ws('.git', 'config'), policy)).toBe(false);
    expect(canWritePath(ws('.git'), policy, { followFinalSymlink: false })).toBe(false);
    expect(canWritePath(ws('.rig', 'config.toml'), policy)).toBe(false);
    expect(canWritePath(ws('.codex', 'config.toml'), policy)).toBe(false);
    expect(canWritePath(ws('.agents', 'skills', 'x', 'SKILL.md'), policy)).toBe(false);
    expect(explainWriteDenied(ws('.git', 'config'), policy)).toBe(
      `${ws('.git', 'config')} is inside ${ws('.git')}, which stays read-only in the sandbox ` +
        '(.git, .rig, .codex, .agents are protected in every writable root). Approve the write to proceed.',
    );
    // Only the first component under a root is special.
    expect(canWritePath(ws("src", ".git", "x"), policy)).toBe(true);
  });

  it('a symlink to a protected directory does not get around it', () => {
    fs.symlinkSync(ws('.git', 'hooks'), ws('hooks'));
    expect(canWritePath(ws('hooks', 'post-checkout'), policy)).toBe(false);
  });

  it('a .git file pointing elsewhere protects the git dir it points to', () => {
    const other = makeScratch();
    try {
      const gitDir = path.join(other.ws, 'real-git');
      fs.mkdirSync(path.join(gitDir, 'hooks'), { recursive: true });
      fs.writeFileSync(path.join(other.outside, '.git'), `gitdir: ${gitDir}\n`);
      // A workspace whose root is other.outside and that also may write other.ws.
      const p = resolveSandboxPolicy({ mode: 'workspace-write', cwd: other.outside, addDirs: [other.ws], ...noTmp });
      expect(canWritePath(path.join(gitDir, 'hooks', 'pre-commit'), p)).toBe(false);
      expect(canWritePath(path.join(other.ws, 'fine.txt'), p)).toBe(true);
    } finally {
      other.remove();
    }
  });

  it('/proc/self/root and /proc/self/cwd lead to their real targets', () => {
    expect(canWritePath(`/proc/self/root${s.outside}/x`, policy)).toBe(false);
    expect(canWritePath(`/proc/self/root${s.ws}/x`, policy)).toBe(true);
    expect(canWritePath('/proc/self/fd/0', policy)).toBe(false);
  });

  it('refuses an existing file with several hard links', () => {
    fs.writeFileSync(path.join(s.outside, 'shared'), 'x');
    fs.linkSync(path.join(s.outside, 'shared'), ws('hard'));
    expect(canWritePath(ws('hard'), policy)).toBe(false);
    expect(explainWriteDenied(ws('hard'), policy)).toMatch(/has 2 hard links/);
  });

  it('read-only refuses everything; danger-full-access allows everything', () => {
    const ro = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws });
    expect(canWritePath(ws('src', 'a.ts'), ro)).toBe(false);
    expect(explainWriteDenied(ws('src', 'a.ts'), ro)).toMatch(/the sandbox is read-only/);
    const full = resolveSandboxPolicy({ mode: 'danger-full-access', cwd: s.ws });
    expect(canWritePath(ws('.git', 'config'), full)).toBe(true);
    expect(canWritePath('/etc/x', full)).toBe(true);
  });

  it('a protected path is protected through every root that contains it', () => {
    // /tmp is a root here and contains the workspace: .git stays protected anyway.
    const withTmp = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws });
    expect(withTmp.writableRoots.map((r) => r.root)).toContain('/tmp');
    expect(canWritePath(ws('.git', 'config'), withTmp)).toBe(false);
    expect(canWritePath(path.join(s.outside, 'x'), withTmp)).toBe(true);
  });
});
