// apply_patch end to end: parse, verify every hunk against the files, then commit the change
// set through the one file-change engine. A patch that fails anywhere changes nothing (unlike
// Codex's standalone CLI, which keeps the hunks applied before a failing one).
import * as path from 'node:path';
import type { FileChangeEntry } from '../protocol/index.js';
import { commitFileEdits } from './commit.js';
import { computeChanges, readTextFile, type ReadFileFn } from './compute.js';
import { parsePatch } from './parse.js';
import type { FileEdit, Patch } from './types.js';
import { PatchApplyError } from './update.js';

export interface PreparedPatch {
  patch: Patch;
  edits: FileEdit[];
  /** Absolute path -> path as spelled in the patch, for the summary shown to the model. */
  displayPath: (absolutePath: string) => string;
}

/**
 * Parses and verifies a patch without writing: the change set a tool handler hands to the
 * file-change engine. Throws PatchParseError or PatchApplyError.
 */
export function preparePatch(patchText: string, cwd: string, readFile: ReadFileFn = readTextFile): PreparedPatch {
  const patch = parsePatch(patchText);
  if (patch.hunks.length === 0) throw new PatchApplyError('No files were modified.');
  const edits = computeChanges(patch, readFile, cwd);
  const spelled = new Map<string, string>();
  for (const hunk of patch.hunks) {
    spelled.set(path.resolve(cwd, hunk.path), hunk.path);
    if (hunk.type === 'update' && hunk.moveTo !== undefined) spelled.set(path.resolve(cwd, hunk.moveTo), hunk.moveTo);
  }
  return { patch, edits, displayPath: (abs) => spelled.get(abs) ?? abs };
}

export interface ApplyPatchOptions {
  canWrite?: (absolutePath: string) => boolean;
  readFile?: ReadFileFn;
}

export interface ApplyPatchResult {
  /** `Success. Updated the following files:\n...` with paths as spelled in the patch. */
  summary: string;
  changes: FileChangeEntry[];
  edits: FileEdit[];
  /** Commit these to take the patch back. */
  undo: FileEdit[];
}

/**
 * Applies `patchText` with relative paths resolved against `cwd`. Rejects with
 * PatchParseError, PatchApplyError or FileCommitError; on rejection nothing was changed.
 */
export async function applyPatch(patchText: string, cwd: string, options: ApplyPatchOptions = {}): Promise<ApplyPatchResult> {
  const prepared = preparePatch(patchText, cwd, options.readFile);
  const commitOptions = options.canWrite
    ? { canWrite: options.canWrite, displayPath: prepared.displayPath }
    : { displayPath: prepared.displayPath };
  const { summary, undo } = await commitFileEdits(prepared.edits, commitOptions);
  return { summary: summary.text, changes: summary.changes, edits: prepared.edits, undo };
}
