// What the worktree tools may ask of the engine: move the thread into a git worktree of its
// repository, and back out of it, keeping or removing it. The core's ThreadWorktrees implements
// it per thread (src/core/worktree/); Claude Code's EnterWorktree / ExitWorktree go through it.

export interface EnterRequest {
  /** A new or existing worktree by name (under the repository's .rig/worktrees). */
  name?: string;
  /** An existing worktree of the repository by its folder. */
  path?: string;
}

export interface EnteredWorktree {
  path: string;
  branch?: string;
  /** Where the thread was before (where ExitWorktree returns to). */
  originalCwd: string;
  /** False when the worktree existed already. */
  created: boolean;
}

export interface ExitRequest {
  action: 'keep' | 'remove';
  /** With `remove`: remove even when the worktree holds uncommitted files or new commits. */
  discardChanges: boolean;
}

export interface ExitedWorktree {
  action: 'keep' | 'remove';
  path: string;
  branch?: string;
  /** Where the thread is now. */
  cwd: string;
  /** With `remove` and `discardChanges`: what was thrown away. */
  discarded?: { files: number; commits: number };
}

/** Thrown with a message meant for the model (what was wrong and what to do). */
export class WorktreeToolError extends Error {
  override readonly name = 'WorktreeToolError';
}

export interface WorktreeCapability {
  enter(request: EnterRequest, cwd: string): Promise<EnteredWorktree>;
  exit(request: ExitRequest): Promise<ExitedWorktree>;
}
