// The sandbox policy: which mode, which directories may be written, whether the network is on.
// Settings come from config (sandbox_mode, [sandbox_workspace_write], --add-dir); resolving them
// turns every root into its real path once, so backends and the in-process write check agree on
// the same concrete directories and never touch the file system again for them per command.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scanWritableRoot } from './protected-scan.js';

export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';

export const SANDBOX_MODES: readonly SandboxMode[] = ['read-only', 'workspace-write', 'danger-full-access'];

/**
 * Names that stay read-only directly under every writable root: repository metadata (hooks run
 * unsandboxed later) and agent configuration (could loosen the policy for the next session).
 */
export const PROTECTED_NAMES: readonly string[] = ['.git', '.rig', '.codex', '.agents'];

/**
 * Configuration directories that must not be created in the workspace root either, so that writing
 * a project config always needs the user's approval.
 */
export const PROTECTED_EVEN_IF_MISSING: readonly string[] = ['.rig', '.codex'];

/** The settings as configured (config keys and flags), before any path is resolved. */
export interface SandboxSettings {
  mode: SandboxMode;
  /** The working directory of the thread; always writable in workspace-write. */
  cwd: string;
  /** `--add-dir` directories (relative ones are taken from `cwd`). */
  addDirs?: string[];
  /** `sandbox_workspace_write.writable_roots`. */
  writableRoots?: string[];
  /** `sandbox_workspace_write.network_access` (also honoured in read-only, as Codex does). */
  networkAccess?: boolean;
  excludeTmpdirEnvVar?: boolean;
  excludeSlashTmp?: boolean;
  /**
   * `sandbox_workspace_write.allow_unix_sockets`: with the network on, let commands create UNIX
   * sockets (ssh-agent, D-Bus, ...). Off by default: see seccomp.ts for what that costs.
   */
  allowUnixSockets?: boolean;
  /**
   * RIG_HOME (config, rules, sessions): read-only for commands wherever it lies. Defaults to
   * $RIG_HOME, else $HOME/.rig, from `env`.
   */
  rigHome?: string;
  /** Walk the workspace for nested .rig/.codex/.agents and stale edit temp files (default true). */
  scan?: boolean;
  /** Environment used for $TMPDIR; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface WritableRoot {
  /** Real path of a directory the sandbox may write. */
  root: string;
  /** Real paths inside (or reachable from) the root that stay read-only and exist. */
  readOnlySubpaths: string[];
  /** Paths under the root that do not exist yet and must not be created from the sandbox. */
  missingProtected: string[];
}

/** A resolved policy: every path is absolute and real. Build it once per thread/turn and reuse. */
export interface SandboxPolicy {
  mode: SandboxMode;
  /** Real path of the working directory. */
  cwd: string;
  /** Shallowest first; empty for read-only and danger-full-access. */
  writableRoots: WritableRoot[];
  networkAccess: boolean;
  excludeTmpdirEnvVar: boolean;
  excludeSlashTmp: boolean;
  /** Network on: may commands create UNIX sockets? (Network off: connect() is refused anyway.) */
  allowUnixSockets: boolean;
  /** Real path of RIG_HOME when it exists. */
  rigHome?: string;
  /** Configured roots that were skipped, with why (shown by `rig doctor` and at startup). */
  warnings: string[];
  /** Facts about the start-up walk for `rig doctor` (nested config found, walk cut short, temps removed). */
  scanNotes: string[];
}

export class SandboxPolicyError extends Error {
  override name = 'SandboxPolicyError';
}

export function isSandboxMode(value: unknown): value is SandboxMode {
  return typeof value === 'string' && (SANDBOX_MODES as readonly string[]).includes(value);
}

export function resolveSandboxPolicy(settings: SandboxSettings): SandboxPolicy {
  if (!isSandboxMode(settings.mode)) {
    throw new SandboxPolicyError(
      `Unknown sandbox mode ${JSON.stringify(settings.mode)}: use one of ${SANDBOX_MODES.join(', ')} ` +
        '(sandbox_mode in config.toml or -s/--sandbox).',
    );
  }
  const cwd = realDirectory(settings.cwd);
  if (cwd === undefined) {
    throw new SandboxPolicyError(`The working directory ${settings.cwd} does not exist or is not a directory.`);
  }
  const networkAccess = settings.mode === 'danger-full-access' || settings.networkAccess === true;
  const base = {
    mode: settings.mode,
    cwd,
    networkAccess,
    excludeTmpdirEnvVar: settings.excludeTmpdirEnvVar === true,
    excludeSlashTmp: settings.excludeSlashTmp === true,
    allowUnixSockets: settings.allowUnixSockets === true,
  };
  const env = settings.env ?? process.env;
  const rigHomeSetting = settings.rigHome ?? defaultRigHome(env);
  const rigHome = realOrUndefined(rigHomeSetting);
  const withHome = rigHome === undefined ? base : { ...base, rigHome };
  if (settings.mode !== 'workspace-write') return { ...withHome, writableRoots: [], warnings: [], scanNotes: [] };

  const warnings: string[] = [];
  const candidates: Array<{ dir: string; source: string }> = [{ dir: cwd, source: 'working directory' }];
  // --add-dir is typed on a command line, so relative paths mean "from here"; config roots must be absolute.
  for (const dir of settings.addDirs ?? []) candidates.push({ dir: path.resolve(cwd, dir), source: '--add-dir' });
  for (const dir of settings.writableRoots ?? []) {
    candidates.push({ dir, source: 'sandbox_workspace_write.writable_roots' });
  }
  if (!base.excludeSlashTmp) candidates.push({ dir: '/tmp', source: '/tmp' });
  const tmpdir = env.TMPDIR;
  if (!base.excludeTmpdirEnvVar && tmpdir) candidates.push({ dir: tmpdir, source: '$TMPDIR' });

  const roots = new Set<string>();
  for (const { dir, source } of candidates) {
    if (!path.isAbsolute(dir)) {
      warnings.push(`Ignoring writable root ${JSON.stringify(dir)} from ${source}: it must be an absolute path.`);
      continue;
    }
    const real = realDirectory(dir);
    if (real === undefined) {
      // /tmp and $TMPDIR missing is unusual but not the user's mistake; stay quiet about them.
      if (source !== '/tmp' && source !== '$TMPDIR') {
        warnings.push(`Ignoring writable root ${dir} from ${source}: it does not exist or is not a directory.`);
      }
      continue;
    }
    roots.add(real);
  }
  const ordered = [...roots].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
  const writableRoots = ordered.map((root) => protectRoot(root, root === cwd));
  const scanNotes: string[] = [];
  const temporary = new Set([realOrUndefined('/tmp'), tmpdir ? realOrUndefined(tmpdir) : undefined]);
  for (const root of writableRoots) {
    // Shared temp directories are nobody's project; walking them would cost without finding config.
    if (settings.scan === false || (temporary.has(root.root) && root.root !== cwd)) continue;
    const scan = scanWritableRoot(root.root);
    root.readOnlySubpaths = [...new Set([...root.readOnlySubpaths, ...scan.protectedDirs])].sort();
    for (const dir of scan.protectedDirs) scanNotes.push(`read-only (agent config found at start): ${dir}`);
    if (scan.removedTemps.length > 0) scanNotes.push(`removed ${scan.removedTemps.length} temp file(s) of interrupted edits under ${root.root}`);
    if (scan.truncated) scanNotes.push(`walk ${scan.truncated}: agent config deeper than that is not made read-only`);
  }
  protectRigDirectory(writableRoots, rigHomeSetting, rigHome);
  const cache = compileCacheDirectory(env);
  if (cache !== undefined) protectRigDirectory(writableRoots, cache, realOrUndefined(cache));
  return { ...withHome, writableRoots, warnings, scanNotes };
}

/**
 * Where rig keeps the V8 code cache of its bundle (src/cli/boot/code-cache.ts, which exec cannot
 * import): compiled code rig runs, unsandboxed, at its next start. Its default place (`.rig` in
 * the temp directory) is covered by the protected names, but not a TMPDIR nested in a writable
 * root that is not itself one, nor a RIG_COMPILE_CACHE the user pointed somewhere writable.
 */
function compileCacheDirectory(env: NodeJS.ProcessEnv): string | undefined {
  const setting = env['RIG_COMPILE_CACHE'] ?? process.env['RIG_COMPILE_CACHE'];
  if (setting === '0') return undefined;
  return setting ? path.resolve(setting) : path.join(os.tmpdir(), '.rig');
}

/** $RIG_HOME if set, else ~/.rig (the same rule as config's resolveRigHome, which exec cannot import). */
function defaultRigHome(env: NodeJS.ProcessEnv): string {
  const fromEnv = env['RIG_HOME'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return path.resolve(fromEnv);
  return path.join(env['HOME'] || os.homedir(), '.rig');
}

/**
 * RIG_HOME inside a writable root (RIG_HOME=$(mktemp -d) puts it under /tmp) would let a command
 * rewrite the user's config and rules, and the code cache the code rig runs: bind the directory
 * read-only, or keep it from being created.
 */
function protectRigDirectory(roots: WritableRoot[], configured: string, real: string | undefined): void {
  for (const root of roots) {
    if (real !== undefined) {
      if (isWithin(real, root.root) && !root.readOnlySubpaths.includes(real)) {
        root.readOnlySubpaths = [...root.readOnlySubpaths, real].sort();
      }
      continue;
    }
    const missing = path.resolve(configured);
    if (isWithin(missing, root.root) && missing !== root.root && !root.missingProtected.includes(missing)) {
      root.missingProtected.push(missing);
    }
  }
}

function protectRoot(root: string, isWorkspace: boolean): WritableRoot {
  const readOnly = new Set<string>();
  const missing: string[] = [];
  for (const name of PROTECTED_NAMES) {
    const entry = path.join(root, name);
    if (isWorkspace && PROTECTED_EVEN_IF_MISSING.includes(name)) removeLegacyPlaceholder(entry);
    if (!lexists(entry)) {
      if (isWorkspace && PROTECTED_EVEN_IF_MISSING.includes(name)) missing.push(entry);
      continue;
    }
    // A symlink is followed: its target is what a write would reach. (The link itself can still be
    // replaced from inside the sandbox; bind mounts cannot pin a symlink.) A dangling symlink has
    // nothing to bind; the in-process check refuses the name itself anyway.
    const real = realOrUndefined(entry);
    if (real === undefined) continue;
    readOnly.add(real);
    if (name === '.git' && isFile(real)) {
      for (const gitDir of gitDirsFromPointer(real, root)) readOnly.add(gitDir);
    }
  }
  return { root, readOnlySubpaths: [...readOnly].sort(), missingProtected: missing };
}

/**
 * rig 0.1 mounted /dev/null on missing .rig/.codex, so bubblewrap left a 0-byte read-only file
 * there when rig was killed mid-command. Such a file holds nothing; it is replaced by nothing (the
 * mount point is created as an empty directory when a command needs it).
 */
function removeLegacyPlaceholder(entry: string): void {
  try {
    const stat = fs.lstatSync(entry);
    if (stat.isFile() && stat.size === 0 && (stat.mode & 0o222) === 0) fs.unlinkSync(entry);
  } catch {
    // Absent, or not ours to remove.
  }
}

/**
 * A `.git` file (worktrees, submodules) names the real git directory; a worktree's git directory
 * names the shared one in `commondir`. Both hold hooks and config, so both are protected.
 */
function gitDirsFromPointer(gitFile: string, baseDir: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(gitFile, 'utf8').slice(0, 4096);
  } catch {
    return [];
  }
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match?.[1]) return [];
  const gitDir = realOrUndefined(path.resolve(baseDir, match[1]));
  if (gitDir === undefined) return [];
  const dirs = [gitDir];
  try {
    const common = fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    const commonReal = common ? realOrUndefined(path.resolve(gitDir, common)) : undefined;
    if (commonReal !== undefined) dirs.push(commonReal);
  } catch {
    // Not a worktree: no shared git directory.
  }
  return dirs;
}

function lexists(p: string): boolean {
  try {
    // Without throwing for a missing path: protectedPathsCreatedSince asks this for every command.
    return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function realDirectory(dir: string): string | undefined {
  const real = realOrUndefined(dir);
  if (real === undefined) return undefined;
  try {
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function depth(p: string): number {
  return p === '/' ? 0 : p.split('/').length - 1;
}

/** Is `child` equal to or below `parent`? Both absolute and normalized. */
export function isWithin(child: string, parent: string): boolean {
  if (parent === '/') return child.startsWith('/');
  return child === parent || child.startsWith(parent + '/');
}

/**
 * Protected names that appeared under a writable root after the policy was resolved (a `git init`
 * in an earlier command), as real paths. A few lstat calls, so a policy can stay cached for a thread.
 */
export function protectedPathsCreatedSince(policy: SandboxPolicy): string[] {
  const found = new Set<string>();
  for (const root of policy.writableRoots) {
    for (const name of PROTECTED_NAMES) {
      const entry = root.root === '/' ? `/${name}` : `${root.root}/${name}`;
      if (root.readOnlySubpaths.includes(entry) || root.missingProtected.includes(entry) || !lexists(entry)) continue;
      const real = realOrUndefined(entry);
      if (real !== undefined && !root.readOnlySubpaths.includes(real)) found.add(real);
    }
  }
  return [...found];
}

/** True when commands under this policy must run inside a platform sandbox. */
export function needsSandbox(policy: SandboxPolicy): boolean {
  return policy.mode !== 'danger-full-access';
}
