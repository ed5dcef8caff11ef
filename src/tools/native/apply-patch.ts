// apply_patch: the freeform tool current Codex models call, its JSON-function form for wires and
// models without custom tools, and the interception of `apply_patch <<'EOF'` run through a shell
// tool. All three verify the whole patch first, then go through the one file-change engine.
import { resolve } from 'node:path';
import { preparePatch } from '../../patch/apply.js';
import { readTextFile as readDiskText, type ReadFileFn } from '../../patch/compute.js';
import { parsePatch } from '../../patch/parse.js';
import { detectApplyPatchInvocation, detectImplicitPatch } from '../../patch/detect.js';
import {
  APPLY_PATCH_CUSTOM_DESCRIPTION,
  APPLY_PATCH_FUNCTION_DESCRIPTION,
  APPLY_PATCH_TOOL_NAME,
  applyPatchGrammar,
} from '../../patch/grammar.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { failure } from '../router.js';

function frame(exitCode: number, startedAt: number, text: string): string {
  const seconds = Math.round((performance.now() - startedAt) / 100) / 10;
  return `Exit code: ${exitCode}\nWall time: ${seconds} seconds\nOutput:\n${text}`;
}

/**
 * The patch is verified against the files as the thread's workspace file access has them (an
 * editor's buffers): those are fetched first, since verification reads synchronously.
 */
async function workspaceReader(patchText: string, cwd: string, ctx: ToolContext): Promise<ReadFileFn | undefined> {
  const readClient = ctx.caps.readClientText;
  if (!readClient) return undefined;
  let paths: string[];
  try {
    paths = parsePatch(patchText).hunks.filter((hunk) => hunk.type !== 'add').map((hunk) => resolve(cwd, hunk.path));
  } catch {
    return undefined;
  }
  const held = new Map<string, string>();
  for (const path of paths) {
    const text = await readClient(path);
    if (text !== undefined) held.set(path, text);
  }
  return (path) => held.get(path) ?? readDiskText(path);
}

/** Verifies and applies a patch for the model; never throws. */
export async function runPatch(patchText: string, cwd: string, ctx: ToolContext): Promise<ToolResult> {
  const startedAt = performance.now();
  let edits;
  try {
    edits = preparePatch(patchText, cwd, await workspaceReader(patchText, cwd, ctx)).edits;
  } catch (error) {
    return failure(`apply_patch verification failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const outcome = await ctx.caps.applyChanges(edits);
  if (!outcome.ok) return { output: frame(1, startedAt, outcome.message), success: false };
  return { output: frame(0, startedAt, outcome.message), success: true };
}

/**
 * For shell tools: when the command is an apply_patch invocation, applies it (no process is
 * spawned) and returns the result; returns undefined for ordinary commands.
 */
export async function applyPatchThroughShell(
  command: string | readonly string[],
  cwd: string,
  ctx: ToolContext,
): Promise<ToolResult | undefined> {
  const implicit = detectImplicitPatch(command);
  if (implicit) return failure(implicit);
  const invocation = detectApplyPatchInvocation(command);
  if (!invocation) return undefined;
  const workdir = invocation.workdir ? resolve(cwd, invocation.workdir) : cwd;
  return runPatch(invocation.patch, workdir, ctx);
}

export function applyPatchFreeformTool(): ToolSpec {
  return {
    name: APPLY_PATCH_TOOL_NAME,
    description: APPLY_PATCH_CUSTOM_DESCRIPTION,
    kind: 'custom',
    format: { type: 'grammar', syntax: 'lark', definition: applyPatchGrammar() },
    parallelSafe: false,
    handle: (input, ctx) => runPatch(input as string, ctx.cwd, ctx),
  };
}

export function applyPatchJsonTool(): ToolSpec {
  return {
    name: APPLY_PATCH_TOOL_NAME,
    description: APPLY_PATCH_FUNCTION_DESCRIPTION,
    kind: 'function',
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: 'The complete patch, from *** Begin Patch to *** End Patch' } },
      required: ['input'],
      additionalProperties: false,
    },
    parallelSafe: false,
    handle: (args, ctx) => runPatch((args as { input: string }).input, ctx.cwd, ctx),
  };
}
