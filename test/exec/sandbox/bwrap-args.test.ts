import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildBwrapArgs,
  buildBwrapInvocation,
  privilegedSockets,
  socketDirectories,
} from '../../../src/exec/sandbox/bwrap.js';
import { PROTECTED_NAMES, resolveSandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import { makeScratch, noTmp, type Scratch } from './helpers.js';

let s: Scratch;
beforeEach(() => {
  s = makeScratch();
});
afterEach(() => s.remove());

/**
 * Protected names the real /tmp holds. rig keeps its code cache in /tmp/.rig and makes it at its
 * first start, which may come while this file runs: made here first, as rig makes it, so the list
 * cannot change under the test.
 */
function tmpProtected(): string[] {
  try {
    fs.mkdirSync('/tmp/.rig', { mode: 0o1777 });
    fs.chmodSync('/tmp/.rig', 0o1777);
  } catch {
    // There already (rig made it).
  }
  return PROTECTED_NAMES.map((name) => path.join('/tmp', name)).filter((entry) => fs.existsSync(entry)).sort();
}
const TMP_PROTECTED = tmpProtected();

const NAMESPACES = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];

describe('buildBwrapArgs', () => {
  it('read-only: read-only root, fresh /dev and /proc, no network, no capabilities', () => {
    const policy = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws });
    expect(buildBwrapArgs(policy, ['ls', '-la'], s.ws, { maskSockets: [], maskSocketDirs: [] })).toEqual([
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
    const invocation = buildBwrapInvocation(policy, ['make'], s.ws, { seccompFd: 3, maskSockets: [], maskSocketDirs: [] });
    expect(invocation.args).toEqual([
      '--new-session', '--die-with-parent', ...NAMESPACES, '--unshare-net',
      '--cap-drop', 'ALL', '--disable-userns',
      '--ro-bind', '/', '/', '--dev', '/dev',
      '--bind', extra, extra,
      '--bind', s.ws, s.ws,
      '--ro-bind-try', path.join(extra, '.agents'), path.join(extra, '.agents'),
      '--ro-bind-try', path.join(s.ws, '.git'), path.join(s.ws, '.git'),
      '--ro-bind', path.join(s.ws, '.rig'), path.join(s.ws, '.rig'),
      '--ro-bind', path.join(s.ws, '.codex'), path.join(s.ws, '.codex'),
      '--proc', '/proc',
      '--seccomp', '3',
      '--chdir', s.ws, '--', 'make',
    ]);
    expect(invocation.placeholders).toEqual([path.join(s.ws, '.rig'), path.join(s.ws, '.codex')]);
    // The mount points are empty directories rig made, never files bwrap makes on the host.
    for (const name of ['.rig', '.codex']) {
      expect(fs.lstatSync(path.join(s.ws, name)).isDirectory()).toBe(true);
      expect(fs.readdirSync(path.join(s.ws, name))).toEqual([]);
    }
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
      maskSocketDirs: [],
    });
    expect(args).toEqual([
      '--die-with-parent', ...NAMESPACES,
      '--cap-drop', 'ALL',
      '--ro-bind', '/', '/', '--dev', '/dev',
      '--bind', '/tmp', '/tmp',
      '--bind', s.ws, s.ws,
      ...TMP_PROTECTED.flatMap((entry) => ['--ro-bind-try', entry, entry]),
      // .rig appeared after the policy was resolved: bound read-only as it is.
      '--ro-bind', path.join(s.ws, '.rig'), path.join(s.ws, '.rig'),
      '--ro-bind', path.join(s.ws, '.codex'), path.join(s.ws, '.codex'),
      '--chdir', s.ws, '--', 'bash',
    ]);
  });

  it('a file the user made at a missing protected name is bound read-only, not replaced', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    fs.writeFileSync(path.join(s.ws, '.codex'), 'mine\n');
    const args = buildBwrapArgs(policy, ['true'], s.ws, { maskSocketDirs: [] }).join(' ');
    expect(args).toContain(`--ro-bind-try ${s.ws}/.codex ${s.ws}/.codex`);
    expect(fs.readFileSync(path.join(s.ws, '.codex'), 'utf8')).toBe('mine\n');
  });

  it('a 0-byte read-only placeholder file left by an older rig is removed when the policy is resolved', () => {
    const legacy = path.join(s.ws, '.rig');
    fs.writeFileSync(legacy, '', { mode: 0o444 });
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    expect(fs.existsSync(legacy)).toBe(false);
    expect(policy.writableRoots[0]!.missingProtected).toContain(legacy);
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
      maskSocketDirs: [],
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

describe('host socket directories', () => {
  it('existing ones get a private tmpfs, after the writable binds', () => {
    const dir = path.join(s.outside, 'tmux-1000');
    fs.mkdirSync(dir);
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    const args = buildBwrapArgs(policy, ['true'], s.ws, { maskSocketDirs: [dir, path.join(s.outside, 'missing')] });
    expect(args.indexOf('--tmpfs')).toBeGreaterThan(args.indexOf(s.ws));
    expect(args[args.indexOf('--tmpfs') + 1]).toBe(dir);
    expect(args.filter((a) => a === '--tmpfs')).toHaveLength(1);
  });

  it('the default list covers tmux (also $TMUX_TMPDIR and the $TMUX server), screen and X11', () => {
    const dirs = socketDirectories(1000, { TMUX_TMPDIR: '/srv/t', TMUX: '/srv/sock/tmux-1000/work,42,0' });
    expect(dirs).toEqual(expect.arrayContaining(['/tmp/tmux-1000', '/srv/t/tmux-1000', '/srv/sock/tmux-1000', '/tmp/.X11-unix', '/run/screen']));
  });
});
