// bubblewrap arguments for a resolved policy. The file system is the host's, read-only; writable
// roots are bound back writable on top; protected subpaths are bound read-only on top of those.
//
// Choices worth knowing:
// - `--cap-drop ALL` always. bwrap keeps every capability when started by real root (as in many
//   containers and CI machines); with CAP_SYS_ADMIN in its namespace the command could unmount the
//   read-only `.git` bind or remount `/` writable. Measured on this machine: both escapes work
//   without the flag and fail with it.
// - `--disable-userns` when bwrap supports it (0.8+): a nested user namespace is another way to
//   regain capabilities over the sandbox's own mounts.
// - `--new-session` stops TIOCSTI injection into rig's terminal. It also detaches the command from
//   any controlling terminal, so a PTY session that needs job control asks for `newSession: false`
//   (its terminal is private to the command, so there is nothing to inject into).
// - Protected names that do not exist yet in the workspace (.rig, .codex) are covered by binding
//   /dev/null onto them. bwrap creates an empty placeholder file on the host for the mount point;
//   `claimPlaceholders` counts users per path so the caller's cleanup removes it after the last one.
// - /tmp is writable only as a writable root (the real /tmp, shared with the host, as in Codex);
//   otherwise it is read-only like the rest. /dev is a fresh minimal tree, so /dev/shm is private.
import fs from 'node:fs';
import path from 'node:path';
import { isWithin, protectedPathsCreatedSince, type SandboxPolicy } from './policy.js';

export interface BwrapOptions {
  /** `--disable-userns` (needs bwrap >= 0.8). Default true. */
  disableUserns?: boolean;
  /** `--proc /proc`. Some containers refuse a fresh procfs; detection turns this off there. */
  mountProc?: boolean;
  /** `--new-session`. Default true; false only for private PTYs. */
  newSession?: boolean;
  /** Descriptor bwrap reads the seccomp program from (network off). */
  seccompFd?: number;
  /** Directory holding the seccomp program; bound read-only when it lies inside a writable root. */
  seccompDir?: string;
  /** Daemon sockets hidden behind /dev/null; defaults to `privilegedSockets()`. */
  maskSockets?: readonly string[];
}

/**
 * UNIX sockets of daemons that grant root or control of the user's session (Docker or Podman mean
 * root on the host; systemd and D-Bus can start unsandboxed processes). A read-only mount does not
 * stop connect(), and with the network on no seccomp filter does either, so they are masked with
 * /dev/null in every sandbox. The SSH agent is deliberately left reachable (git over ssh).
 */
export function privilegedSockets(uid: number = process.getuid?.() ?? 0): string[] {
  const user = `/run/user/${uid}`;
  return [
    '/run/docker.sock',
    '/var/run/docker.sock',
    '/run/containerd/containerd.sock',
    '/run/podman/podman.sock',
    '/run/crio/crio.sock',
    '/run/dbus/system_bus_socket',
    '/run/systemd/private',
    '/run/snapd.socket',
    '/run/snapd-snap.socket',
    `${user}/bus`,
    `${user}/docker.sock`,
    `${user}/podman/podman.sock`,
    `${user}/systemd/private`,
  ];
}

export interface BwrapMounts {
  args: string[];
  /** Placeholder files bwrap will create on the host for missing protected names. */
  placeholders: string[];
}

/** The bubblewrap arguments (without the bwrap binary itself) that run `command` in `cwd`. */
export function buildBwrapArgs(
  policy: SandboxPolicy,
  command: string[],
  cwd: string,
  options: BwrapOptions = {},
): string[] {
  return buildBwrapInvocation(policy, command, cwd, options).args;
}

export function buildBwrapInvocation(
  policy: SandboxPolicy,
  command: string[],
  cwd: string,
  options: BwrapOptions = {},
): BwrapMounts {
  const args: string[] = [];
  if (options.newSession !== false) args.push('--new-session');
  args.push('--die-with-parent');
  args.push('--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!policy.networkAccess) args.push('--unshare-net');
  args.push('--cap-drop', 'ALL');
  if (options.disableUserns !== false) args.push('--disable-userns');

  const filesystem = filesystemArgs(policy, options.seccompDir);
  filesystem.args.push(...maskArgs(options.maskSockets ?? privilegedSockets()));
  args.push(...filesystem.args);
  if (options.mountProc !== false) args.push('--proc', '/proc');
  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd));
  args.push('--chdir', cwd, '--', ...command);
  return { args, placeholders: filesystem.placeholders };
}

function filesystemArgs(policy: SandboxPolicy, seccompDir: string | undefined): BwrapMounts {
  const args = policy.mode === 'danger-full-access' ? ['--bind', '/', '/'] : ['--ro-bind', '/', '/'];
  // After the root and before the writable binds, so a writable root under /dev still shows.
  args.push('--dev', '/dev');
  const placeholders: string[] = [];
  if (policy.mode !== 'workspace-write') return { args, placeholders };

  const roots = policy.writableRoots.map((r) => r.root);
  for (const root of roots) args.push('--bind', root, root);

  const insideWritable = (p: string): boolean => roots.some((root) => isWithin(p, root));
  const readOnly = new Set<string>();
  for (const root of policy.writableRoots) {
    for (const subpath of root.readOnlySubpaths) if (insideWritable(subpath)) readOnly.add(subpath);
  }
  for (const real of protectedPathsCreatedSince(policy)) if (insideWritable(real)) readOnly.add(real);
  if (seccompDir !== undefined && insideWritable(seccompDir)) readOnly.add(seccompDir);
  // `-try`: a protected path deleted since the policy was resolved is skipped, not fatal.
  for (const subpath of [...readOnly].sort()) args.push('--ro-bind-try', subpath, subpath);

  for (const root of policy.writableRoots) {
    for (const missing of root.missingProtected) {
      const shared = placeholderUsers.has(missing);
      if (!shared && exists(missing)) {
        // Created by the user since the policy was resolved.
        if (!readOnly.has(missing)) args.push('--ro-bind-try', missing, missing);
        continue;
      }
      // bwrap must create the mount point on the host; where we cannot write (a read-only checkout)
      // the command cannot create the directory either, and trying would make bwrap fail.
      if (!shared && !canCreateIn(path.dirname(missing))) continue;
      // Missing, or a concurrent run's placeholder: share it, so the last user removes it.
      args.push('--ro-bind', '/dev/null', missing);
      placeholders.push(missing);
    }
  }
  return { args, placeholders };
}

function maskArgs(sockets: readonly string[]): string[] {
  const masked = new Set<string>();
  for (const socket of sockets) {
    if (!exists(socket)) continue;
    const real = realOrUndefined(socket);
    if (real !== undefined) masked.add(real);
  }
  return [...masked].flatMap((real) => ['--ro-bind', '/dev/null', real]);
}

function canCreateIn(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

const placeholderUsers = new Map<string, number>();

/**
 * Record that a command is about to run with these placeholders; the returned function, called
 * when the command has exited, removes each placeholder nobody else in this process still uses.
 * Only an empty regular file is removed, so a file the user created meanwhile is never deleted.
 */
export function claimPlaceholders(placeholders: readonly string[]): () => void {
  for (const p of placeholders) placeholderUsers.set(p, (placeholderUsers.get(p) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const p of placeholders) {
      const users = (placeholderUsers.get(p) ?? 1) - 1;
      if (users > 0) {
        placeholderUsers.set(p, users);
        continue;
      }
      placeholderUsers.delete(p);
      try {
        const stat = fs.lstatSync(p);
        if (stat.isFile() && stat.size === 0) fs.unlinkSync(p);
      } catch {
        // Already gone.
      }
    }
  };
}
