// What a review looks at, and the changes rig gathers for it from git before the model is asked:
// the working tree (staged, unstaged and untracked files), the changes since the merge base with a
// branch, one commit, or nothing but the person's own instructions. rig runs these git commands
// itself (fixed, read-only argv, never model-chosen); the model gets their output in its prompt.
import { execFile } from 'node:child_process';

export type ReviewTarget =
  | { type: 'uncommittedChanges' }
  | { type: 'baseBranch'; branch: string }
  | { type: 'commit'; sha: string; title?: string }
  | { type: 'custom'; instructions: string };

export interface GatheredChanges {
  /** The unified diff the review covers ('' for custom instructions). */
  diff: string;
  /** Bytes of diff left out because it was over the cap (the model is told how to see the rest). */
  omittedBytes: number;
  /** The merge base a --base review diffs against. */
  mergeBase?: string;
  /** The commit's subject, for a commit review without a title. */
  commitTitle?: string;
}

/** Diff text beyond this goes unsent: the model is told to read the rest with git itself. */
export const MAX_DIFF_BYTES = 200_000;

/** How a target reads in headings and in the TUI ("current changes", "commit abc1234: ..."). */
export function reviewHint(target: ReviewTarget): string {
  switch (target.type) {
    case 'uncommittedChanges':
      return 'uncommitted changes';
    case 'baseBranch':
      return `changes against ${target.branch}`;
    case 'commit':
      return `commit ${target.sha.slice(0, 7)}${target.title ? `: ${target.title}` : ''}`;
    case 'custom':
      return target.instructions.trim();
  }
}

/** A target's problem before anything runs (empty instructions, a blank branch), or undefined. */
export function targetProblem(target: ReviewTarget): string | undefined {
  if (target.type === 'custom' && target.instructions.trim() === '') return 'the review instructions are empty: say what to review, or use --uncommitted, --base BRANCH or --commit SHA';
  if (target.type === 'baseBranch' && target.branch.trim() === '') return 'the base branch is empty: give a branch name, e.g. --base main';
  if (target.type === 'commit' && target.sha.trim() === '') return 'the commit is empty: give a commit, e.g. --commit HEAD';
  return undefined;
}

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

function git(cwd: string, args: string[]): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'core.quotepath=off', '--no-pager', ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 127) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

async function gitOrThrow(cwd: string, args: string[], what: string): Promise<string> {
  const result = await git(cwd, args);
  if (result.code !== 0) {
    const why = result.stderr.trim().split('\n')[0] || `git exited with ${result.code}`;
    throw new Error(`${what}: ${why}`);
  }
  return result.stdout;
}

async function assertGitRepository(cwd: string): Promise<void> {
  const inside = await git(cwd, ['rev-parse', '--is-inside-work-tree']);
  if (inside.code === 127) throw new Error('git is not installed (or not on PATH): a review of git changes needs it');
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') {
    throw new Error(`${cwd} is not inside a git repository: --uncommitted, --base and --commit review git changes; run rig review from a repository, or give review instructions instead`);
  }
}

/** The diff a target covers, gathered with git in `cwd`. Throws with what was wrong and how to fix it. */
export async function gatherChanges(cwd: string, target: ReviewTarget): Promise<GatheredChanges> {
  if (target.type === 'custom') return { diff: '', omittedBytes: 0 };
  await assertGitRepository(cwd);
  if (target.type === 'uncommittedChanges') return capped(await uncommittedDiff(cwd));
  if (target.type === 'baseBranch') {
    const base = await mergeBase(cwd, target.branch);
    // Against the working tree, as Codex's reviewer looks: what would be merged if committed now.
    const diff = await gitOrThrow(cwd, ['diff', '--no-color', '--no-ext-diff', base], `git diff ${base.slice(0, 12)}`);
    return { ...capped(diff), mergeBase: base };
  }
  const resolved = await git(cwd, ['rev-parse', '--verify', '--quiet', `${target.sha}^{commit}`]);
  if (resolved.code !== 0) throw new Error(`commit ${target.sha} is not in this repository (${cwd}): give a commit id or ref that \`git show\` knows`);
  const sha = resolved.stdout.trim();
  const diff = await gitOrThrow(cwd, ['show', '--no-color', '--no-ext-diff', '--format=commit %H%nAuthor: %an <%ae>%n%n%w(0,4,4)%B', sha], `git show ${target.sha}`);
  const subject = (await gitOrThrow(cwd, ['log', '-1', '--format=%s', sha], `git log ${target.sha}`)).trim();
  return { ...capped(diff), ...(subject ? { commitTitle: subject } : {}) };
}

async function uncommittedDiff(cwd: string): Promise<string> {
  const hasHead = (await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD'])).code === 0;
  // Staged and unstaged together against HEAD; before the first commit, what is staged.
  const tracked = hasHead
    ? await gitOrThrow(cwd, ['diff', '--no-color', '--no-ext-diff', 'HEAD'], 'git diff HEAD')
    : await gitOrThrow(cwd, ['diff', '--no-color', '--no-ext-diff', '--cached'], 'git diff --cached');
  const untrackedList = await gitOrThrow(cwd, ['ls-files', '--others', '--exclude-standard', '-z'], 'git ls-files --others');
  const parts = [tracked];
  for (const file of untrackedList.split('\0').filter(Boolean)) {
    // --no-index exits 1 when the files differ, which they always do here.
    const added = await git(cwd, ['diff', '--no-color', '--no-ext-diff', '--no-index', '--', '/dev/null', file]);
    if (added.code <= 1) parts.push(added.stdout);
  }
  return parts.filter((part) => part !== '').map((part) => (part.endsWith('\n') ? part : `${part}\n`)).join('');
}

async function mergeBase(cwd: string, branch: string): Promise<string> {
  // The branch's upstream first (what a pull request would merge into), then the branch itself.
  for (const ref of [`${branch}@{upstream}`, branch]) {
    const result = await git(cwd, ['merge-base', 'HEAD', ref]);
    if (result.code === 0 && result.stdout.trim() !== '') return result.stdout.trim();
  }
  const known = await git(cwd, ['rev-parse', '--verify', '--quiet', `${branch}^{commit}`]);
  if (known.code !== 0) throw new Error(`branch ${branch} is not in this repository (${cwd}): give a branch that \`git branch -a\` lists`);
  throw new Error(`HEAD and ${branch} have no common ancestor in ${cwd}: a --base review diffs against their merge base`);
}

function capped(diff: string): GatheredChanges {
  const bytes = Buffer.byteLength(diff);
  if (bytes <= MAX_DIFF_BYTES) return { diff, omittedBytes: 0 };
  // Cut at a line boundary inside the cap; the prompt says how much is missing.
  const head = Buffer.from(diff).subarray(0, MAX_DIFF_BYTES).toString('utf8');
  const cut = head.lastIndexOf('\n');
  const kept = cut > 0 ? head.slice(0, cut + 1) : head;
  return { diff: kept, omittedBytes: bytes - Buffer.byteLength(kept) };
}
