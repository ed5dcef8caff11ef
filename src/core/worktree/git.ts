// The git side of worktree sessions: where a repository's worktrees go, creating one on a new
// branch from HEAD, what a worktree holds that is not in the commit it started from, and removing
// it with its branch. rig runs these itself (not through the sandbox): they touch the repository's
// .git, which sandboxed commands may never write.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Where a repository's worktrees live, under its main checkout (see README: worktrees). */
export const WORKTREES_DIR = path.join('.rig', 'worktrees');

/** Claude Code's branch naming: `worktree-<name>`. */
export const BRANCH_PREFIX = 'worktree-';

const NAME_SEGMENT = /^[A-Za-z0-9._-]+$/;
const MAX_NAME_LENGTH = 64;

export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
}

/** Runs git in `cwd`; rejects with git's own message (stderr) when it fails. */
export function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
      if (error) {
        const said = stderr.toString().trim() || error.message;
        reject(new WorktreeError(`git ${args.join(' ')} failed in ${cwd}: ${said}`));
      } else {
        resolve(stdout.toString());
      }
    });
  });
}

/** Null when `name` is usable as a worktree name, else what is wrong with it. */
export function nameProblem(name: string): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name.length > MAX_NAME_LENGTH) return `the name is ${name.length} characters long; at most ${MAX_NAME_LENGTH} are allowed`;
  for (const segment of name.split('/')) {
    if (!NAME_SEGMENT.test(segment) || segment === '.' || segment === '..') {
      return `each "/"-separated part of the name may hold only letters, digits, dots, underscores and dashes (and not be "." or ".."); ${JSON.stringify(segment)} does not`;
    }
  }
  return null;
}

const ADJECTIVES = ['amber', 'brisk', 'calm', 'deft', 'eager', 'fair', 'glad', 'keen', 'lucid', 'quiet', 'swift', 'tidy'];
const NOUNS = ['otter', 'heron', 'maple', 'comet', 'delta', 'fjord', 'lark', 'pine', 'reef', 'spruce', 'tern', 'wren'];

/** A name nobody typed: two words and a few hex digits, so two sessions do not pick the same one. */
export function generatedName(): string {
  const pick = (words: string[]) => words[Math.floor(Math.random() * words.length)]!;
  return `${pick(ADJECTIVES)}-${pick(NOUNS)}-${Math.floor(Math.random() * 0xffff).toString(16).padStart(4, '0')}`;
}

export interface Repository {
  /** The main checkout's top folder (where .rig/worktrees is), even when `cwd` is in a linked worktree. */
  mainRoot: string;
  /** The top folder of the checkout `cwd` is in. */
  checkoutRoot: string;
}

/** The repository `cwd` belongs to, or undefined outside git. */
export async function findRepository(cwd: string): Promise<Repository | undefined> {
  let out: string;
  try {
    out = await git(cwd, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir']);
  } catch {
    return undefined;
  }
  const [top, common] = out.trim().split('\n');
  if (!top || !common) return undefined;
  // The common git directory of a non-bare repository is the main checkout's `.git`.
  const mainRoot = path.basename(common) === '.git' ? path.dirname(common) : top;
  return { mainRoot: fs.realpathSync(mainRoot), checkoutRoot: fs.realpathSync(top) };
}

export interface CreatedWorktree {
  path: string;
  branch: string;
  /** The commit it started from: what "unpushed work" is measured against when it is removed. */
  baseCommit: string;
  /** False when the worktree existed already and was only entered. */
  created: boolean;
}

/** The folder of worktree `name` of the repository whose main checkout is `mainRoot`. */
export function worktreePath(mainRoot: string, name: string): string {
  return path.join(mainRoot, WORKTREES_DIR, ...name.split('/'));
}

/** The worktrees git knows of for this repository, by real path, with their branch (if any). */
export async function listWorktrees(mainRoot: string): Promise<Map<string, { branch?: string; head?: string }>> {
  const out = await git(mainRoot, ['worktree', 'list', '--porcelain']);
  const found = new Map<string, { branch?: string; head?: string }>();
  let current: { branch?: string; head?: string } | undefined;
  for (const line of out.split('\n')) {
    if (line.startsWith('worktree ')) {
      current = {};
      const listed = line.slice('worktree '.length);
      found.set(realOr(listed), current);
    } else if (current && line.startsWith('branch ')) {
      current.branch = line.slice('branch '.length).replace(/^refs\/heads\//, '');
    } else if (current && line.startsWith('HEAD ')) {
      current.head = line.slice('HEAD '.length);
    }
  }
  return found;
}

/**
 * Creates worktree `name` on a new branch `worktree-<name>` from HEAD of the main checkout, or
 * returns the one already there. Keeps .rig/worktrees out of the main checkout's `git status`
 * through .git/info/exclude (local to this clone, never committed).
 */
export async function createWorktree(mainRoot: string, name: string): Promise<CreatedWorktree> {
  const dir = worktreePath(mainRoot, name);
  const branch = `${BRANCH_PREFIX}${name}`;
  if (fs.existsSync(dir)) {
    const known = (await listWorktrees(mainRoot)).get(realOr(dir));
    if (!known) {
      throw new WorktreeError(`${dir} exists but is not a git worktree of ${mainRoot}; pick another name, or move that folder away`);
    }
    const head = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    return { path: realOr(dir), branch: known.branch ?? branch, baseCommit: head, created: false };
  }
  const baseCommit = (await git(mainRoot, ['rev-parse', '--verify', 'HEAD^{commit}']).catch(() => {
    throw new WorktreeError(`the repository at ${mainRoot} has no commit yet; a worktree starts from HEAD, so commit something first`);
  })).trim();
  await excludeWorktreesDir(mainRoot);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const branchExists = await git(mainRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(() => true, () => false);
  // A branch left by a worktree that was kept and later deleted by hand is checked out again, not replaced.
  await git(mainRoot, branchExists ? ['worktree', 'add', '--quiet', dir, branch] : ['worktree', 'add', '--quiet', '-b', branch, dir, baseCommit]);
  const head = branchExists ? (await git(dir, ['rev-parse', 'HEAD'])).trim() : baseCommit;
  return { path: realOr(dir), branch, baseCommit: head, created: true };
}

async function excludeWorktreesDir(mainRoot: string): Promise<void> {
  const common = (await git(mainRoot, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  const file = path.join(common, 'info', 'exclude');
  const line = `/${WORKTREES_DIR.split(path.sep).join('/')}/`;
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // No exclude file yet: it is created.
  }
  if (text.split('\n').some((l) => l.trim() === line)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}# rig's worktrees (EnterWorktree)\n${line}\n`);
}

export interface WorktreeChanges {
  /** `git status --porcelain` lines: files changed, added or untracked. */
  files: string[];
  /** Commits on the worktree's HEAD that its starting commit does not have. */
  commits: number;
}

/** What removing the worktree would lose. Throws when git cannot tell (the caller must then refuse). */
export async function worktreeChanges(dir: string, baseCommit: string): Promise<WorktreeChanges> {
  const status = await git(dir, ['status', '--porcelain', '--untracked-files=all']);
  const files = status.split('\n').filter((line) => line.trim() !== '');
  const count = await git(dir, ['rev-list', '--count', `${baseCommit}..HEAD`]);
  return { files, commits: Number(count.trim()) || 0 };
}

/** Removes the worktree folder (with what is in it) and its branch. */
export async function removeWorktree(mainRoot: string, dir: string, branch: string | undefined): Promise<void> {
  await git(mainRoot, ['worktree', 'remove', '--force', '--force', dir]);
  if (branch) await git(mainRoot, ['branch', '-D', branch]);
  // Empty parent folders of a nested name (a/b) go too, up to .rig/worktrees itself.
  const top = path.join(mainRoot, WORKTREES_DIR);
  for (let parent = path.dirname(dir); parent.startsWith(top + path.sep); parent = path.dirname(parent)) {
    try {
      fs.rmdirSync(parent);
    } catch {
      break;
    }
  }
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
