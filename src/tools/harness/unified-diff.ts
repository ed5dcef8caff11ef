// fs.apply_unified_diff: DeepSeek TUI's apply_patch takes a unified diff (`patch`, with fuzz) or
// whole-file `changes`. Both compile to one change set for the file-change engine.
import type { ResolvedTool } from '../../harness/profile.js';
import type { FileEdit, ToolSpec } from '../spec.js';
import { asArgs, boolArg, displayPath, fail, functionSpec, numberArg, ok, readTextFile, recordFileState, resolvePath, stringArg } from './common.js';

function stripPrefix(name: string | undefined): string | undefined {
  if (!name || name === '/dev/null') return undefined;
  return name.replace(/^[ab]\//, '');
}

export function createUnifiedDiffTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Apply a unified diff.', parameters: { type: 'object', properties: { patch: { type: 'string' } } }, parallelSafe: false },
    async (args, ctx) => {
      const edits: FileEdit[] = [];
      const changes = Array.isArray(args['changes']) ? args['changes'].map(asArgs) : [];
      for (const [index, change] of changes.entries()) {
        const path = stringArg(change, 'path');
        const content = stringArg(change, 'content');
        if (!path || content === undefined) return fail(`apply_patch failed: changes[${index}] needs path and content`);
        const absolute = resolvePath(ctx, path);
        const current = readTextFile(absolute);
        edits.push(current.kind === 'text' ? { path: absolute, kind: 'update', content, expectedContent: current.content } : { path: absolute, kind: 'add', content });
      }
      const patchText = stringArg(args, 'patch');
      if (patchText) {
        const fuzzFactor = Math.max(Math.trunc(numberArg(args, 'fuzz') ?? 0), 0);
        const createIfMissing = boolArg(args, 'create_if_missing') ?? true;
        const { applyPatch, parsePatch } = await import('diff');
        const patches = parsePatch(patchText);
        if (patches.length === 0 || patches.every((p) => p.hunks.length === 0)) return fail('apply_patch failed: no hunks found in patch');
        for (const [index, filePatch] of patches.entries()) {
          const name = stringArg(args, 'path') ?? stripPrefix(filePatch.newFileName) ?? stripPrefix(filePatch.oldFileName);
          if (!name) return fail(`apply_patch failed: file ${index + 1} of the patch names no path; pass path`);
          const absolute = resolvePath(ctx, name);
          const current = readTextFile(absolute);
          if (current.kind !== 'text' && current.kind !== 'missing') return fail(`apply_patch failed: ${name} is not a text file`);
          if (current.kind === 'missing' && !createIfMissing) return fail(`apply_patch failed: ${name} does not exist`);
          const before = current.kind === 'text' ? current.content : '';
          const after = applyPatch(before, filePatch, { fuzzFactor });
          if (after === false) {
            return fail(`apply_patch failed: hunks for ${displayPath(ctx, absolute)} do not match the file; read it again and regenerate the patch, or raise fuzz`);
          }
          edits.push(current.kind === 'text' ? { path: absolute, kind: 'update', content: after, expectedContent: before } : { path: absolute, kind: 'add', content: after });
        }
      }
      if (edits.length === 0) return fail('apply_patch failed: give patch or changes');
      const outcome = await ctx.caps.applyChanges(edits);
      if (!outcome.ok) return fail(`apply_patch failed: ${outcome.message}`);
      for (const edit of edits) if (edit.content !== undefined) recordFileState(ctx, edit.path, edit.content);
      return ok(`Applied changes to ${edits.length} file(s): ${edits.map((edit) => displayPath(ctx, edit.path)).join(', ')}`);
    },
  );
}
