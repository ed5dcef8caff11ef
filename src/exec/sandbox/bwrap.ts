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
// - Protected names that do not exist yet in the workspace (.rig, .codex, a RIG_HOME inside a
//   writable root) must not be created by the command. A bind needs a mount point, and bwrap would
//   make one on the host (a 0-byte file, left behind by a SIGKILL, that broke every later start
//   with ENOTDIR). rig creates the mount point itself as an empty directory and binds it onto
//   itself read-only. It stays after the command: removing it while another rig process's sandbox
//   still has it mounted would detach that sandbox's protection (the kernel allows rmdir of a mount
//   point in another namespace). An empty directory is harmless: git does not track it, config
//   loading finds no config.toml in it.
// - /tmp is writable only as a writable root (the real /tmp, shared with the host, as in Codex);
//   otherwise it is read-only like the rest. /dev is a fresh minimal tree, so /dev/shm is private.
// - Host UNIX sockets: the daemon sockets below are masked, and the directories where terminal
//   multiplexers and X keep their sockets get a private empty tmpfs (a `tmux -S` on the host's
//   server would run commands outside the sandbox). With the network on the seccomp filter also
//   refuses new AF_UNIX sockets (seccomp.ts), which is what reaches the abstract namespace.
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
  /** Descriptor bwrap reads the seccomp program from. */
  seccompFd?: number;
  /** Daemon sockets hidden behind /dev/null; defaults to `privilegedSockets()`. */
  maskSockets?: readonly string[];
  /** Socket directories covered by an empty tmpfs; defaults to `socketDirectories()`. */
  maskSocketDirs?: readonly string[];
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

/**
 * Directories that hold sockets of host programs a command could drive: tmux and screen servers
 * (`tmux -S <socket> run-shell` runs on the host), the X11 and ICE sockets.
 */
export function socketDirectories(uid: number = process.getuid?.() ?? 0, env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = new Set<string>([`/tmp/tmux-${uid}`, '/tmp/.X11-unix', '/tmp/.ICE-unix', '/tmp/.XIM-unix', '/tmp/.font-unix', '/tmp/screens', '/run/screen', `/run/user/${uid}/tmux-${uid}`]);
  const tmuxTmp = env['TMUX_TMPDIR'];
  if (tmuxTmp && path.isAbsolute(tmuxTmp)) dirs.add(path.join(tmuxTmp, `tmux-${uid}`));
  // $TMUX = "<socket>,<pid>,<session>": the server this rig runs inside.
  const tmuxSocket = env['TMUX']?.split(',')[0];
  if (tmuxSocket && path.isAbsolute(tmuxSocket)) dirs.add(path.dirname(tmuxSocket));
  return [...dirs];
}

export interface BwrapMounts {
  args: string[];
  /** Empty directories rig created as mount points for missing protected names. */
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

export interface BwrapInvocation extends BwrapMounts {
  /** The arguments before `--chdir`: namespaces, mounts, filter. They do not depend on the command. */
  setup: string[];
}

/** Bind options whose next argument is a host path bwrap mounts. */
const BIND_OPTIONS = new Set(['--bind', '--bind-try', '--ro-bind', '--ro-bind-try', '--dev-bind', '--dev-bind-try']);

/** The host paths a set-up binds (sources, not destinations: the same here, but sources are what is read). */
export function boundSources(setup: readonly string[]): string[] {
  const sources: string[] = [];
  for (let i = 0; i < setup.length - 1; i++) {
    if (BIND_OPTIONS.has(setup[i]!)) sources.push(setup[i + 1]!);
  }
  return sources;
}

export function buildBwrapInvocation(
  policy: SandboxPolicy,
  command: string[],
  cwd: string,
  options: BwrapOptions = {},
): BwrapInvocation {
  const args: string[] = [];
  if (options.newSession !== false) args.push('--new-session');
  args.push('--die-with-parent');
  args.push('--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!policy.networkAccess) args.push('--unshare-net');
  args.push('--cap-drop', 'ALL');
  if (options.disableUserns !== false) args.push('--disable-userns');

  const filesystem = filesystemArgs(policy);
  filesystem.args.push(...maskArgs(options.maskSockets ?? privilegedSockets()));
  filesystem.args.push(...maskDirArgs(options.maskSocketDirs ?? socketDirectories()));
  args.push(...filesystem.args);
  if (options.mountProc !== false) args.push('--proc', '/proc');
  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd));
  const setup = args.slice();
  args.push('--chdir', cwd, '--', ...command);
  return { args, setup, placeholders: filesystem.placeholders };
}

function filesystemArgs(policy: SandboxPolicy): BwrapMounts {
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
  // `-try`: a protected path deleted since the policy was resolved is skipped, not fatal.
  for (const subpath of [...readOnly].sort()) args.push('--ro-bind-try', subpath, subpath);

  for (const root of policy.writableRoots) {
    for (const missing of root.missingProtected) {
      if (readOnly.has(missing)) continue;
      if (!ensureEmptyMountPoint(missing)) {
        // Created by the user since the policy was resolved (a file): keep it read-only as it is.
        if (exists(missing)) args.push('--ro-bind-try', missing, missing);
        continue;
      }
      args.push('--ro-bind', missing, missing);
      placeholders.push(missing);
    }
  }
  return { args, placeholders };
}

/**
 * Makes `dir` exist as a directory (an empty one when rig creates it). False when it cannot be
 * created (a read-only checkout: then the command cannot create it either) or when something
 * other than a directory is there now (a file the user created since: bound read-only as it is).
 */
function ensureEmptyMountPoint(dir: string): boolean {
  // Every command after the first finds the placeholder there: look before making it, since a
  // failed mkdir throws (an error with a stack, per command).
  const there = lstatOrUndefined(dir);
  if (there) return there.isDirectory();
  try {
    fs.mkdirSync(dir, { mode: 0o755 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  return lstatOrUndefined(dir)?.isDirectory() ?? false;
}

function maskDirArgs(dirs: readonly string[]): string[] {
  const masked = new Set<string>();
  for (const dir of dirs) {
    const real = realOrUndefined(dir);
    if (real === undefined) continue;
    try {
      if (fs.statSync(real).isDirectory()) masked.add(real);
    } catch {
      // Gone meanwhile.
    }
  }
  return [...masked].flatMap((real) => ['--tmpfs', real]);
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

// These run for every sandboxed command, on paths that mostly do not exist (the sockets and socket
// folders of programs this machine may not have): asked without throwing, a missing one costs no
// error object (~20 of them a command, ~0.2 ms).
function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function exists(p: string): boolean {
  return lstatOrUndefined(p) !== undefined;
}

function realOrUndefined(p: string): string | undefined {
  if (!exists(p)) return undefined;
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}
