// Whether a read-only git command (status, log, diff, show, branch) started in a directory runs
// nothing but git. Git discovers its repository from the directory and then obeys that
// repository's config: `core.fsmonitor`, pagers, diff and filter drivers and hooks all run
// programs. So the command is "known safe" only when the repository git will find is an ordinary
// `.git` (not a directory that merely looks like a bare repository, such as one planted in a
// checkout), no config git reads names a program, no submodule would be visited (git recurses
// into them, and their `.git` lives in the work tree), and nothing of it can be rewritten by a
// sandboxed command between this check and git's start.

import fs from 'node:fs';
import path from 'node:path';
import { objectHashBytes, parseGitConfig, runsSomething, type ConfigEntry } from './git-config.js';

export interface RepoSite {
  /** The command's environment (GIT_DIR, HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL). */
  env: Readonly<Record<string, string | undefined>>;
  /** Whether a sandboxed command could write this path; without it every path counts as writable. */
  canWrite?: (absPath: string) => boolean;
}

const MAX_CONFIG_BYTES = 1 << 20;

export function gitRunsOnlyItself(cwd: string, site: RepoSite): boolean {
  try {
    return check(path.resolve(cwd), site);
  } catch {
    return false;
  }
}

function check(cwd: string, site: RepoSite): boolean {
  const writable = (p: string) => (site.canWrite ? site.canWrite(p) : true);
  // A new file could appear in a directory a command can write (e.g. a `.git` or `HEAD` planted by
  // a command running in the background), so every directory git looks at must be read-only too.
  const directoryWritable = (dir: string) => writable(path.join(dir, '.rig-write-probe'));
  if (!globalConfigsInert(site.env, writable)) return false;

  let gitDir: string | undefined;
  let entry: string | undefined;
  if (site.env['GIT_DIR']) {
    gitDir = path.resolve(cwd, site.env['GIT_DIR']);
  } else {
    for (let dir = cwd; ; dir = path.dirname(dir)) {
      const dotGit = path.join(dir, '.git');
      const stat = statOrUndefined(dotGit);
      if (stat) {
        entry = dotGit;
        if (stat.isDirectory()) gitDir = dotGit;
        else if (stat.isFile()) gitDir = gitFileTarget(dotGit, dir);
        if (gitDir === undefined) return false;
        break;
      }
      // Git takes a directory holding HEAD (or objects and refs) as a bare repository.
      if (exists(path.join(dir, 'HEAD')) || (exists(path.join(dir, 'objects')) && exists(path.join(dir, 'refs')))) return false;
      if (writable(dotGit) || directoryWritable(dir)) return false;
      if (path.dirname(dir) === dir) return true; // no repository: git fails without running anything
    }
  }
  if (!exists(path.join(gitDir, 'HEAD'))) return false;
  if (entry !== undefined && writable(entry)) return false;
  const commonFile = path.join(gitDir, 'commondir');
  const commonDir = exists(commonFile) ? path.resolve(gitDir, fs.readFileSync(commonFile, 'utf8').trim()) : gitDir;
  for (const dir of new Set([gitDir, commonDir])) {
    if (directoryWritable(dir) || directoryWritable(path.join(dir, 'hooks'))) return false;
  }
  const entries: ConfigEntry[] = [];
  for (const file of [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree')]) {
    const read = readConfig(file);
    if (read === null) return false;
    entries.push(...read);
  }
  if (entries.some(runsSomething)) return false;
  return !indexHasGitlinks(path.join(gitDir, 'index'), objectHashBytes(entries));
}

/** The user's own config files are trusted, unless a sandboxed command could have written them. */
function globalConfigsInert(env: RepoSite['env'], writable: (p: string) => boolean): boolean {
  const home = env['HOME'];
  const files: string[] = [];
  if (env['GIT_CONFIG_GLOBAL']) files.push(env['GIT_CONFIG_GLOBAL']);
  else if (home) files.push(path.join(home, '.gitconfig'), path.join(env['XDG_CONFIG_HOME'] || path.join(home, '.config'), 'git', 'config'));
  if (!env['GIT_CONFIG_NOSYSTEM']) files.push(env['GIT_CONFIG_SYSTEM'] || '/etc/gitconfig');
  return files.every((file) => !path.isAbsolute(file) || !writable(file));
}

function gitFileTarget(file: string, dir: string): string | undefined {
  const text = fs.readFileSync(file, 'utf8').slice(0, 4096);
  const target = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  return target ? path.resolve(dir, target) : undefined;
}

/** A config file's entries ([] when it does not exist), or null when it cannot be read with certainty. */
function readConfig(file: string): ConfigEntry[] | null {
  const stat = statOrUndefined(file);
  if (!stat) return [];
  if (!stat.isFile() || stat.size > MAX_CONFIG_BYTES) return null;
  return parseGitConfig(fs.readFileSync(file, 'utf8'));
}

const gitlinkCache = new Map<string, { key: string; result: boolean }>();

/** Whether the index records a submodule (mode 160000). Unreadable indexes count as having one. */
function indexHasGitlinks(indexFile: string, hashBytes: number): boolean {
  const stat = statOrUndefined(indexFile);
  if (!stat) return false;
  const key = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${hashBytes}`;
  const cached = gitlinkCache.get(indexFile);
  if (cached?.key === key) return cached.result;
  const result = scanIndex(fs.readFileSync(indexFile), hashBytes);
  if (gitlinkCache.size > 64) gitlinkCache.clear();
  gitlinkCache.set(indexFile, { key, result });
  return result;
}

const GITLINK = 0o160000;
const MODE_TYPE = 0o170000;

function scanIndex(data: Buffer, hashBytes: number): boolean {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return true;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return true;
  const count = data.readUInt32BE(8);
  let offset = 12;
  for (let n = 0; n < count; n++) {
    const start = offset;
    if (start + 40 + hashBytes + 2 > data.length) return true;
    if ((data.readUInt32BE(start + 24) & MODE_TYPE) === GITLINK) return true;
    const flags = data.readUInt16BE(start + 40 + hashBytes);
    offset = start + 40 + hashBytes + 2 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    if (version === 4) {
      // Prefix-compressed name: a varint (bytes dropped from the previous name), then the rest, NUL-terminated.
      while (offset < data.length && data[offset]! & 0x80) offset++;
      offset++;
      const end = data.indexOf(0, offset);
      if (end < 0) return true;
      offset = end + 1;
    } else {
      const end = data.indexOf(0, offset);
      if (end < 0) return true;
      // Entries are NUL-padded to a multiple of eight bytes, with at least one NUL.
      const length = end - start + 1;
      offset = start + Math.ceil(length / 8) * 8;
    }
  }
  return false;
}

function statOrUndefined(p: string): fs.Stats | undefined {
  return fs.statSync(p, { throwIfNoEntry: false });
}

function exists(p: string): boolean {
  return statOrUndefined(p) !== undefined;
}
