// A resumed thread's worktree: it lands in the worktree it was in, unless the worktree is gone
// (removed outside rig) or the resume names another directory; then it says so and the session
// starts outside any worktree.
import fs from 'node:fs';
import path from 'node:path';
import type { WorktreeRecord } from '../../store/index.js';

export interface ResumedWorktree {
  /** Where the thread works: undefined keeps what the rollout recorded. */
  cwd?: string;
  /** The worktree session to restore. */
  state?: WorktreeRecord;
  /** The rollout must record that the thread is no longer in its worktree. */
  leave: boolean;
  warning?: string;
}

/**
 * `recorded`: the worktree the rollout ends in. `requestedCwd`: the directory the resume was told
 * to use (-C), if any. A fork copies the conversation, not the session: it works in the same
 * folder but has no worktree to leave (ExitWorktree there would pull the folder out from under the
 * thread it came from).
 */
export function resumeWorktree(recorded: WorktreeRecord | undefined, kind: 'resume' | 'fork', requestedCwd: string | undefined): ResumedWorktree {
  if (!recorded) return { leave: false };
  if (!fs.existsSync(recorded.path)) {
    const back = fs.existsSync(recorded.original_cwd) ? recorded.original_cwd : recorded.repository;
    return {
      ...(requestedCwd === undefined ? { cwd: back } : {}),
      leave: kind === 'resume',
      warning: `the worktree this thread was working in (${recorded.path}) is gone: it was removed outside rig, so the thread continues in ${requestedCwd ?? back}`,
    };
  }
  if (requestedCwd !== undefined && path.resolve(requestedCwd) !== recorded.path) {
    return {
      leave: kind === 'resume',
      warning: `the thread was working in the worktree ${recorded.path}; it continues in ${requestedCwd} as asked, and the worktree stays on disk`,
    };
  }
  return kind === 'resume' ? { state: recorded, leave: false } : { leave: false };
}
