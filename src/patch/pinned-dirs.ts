// Directory handles held for the whole of one commit, so the kernel (not a check made earlier)
// decides where bytes land. A path checked against the writable roots can be redirected a moment
// later by a sandboxed command that swaps a directory for a symlink (renameat2 RENAME_EXCHANGE in
// a loop); every name the commit creates, renames or removes is therefore reached through a
// directory object that was opened component by component with O_NOFOLLOW.
//
// Linux: Node has no openat(), but `/proc/self/fd/<fd>/<name>` resolves `<fd>` to the directory
// object the descriptor holds (a "magic link": no path is walked again), then looks `<name>` up
// inside it. Each component is opened that way from the previous one with
// O_PATH|O_DIRECTORY|O_NOFOLLOW, so a symlink anywhere in the path fails the open (ENOTDIR) instead
// of being followed, and a directory renamed after it was opened keeps receiving the writes
// wherever it now lives (still inside the sandbox's writable mounts, since that is where a
// sandboxed command can move it). O_PATH needs only search permission on the directory.
//
// Elsewhere (macOS, or Linux without /proc): names are reached by path and each directory is
// verified with lstat before use; on macOS new files are created with O_NOFOLLOW_ANY, which makes
// the kernel refuse a symlink in any component of the path. A swap between that check and a
// rename remains possible there; `directoryPinning()` says which mode is in use (rig doctor).
import fs from 'node:fs';
import path from 'node:path';

/** O_PATH (Linux, all architectures Node supports). Not exported by fs.constants. */
const O_PATH = 0o10000000;
/** macOS 11+: fail if any component of the path is a symbolic link. */
const O_NOFOLLOW_ANY = 0x20000000;

export type PinningMode = 'proc-fd' | 'path';

let detected: PinningMode | undefined;

/** How this process pins directories: kernel-held handles, or checked paths (weaker). */
export function directoryPinning(): PinningMode {
  if (detected !== undefined) return detected;
  detected = 'path';
  if (process.platform !== 'linux') return detected;
  let root: number | undefined;
  try {
    root = fs.openSync('/', O_PATH | fs.constants.O_DIRECTORY);
    if (fs.statSync(`/proc/self/fd/${root}/`).isDirectory()) detected = 'proc-fd';
  } catch {
    // No procfs (or O_PATH refused): fall back to checked paths.
  } finally {
    if (root !== undefined) fs.closeSync(root);
  }
  return detected;
}

/** Extra open(2) flags for creating a file whose path must contain no symlink. */
export function noFollowCreateFlags(): number {
  const base = fs.constants.O_NOFOLLOW;
  return directoryPinning() === 'path' && process.platform === 'darwin' ? base | O_NOFOLLOW_ANY : base;
}

export class PinError extends Error {
  override name = 'PinError';
  constructor(
    message: string,
    readonly dir: string,
  ) {
    super(message);
  }
}

export interface DirectoryPins {
  readonly mode: PinningMode;
  /** Opens (once) the directory at the real path `dir`, refusing a symlink in any component. */
  pin(dir: string): void;
  /** Creates directory `name` inside pinned `parent` and pins it; false if it already existed (then pinned too). */
  mkdir(parent: string, name: string): boolean;
  /** The path that reaches `name` inside the pinned directory `dir` (pin it first). */
  entry(dir: string, name: string): string;
  close(): void;
}

export function openDirectoryPins(): DirectoryPins {
  return directoryPinning() === 'proc-fd' ? new ProcFdPins() : new CheckedPathPins();
}

function components(dir: string): string[] {
  return dir.split('/').filter((part) => part !== '');
}

function pinFailure(dir: string, error: unknown): PinError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOTDIR' || code === 'ELOOP'
      ? 'a symbolic link or a file replaced one of its directories'
      : code === 'ENOENT'
        ? 'one of its directories disappeared'
        : (error as Error).message;
  return new PinError(`${dir} changed while the edit was being applied (${why})`, dir);
}

class ProcFdPins implements DirectoryPins {
  readonly mode = 'proc-fd' as const;
  private readonly held = new Map<string, number>();

  pin(dir: string): void {
    if (this.held.has(dir)) return;
    const parts = components(dir);
    // Start from the deepest directory already held on the way down.
    let depth = parts.length;
    let fd: number | undefined;
    for (; depth > 0; depth--) {
      fd = this.held.get('/' + parts.slice(0, depth).join('/'));
      if (fd !== undefined) break;
    }
    const transient: number[] = [];
    try {
      if (fd === undefined) {
        fd = this.held.get('/') ?? fs.openSync('/', O_PATH | fs.constants.O_DIRECTORY);
        if (!this.held.has('/')) this.held.set('/', fd);
      }
      for (let i = depth; i < parts.length; i++) {
        const next = this.openChild(fd, parts[i] as string, dir);
        if (i < parts.length - 1) transient.push(next);
        fd = next;
      }
      this.held.set(dir, fd);
    } finally {
      for (const t of transient) fs.closeSync(t);
    }
  }

  private openChild(parentFd: number, name: string, dir: string): number {
    try {
      return fs.openSync(`/proc/self/fd/${parentFd}/${name}`, O_PATH | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
    } catch (error) {
      throw pinFailure(dir, error);
    }
  }

  mkdir(parent: string, name: string): boolean {
    this.pin(parent);
    const child = parent === '/' ? `/${name}` : `${parent}/${name}`;
    if (this.held.has(child)) return false;
    let created = true;
    try {
      fs.mkdirSync(this.entry(parent, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      created = false;
    }
    const fd = this.openChild(this.held.get(parent) as number, name, child);
    this.held.set(child, fd);
    return created;
  }

  entry(dir: string, name: string): string {
    const fd = this.held.get(dir);
    if (fd === undefined) throw new Error(`internal: ${dir} was not pinned`);
    return `/proc/self/fd/${fd}/${name}`;
  }

  close(): void {
    for (const fd of this.held.values()) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed.
      }
    }
    this.held.clear();
  }
}

class CheckedPathPins implements DirectoryPins {
  readonly mode = 'path' as const;
  private readonly pinned = new Set<string>();

  pin(dir: string): void {
    if (this.pinned.has(dir)) return;
    let current = '';
    for (const part of components(dir)) {
      current += `/${part}`;
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(current);
      } catch (error) {
        throw pinFailure(dir, error);
      }
      if (!stat.isDirectory()) throw pinFailure(dir, Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }));
    }
    this.pinned.add(dir);
  }

  mkdir(parent: string, name: string): boolean {
    this.pin(parent);
    if (this.pinned.has(path.join(parent, name))) return false;
    let created = true;
    try {
      fs.mkdirSync(path.join(parent, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      created = false;
    }
    this.pin(path.join(parent, name));
    return created;
  }

  entry(dir: string, name: string): string {
    return path.join(dir, name);
  }

  close(): void {
    this.pinned.clear();
  }
}
