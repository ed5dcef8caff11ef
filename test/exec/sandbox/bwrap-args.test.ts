import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildBwrapArgs,
  buildBwrapInvocation,
  claimPlaceholders,
  privilegedSockets,
} from '../../../src/exec/sandbox/bwrap.js';
import { resolveSandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import { makeScratch, noTmp, type Scratch } from './helpers.js';

let s: Scratch;
beforeEach(() => {
  s = makeScratch();
});
afterEach(() => s.remove());

const NAMESPACES = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];

describe('buildBwrapArgs', () => {
  it('read-only: read-only root, fresh /dev and /proc, no network, no capabilities', () => {
    const policy = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws });
    expect(buildBwrapArgs(policy, ['ls', '-la'], s.ws, { maskSockets: [] })).toEqual([
      '--new-session', '--die-with-parent', ...NAMESPACES, '--unshare-net',
      '--cap-drop', 'ALL', '--disable-userns',
      '--ro-bind', '/', '/', '--dev', '/dev',
      '--proc', '/proc',
      '--chdir', s.ws, '--', 'ls', '-la',
    ]);
  });

  it('read-only with network keeps the host network namespace', () => {
    const policy = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws, networkAccess: true });
    expect(buildBwrapArgs(policy, ['true'], s.ws)).not.toContain('--unshare-net');
  });

  it('workspace-write: writable binds, protected subpaths re-bound read-only, missing config dirs masked', () => {
    fs.mkdirSync(path.join(s.ws, '.git'));
    const extra = path.join(s.base, 'extra');
    fs.mkdirSync(path.join(extra, '.agents'), { recursive: true });
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, addDirs: [extra], ...noTmp });
    const invocation = buildBwrapInvocation(policy, ['make'], s.ws, { seccompFd: 3, maskSockets: [] });
    expect(invocation.args).toEqual([
      '--new-session', '--die-with-parent', ...NAMESPACES, '--unshare-net',
      '--cap-drop', 'ALL', '--disable-userns',
      '--ro-bind', '/', '/', '--dev', '/dev',
      '--bind', extra, extra,
      '--bind', s.ws, s.ws,
      '--ro-bind-try', path.join(extra, '.agents'), path.join(extra, '.agents'),
      '--ro-bind-try', path.join(s.ws, '.git'), path.join(s.ws, '.git'),
      '--ro-bind', '/dev/null', path.join(s.ws, '.rig'),
      '--ro-bind', '/dev/null', path.join(s.ws, '.codex'),
      '--proc', '/proc',
      '--seccomp', '3',
      '--chdir', s.ws, '--', 'make',
    ]);
    expect(invocation.placeholders).toEqual([path.join(s.ws, '.rig'), path.join(s.ws, '.codex')]);
  });

  it('workspace-write with /tmp, network on, a PTY, old bwrap and no procfs', () => {
    const policy = resolveSandboxPolicy({
      mode: 'workspace-write',
      cwd: s.ws,
      networkAccess: true,
      excludeTmpdirEnvVar: true,
    });
    fs.mkdirSync(path.join(s.ws, '.rig'));
    const args = buildBwrapArgs(policy, ['bash'], s.ws, {
      newSession: false,
      disableUserns: false,
      mountProc: false,
      maskSockets: [],
    });
    expect(args).toEqual([
      '--die-with-parent', ...NAMESPACES,
      '--cap-drop', 'ALL',
      '--ro-bind', '/', '/', '--dev', '/dev',
      '--bind', '/tmp', '/tmp',
      '--bind', s.ws, s.ws,
      // .rig appeared after the policy was resolved: bound read-only as it is.
      '--ro-bind-try', path.join(s.ws, '.rig'), path.join(s.ws, '.rig'),
      '--ro-bind', '/dev/null', path.join(s.ws, '.codex'),
      '--chdir', s.ws, '--', 'bash',
    ]);
  });

  it('binds the seccomp directory read-only when it lies in a writable root', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, excludeTmpdirEnvVar: true });
    const dir = path.join(s.base, 'rig-seccomp-x');
    const args = buildBwrapArgs(policy, ['true'], s.ws, { seccompFd: 3, seccompDir: dir });
    expect(args.join(' ')).toContain(`--ro-bind-try ${dir} ${dir}`);
    const outsideRoots = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    expect(buildBwrapArgs(outsideRoots, ['true'], s.ws, { seccompDir: dir }).join(' ')).not.toContain(dir);
  });

  it('placeholders are shared by concurrent runs and removed by the last one', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    const rig = path.join(s.ws, '.rig');
    const first = buildBwrapInvocation(policy, ['true'], s.ws);
    const releaseFirst = claimPlaceholders(first.placeholders);
    fs.writeFileSync(rig, ''); // what bwrap does for the mount point
    const second = buildBwrapInvocation(policy, ['true'], s.ws);
    expect(second.placeholders).toContain(rig);
    const releaseSecond = claimPlaceholders(second.placeholders);
    releaseFirst();
    expect(fs.existsSync(rig)).toBe(true);
    releaseSecond();
    releaseSecond();
    expect(fs.existsSync(rig)).toBe(false);
  });

  it('never removes a placeholder path the user filled in meanwhile', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    const release = claimPlaceholders(buildBwrapInvocation(policy, ['true'], s.ws).placeholders);
    fs.mkdirSync(path.join(s.ws, '.codex'));
    release();
    expect(fs.statSync(path.join(s.ws, '.codex')).isDirectory()).toBe(true);
  });
});

describe('protected names created after the policy was resolved', () => {
  it('a .git made by an earlier command is bound read-only in the next one', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    expect(buildBwrapArgs(policy, ['true'], s.ws).join(' ')).not.toContain('.git');
    fs.mkdirSync(path.join(s.ws, '.git'));
    const args = buildBwrapArgs(policy, ['true'], s.ws);
    expect(args.join(' ')).toContain(`--ro-bind-try ${s.ws}/.git ${s.ws}/.git`);
  });
});

describe('privileged daemon sockets', () => {
  it('existing ones are masked with /dev/null, missing ones ignored, symlinked ones by their target', () => {
    const sock = path.join(s.outside, 'docker.sock');
    fs.writeFileSync(sock, ''); // stands in for the socket; only existence matters here
    fs.symlinkSync(sock, path.join(s.outside, 'var-run-docker.sock'));
    const policy = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws });
    const args = buildBwrapArgs(policy, ['true'], s.ws, {
      maskSockets: [sock, path.join(s.outside, 'var-run-docker.sock'), path.join(s.outside, 'none.sock')],
    });
    expect(args.join(' ')).toContain(`--dev /dev --ro-bind /dev/null ${sock} --proc /proc`);
    expect(args.filter((a) => a === sock)).toHaveLength(1);
  });

  it('the default list names Docker, Podman, containerd, D-Bus and systemd sockets', () => {
    const list = privilegedSockets(1000);
    expect(list).toContain('/var/run/docker.sock');
    expect(list).toContain('/run/user/1000/bus');
    expect(list).toContain('/run/systemd/private');
  });
});
