// A sub-agent's own git worktree (Claude Code's Agent `isolation: "worktree"`): the child starts in
// a fresh worktree of the parent's repository, on its own branch, so its edits never touch the
// parent's checkout. When its work is done, a worktree it did not change is removed; one it did
// change stays, and the caller is told where and on which branch.
import { randomBytes } from 'node:crypto';
import { AgentToolError } from '../../tools/agents/capability.js';
import { WorktreeError, createWorktree, findRepository, removeWorktree, worktreeChanges } from '../worktree/git.js';

export interface AgentWorktree {
  path: string;
  branch: string;
  baseCommit: string;
  repository: string;
}

export async function createAgentWorktree(cwd: string, segment: string): Promise<AgentWorktree> {
  const repo = await findRepository(cwd);
  if (!repo) throw new AgentToolError(`isolation "worktree" needs a git repository, and ${cwd} is not in one; leave isolation out to run the agent in the current directory`);
  const name = `agent-${segment.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40)}-${randomBytes(3).toString('hex')}`;
  try {
    const created = await createWorktree(repo.mainRoot, name);
    return { path: created.path, branch: created.branch, baseCommit: created.baseCommit, repository: repo.mainRoot };
  } catch (error) {
    if (error instanceof WorktreeError) throw new AgentToolError(`could not create the agent's worktree: ${error.message}`);
    throw error;
  }
}

export interface SettledWorktree {
  path: string;
  branch: string;
  /** False: the agent changed nothing there, and it was removed. */
  kept: boolean;
}

/** Removes the worktree when the agent left nothing in it; keeps it (and says so) otherwise, or when git cannot tell. */
export async function settleAgentWorktree(worktree: AgentWorktree): Promise<SettledWorktree> {
  const kept = { path: worktree.path, branch: worktree.branch, kept: true };
  try {
    const changes = await worktreeChanges(worktree.path, worktree.baseCommit);
    if (changes.files.length > 0 || changes.commits > 0) return kept;
    await removeWorktree(worktree.repository, worktree.path, worktree.branch);
    return { ...kept, kept: false };
  } catch {
    return kept;
  }
}
