// worktree.enter / worktree.exit: Claude Code's EnterWorktree and ExitWorktree. Entering creates
// (or reopens) a git worktree of the repository on its own branch and moves the thread there;
// leaving goes back to where the thread was, keeping the worktree or removing it. Removing
// refuses while the worktree holds work that is not in the commit it started from, unless the
// model says to discard it. Texts are rig's own; the contract follows reference/harnesses.md §5.1.
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { boolArg, fail, functionSpec, ok, stringArg } from '../harness/common.js';
import { WorktreeToolError, type WorktreeCapability } from './capability.js';

async function withWorktrees(ctx: ToolContext, toolName: string, body: (worktrees: WorktreeCapability) => Promise<ToolResult>): Promise<ToolResult> {
  const worktrees = ctx.caps.worktree;
  if (!worktrees) return fail(`${toolName}: this session cannot switch its working directory (worktree sessions are not available here)`);
  try {
    return await body(worktrees);
  } catch (error) {
    if (error instanceof WorktreeToolError) return fail(error.message);
    throw error;
  }
}

export function createEnterWorktreeTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Create a git worktree on its own branch and work in it for the rest of the session.',
      parameters: { type: 'object', properties: { name: { type: 'string' }, path: { type: 'string' } } },
      parallelSafe: false,
    },
    async (args, ctx) =>
      withWorktrees(ctx, tool.name, async (worktrees) => {
        const name = stringArg(args, 'name');
        const path = stringArg(args, 'path');
        if (name !== undefined && path !== undefined) return fail(`${tool.name}: give either name or path, not both`);
        const entered = await worktrees.enter({ ...(name !== undefined ? { name } : {}), ...(path !== undefined ? { path } : {}) }, ctx.cwd);
        const branch = entered.branch ? ` on branch ${entered.branch}` : '';
        const what = entered.created ? `Created worktree at ${entered.path}${branch}` : `Switched to the existing worktree at ${entered.path}${branch}`;
        return ok(
          `${what}. The session now works in the worktree: commands run there and relative paths resolve there; ` +
            `${entered.originalCwd} can still be read but is no longer the workspace. ` +
            'Call ExitWorktree to go back (action "keep" leaves the worktree on disk, "remove" deletes it and its branch).',
        );
      }),
  );
}

export function createExitWorktreeTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Leave the worktree entered with EnterWorktree, keeping or removing it.',
      parameters: {
        type: 'object',
        properties: { action: { type: 'string', enum: ['keep', 'remove'] }, discard_changes: { type: 'boolean' } },
        required: ['action'],
      },
      parallelSafe: false,
    },
    async (args, ctx) =>
      withWorktrees(ctx, tool.name, async (worktrees) => {
        const action = stringArg(args, 'action');
        if (action !== 'keep' && action !== 'remove') return fail(`${tool.name}: action must be "keep" or "remove"`);
        const exited = await worktrees.exit({ action, discardChanges: boolArg(args, 'discard_changes') === true });
        const branch = exited.branch ? ` on branch ${exited.branch}` : '';
        if (exited.action === 'keep') {
          return ok(`Left the worktree; it stays at ${exited.path}${branch}. The session works in ${exited.cwd} again.`);
        }
        const thrown = exited.discarded && (exited.discarded.files > 0 || exited.discarded.commits > 0)
          ? ` Discarded ${count(exited.discarded.files, 'uncommitted file')} and ${count(exited.discarded.commits, 'commit')}.`
          : '';
        return ok(`Removed the worktree at ${exited.path}${exited.branch ? ` and its branch ${exited.branch}` : ''}.${thrown} The session works in ${exited.cwd} again.`);
      }),
  );
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
