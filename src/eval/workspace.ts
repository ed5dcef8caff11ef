// Each trial's own copy of the task's repository: a detached git worktree when the repository is a
// git checkout (cheap, and exactly the commit asked for). A plain folder is copied once into a
// fresh git repository, and each trial gets a worktree of that: every agent starts in a
// repository, its changes read back as a diff, and a trial costs a worktree, not a copy.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Workspace {
  dir: string;
  /** A worktree of the task's own repository, or of the copy made from its plain folder. */
  kind: 'worktree' | 'copy';
  /** The git repository the worktree belongs to. */
  sourceRepo?: string;
  /** The commit the agent started from. */
  baseCommit: string;
}

export interface WorkspaceSource {
  repo: string;
  commit?: string;
  exclude?: string[];
}

const GIT_IDENTITY = ['-c', 'user.name=rig eval', '-c', 'user.email=eval@rig.invalid', '-c', 'commit.gpgsign=false'];
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
  GIT_TERMINAL_PROMPT: '0',
};

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('git', ['-C', cwd, ...args], { env: GIT_ENV, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`git ${args.join(' ')} in ${cwd} failed: ${stderr || (error as Error).message}`);
  }
}

// git takes locks in a repository's .git while adding or removing worktrees: one at a time per repository.
const repoLocks = new Map<string, Promise<unknown>>();
function withRepoLock<T>(repo: string, work: () => Promise<T>): Promise<T> {
  const previous = repoLocks.get(repo) ?? Promise.resolve();
  const next = previous.then(work, work);
  repoLocks.set(repo, next.catch(() => undefined));
  return next;
}

const topLevels = new Map<string, string | undefined>();

/** The repository's top-level folder when `dir` is exactly a git checkout's root. */
async function gitTopLevel(dir: string): Promise<string | undefined> {
  if (topLevels.has(dir)) return topLevels.get(dir);
  let top: string | undefined;
  if (existsSync(join(dir, '.git'))) {
    try {
      top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
      if (realpathSync(top) !== realpathSync(dir)) top = undefined;
    } catch {
      top = undefined;
    }
  }
  topLevels.set(dir, top);
  return top;
}

/** A git repository made once per process from a plain folder: trials get worktrees of it. */
const bases = new Map<string, Promise<{ repo: string; commit: string }>>();

function baseRepo(source: WorkspaceSource, baseRoot: string): Promise<{ repo: string; commit: string }> {
  const id = createHash('sha256').update(JSON.stringify([source.repo, source.exclude ?? []])).digest('hex').slice(0, 16);
  const dir = join(baseRoot, id);
  let made = bases.get(dir);
  if (!made) {
    made = (async () => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dirname(dir), { recursive: true });
      const excluded = new Set((source.exclude ?? []).map((name) => join(source.repo, name)));
      cpSync(source.repo, dir, {
        recursive: true,
        filter: (path) => !excluded.has(path) && basename(path) !== '.git' && !relative(source.repo, path).split(sep).includes('node_modules'),
      });
      await git(dir, ['init', '--quiet', '--initial-branch=main']);
      await git(dir, [...GIT_IDENTITY, 'add', '-A']);
      await git(dir, [...GIT_IDENTITY, 'commit', '--quiet', '--allow-empty', '--no-verify', '-m', 'task start']);
      return { repo: dir, commit: (await git(dir, ['rev-parse', 'HEAD'])).trim() };
    })();
    bases.set(dir, made);
    made.catch(() => bases.delete(dir));
  }
  return made;
}

const commits = new Map<string, Promise<string>>();

function resolveCommit(repo: string, commit: string): Promise<string> {
  const key = `${repo}\0${commit}`;
  let resolved = commits.get(key);
  if (!resolved) {
    resolved = git(repo, ['rev-parse', '--verify', `${commit}^{commit}`]).then((out) => out.trim());
    commits.set(key, resolved);
    resolved.catch(() => commits.delete(key));
  }
  return resolved;
}

/**
 * A fresh workspace at `dir`. `baseRoot` holds the git repositories made from plain folders (one
 * per folder and process; remove it when the run ends).
 */
export async function createWorkspace(source: WorkspaceSource, dir: string, baseRoot = join(dirname(dir), '_base')): Promise<Workspace> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  const top = await gitTopLevel(source.repo);
  if (!top && source.commit) throw new Error(`${source.repo} is not the top folder of a git repository, so commit ${source.commit} cannot be checked out`);
  const from = top ? { repo: top, commit: await resolveCommit(top, source.commit ?? 'HEAD') } : await baseRepo(source, baseRoot);
  await withRepoLock(from.repo, () => git(from.repo, ['worktree', 'add', '--detach', '--quiet', dir, from.commit]));
  return { dir, kind: top ? 'worktree' : 'copy', sourceRepo: from.repo, baseCommit: from.commit };
}

/** Everything the agent changed since the start (new files included), as a git diff. */
export async function workspaceDiff(workspace: Workspace): Promise<string> {
  await git(workspace.dir, ['add', '-A']);
  return git(workspace.dir, ['diff', '--cached', '--binary', workspace.baseCommit]);
}

export async function removeWorkspace(workspace: Workspace): Promise<void> {
  if (workspace.sourceRepo) {
    const repo = workspace.sourceRepo;
    await withRepoLock(repo, async () => {
      try {
        await git(repo, ['worktree', 'remove', '--force', '--force', workspace.dir]);
      } catch {
        rmSync(workspace.dir, { recursive: true, force: true });
        await git(repo, ['worktree', 'prune']).catch(() => undefined);
      }
    });
  }
  rmSync(workspace.dir, { recursive: true, force: true });
}

/** Forgets the worktrees of a killed run whose folders are gone (git keeps a note of each in .git/worktrees). */
export async function pruneWorktrees(repos: Iterable<string>): Promise<void> {
  for (const repo of new Set(repos)) {
    const top = await gitTopLevel(repo);
    if (top) await withRepoLock(top, () => git(top, ['worktree', 'prune']).catch(() => ''));
  }
}
