// One thread's worktree session: which worktree it is in (if any), where it came from, and the
// moves in and out. Moving rebuilds the thread's runtime for the new directory (ThreadHandle's
// moveWorkspace), so the sandbox's writable root, approvals and file tools follow; every change is
// recorded in the rollout, so a resume lands in the worktree (or says it is gone).
import fs from 'node:fs';
import path from 'node:path';
import {
  WorktreeToolError,
  type EnterRequest,
  type EnteredWorktree,
  type ExitRequest,
  type ExitedWorktree,
  type WorktreeCapability,
} from '../../tools/worktree/capability.js';
import type { WorktreeRecord } from '../../store/index.js';
import {
  WORKTREES_DIR,
  WorktreeError,
  createWorktree,
  findRepository,
  generatedName,
  listWorktrees,
  nameProblem,
  removeWorktree,
  worktreeChanges,
  worktreePath,
  type WorktreeChanges,
} from './git.js';

export interface WorktreeSessionHost {
  /** Make `cwd` the thread's working directory (rebuilding its runtime); rejects when it cannot. */
  move(cwd: string): Promise<void>;
  /** Write the new state to the rollout (null: the thread left its worktree). */
  record(state: WorktreeRecord | null): void;
  /** True while the session's sandbox is read-only: no new checkout may be written then. */
  readOnly(): boolean;
}

const SHOWN_FILES = 20;

export class ThreadWorktrees implements WorktreeCapability {
  private busy = false;

  constructor(
    private readonly host: WorktreeSessionHost,
    private state: WorktreeRecord | undefined = undefined,
  ) {}

  /** The worktree the thread is in, if it entered one. */
  get current(): WorktreeRecord | undefined {
    return this.state;
  }

  async enter(request: EnterRequest, cwd: string): Promise<EnteredWorktree> {
    return this.exclusive(async () => {
      if (this.state && request.path === undefined) {
        throw new WorktreeToolError(
          `Already in a worktree session (${this.state.path}). Call ExitWorktree first (action "keep" or "remove"), or pass path to switch to another existing worktree.`,
        );
      }
      const repo = await findRepository(cwd);
      if (!repo) {
        throw new WorktreeToolError(`${cwd} is not inside a git repository, and worktrees need one. Work in the current directory instead, or run \`git init\` and commit first.`);
      }
      const originalCwd = this.state?.original_cwd ?? cwd;
      const target = request.path !== undefined ? await this.existing(repo.mainRoot, request.path, cwd) : await this.created(repo.mainRoot, request.name);
      if (this.state && target.path === this.state.path) throw new WorktreeToolError(`The session is already in the worktree at ${target.path}.`);
      await this.host.move(target.path);
      this.state = {
        path: target.path,
        ...(target.branch ? { branch: target.branch } : {}),
        base_commit: target.baseCommit,
        original_cwd: originalCwd,
        repository: repo.mainRoot,
      };
      this.host.record(this.state);
      return { path: target.path, ...(target.branch ? { branch: target.branch } : {}), originalCwd, created: target.created };
    });
  }

  async exit(request: ExitRequest): Promise<ExitedWorktree> {
    return this.exclusive(async () => {
      const state = this.state;
      if (!state) {
        throw new WorktreeToolError('No worktree session is active: the session is in its original directory, so there is nothing to leave. EnterWorktree starts one.');
      }
      let discarded: WorktreeChanges | undefined;
      if (request.action === 'remove' && fs.existsSync(state.path)) {
        discarded = await this.changesOrRefuse(state, request.discardChanges);
      }
      await this.host.move(this.returnTo(state));
      this.state = undefined;
      this.host.record(null);
      if (request.action === 'remove' && fs.existsSync(state.path)) {
        try {
          await removeWorktree(state.repository, state.path, state.branch);
        } catch (error) {
          throw new WorktreeToolError(`Left the worktree, but removing it failed: ${(error as Error).message}. It is still at ${state.path}; remove it with \`git worktree remove\`.`);
        }
      }
      return {
        action: request.action,
        path: state.path,
        ...(state.branch ? { branch: state.branch } : {}),
        cwd: this.returnTo(state),
        ...(discarded ? { discarded: { files: discarded.files.length, commits: discarded.commits } } : {}),
      };
    });
  }

  /** What a removal would throw away; refuses (never silently) unless told to discard it. */
  private async changesOrRefuse(state: WorktreeRecord, discard: boolean): Promise<WorktreeChanges> {
    let changes: WorktreeChanges;
    try {
      changes = await worktreeChanges(state.path, state.base_commit);
    } catch (error) {
      if (discard) return { files: [], commits: 0 };
      // Not knowing is not the same as clean: keep the user's work.
      throw new WorktreeToolError(
        `Could not tell whether the worktree at ${state.path} holds work (${(error as Error).message}), so it was not removed. Use action "keep", or pass discard_changes: true once the user agrees to lose whatever is in it.`,
      );
    }
    if (discard || (changes.files.length === 0 && changes.commits === 0)) return changes;
    const parts = [
      ...(changes.files.length > 0 ? [plural(changes.files.length, 'uncommitted file')] : []),
      ...(changes.commits > 0 ? [`${plural(changes.commits, 'commit')} not in ${state.base_commit.slice(0, 12)} (where it started)`] : []),
    ];
    const listed = changes.files.slice(0, SHOWN_FILES).join('\n');
    const more = changes.files.length > SHOWN_FILES ? `\n... and ${changes.files.length - SHOWN_FILES} more` : '';
    throw new WorktreeToolError(
      `The worktree at ${state.path} has ${parts.join(' and ')}.${listed ? `\n${listed}${more}` : ''}\n` +
        'Removing it would discard this work for good. Confirm with the user, then call ExitWorktree again with discard_changes: true, or use action "keep" to leave it on disk.',
    );
  }

  /** The original directory, or the repository when that is gone too. */
  private returnTo(state: WorktreeRecord): string {
    return fs.existsSync(state.original_cwd) ? state.original_cwd : state.repository;
  }

  private async created(mainRoot: string, name: string | undefined): Promise<{ path: string; branch?: string; baseCommit: string; created: boolean }> {
    const chosen = name ?? generatedName();
    const problem = nameProblem(chosen);
    if (problem) throw new WorktreeToolError(`Invalid worktree name ${JSON.stringify(chosen)}: ${problem}.`);
    if (this.host.readOnly() && !fs.existsSync(worktreePath(mainRoot, chosen))) {
      throw new WorktreeToolError('The session runs in the read-only sandbox, and creating a worktree writes a new checkout. Ask the user to switch to workspace-write (-s workspace-write) first, or work in the current directory.');
    }
    try {
      return await createWorktree(mainRoot, chosen);
    } catch (error) {
      if (error instanceof WorktreeError) throw new WorktreeToolError(error.message);
      throw error;
    }
  }

  private async existing(mainRoot: string, given: string, cwd: string): Promise<{ path: string; branch?: string; baseCommit: string; created: boolean }> {
    const dir = path.resolve(cwd, given);
    const top = path.join(mainRoot, WORKTREES_DIR);
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      throw new WorktreeToolError(`${dir} does not exist. Pass name to create a new worktree.`);
    }
    if (!real.startsWith(top + path.sep)) {
      throw new WorktreeToolError(`${dir} is not one of this repository's worktrees under ${top}; only those can be entered by path. Pass name to create one.`);
    }
    const known = (await listWorktrees(mainRoot)).get(real);
    if (!known) throw new WorktreeToolError(`${dir} is not a git worktree of ${mainRoot}. Pass name to create one.`);
    const head = known.head ?? '';
    return { path: real, ...(known.branch ? { branch: known.branch } : {}), baseCommit: head, created: false };
  }

  /** One move at a time: two calls in one step must not interleave their rebuilds. */
  private async exclusive<T>(body: () => Promise<T>): Promise<T> {
    if (this.busy) throw new WorktreeToolError('Another worktree change of this session is still running; call one worktree tool at a time.');
    this.busy = true;
    try {
      return await body();
    } finally {
      this.busy = false;
    }
  }
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
