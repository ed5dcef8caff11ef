// Branch, commit and origin for the rollout meta, read from .git files directly: spawning git
// three times would cost more than the rest of thread start.
import fs from 'node:fs';
import path from 'node:path';
import type { GitInfo } from './rollout-types.js';

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The git directory for `cwd` (following `.git` files of worktrees), or undefined outside a repo. */
function findGitDir(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const candidate = path.join(dir, '.git');
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(candidate);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) return candidate;
    if (stat?.isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readText(candidate) ?? '');
      if (m) return path.resolve(dir, m[1]!.trim());
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function resolveRef(gitDir: string, commonDir: string, ref: string): string | undefined {
  for (const base of [gitDir, commonDir]) {
    const direct = readText(path.join(base, ref))?.trim();
    if (direct && /^[0-9a-f]{40,64}$/.test(direct)) return direct;
  }
  const packed = readText(path.join(commonDir, 'packed-refs'));
  if (packed) {
    for (const line of packed.split('\n')) {
      const [sha, name] = line.trim().split(' ');
      if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  }
  return undefined;
}

/** Credentials embedded in a remote URL (https://user:token@host) must never be persisted. */
export function stripUrlCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
}

function originUrl(commonDir: string): string | undefined {
  const config = readText(path.join(commonDir, 'config'));
  if (!config) return undefined;
  let inOrigin = false;
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inOrigin = /^\[remote\s+"origin"\]$/.test(line);
      continue;
    }
    if (inOrigin) {
      const m = /^url\s*=\s*(.+)$/.exec(line);
      if (m) return stripUrlCredentials(m[1]!.trim());
    }
  }
  return undefined;
}

export function readGitInfo(cwd: string): GitInfo | undefined {
  const gitDir = findGitDir(cwd);
  if (!gitDir) return undefined;
  const commonRel = readText(path.join(gitDir, 'commondir'))?.trim();
  const commonDir = commonRel ? path.resolve(gitDir, commonRel) : gitDir;
  const head = readText(path.join(gitDir, 'HEAD'))?.trim();
  const info: GitInfo = {};
  if (head?.startsWith('ref:')) {
    const ref = head.slice(4).trim();
    if (ref.startsWith('refs/heads/')) info.branch = ref.slice('refs/heads/'.length);
    const sha = resolveRef(gitDir, commonDir, ref);
    if (sha) info.commit_hash = sha;
  } else if (head && /^[0-9a-f]{40,64}$/.test(head)) {
    info.commit_hash = head;
  }
  const url = originUrl(commonDir);
  if (url) info.repository_url = url;
  return info;
}
