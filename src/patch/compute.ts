// Turning a parsed patch into the engine's change set: one FileEdit per hunk with the exact
// text before and after. Pure apart from the injected reader, so every hunk is verified
// before anything is written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileEdit, Patch } from './types.js';
import { PatchApplyError, applyUpdateChunks } from './update.js';

/**
 * Reads a file's text. Returns undefined when the file does not exist; throws when it exists
 * but cannot be used as text, with the reason as message (`it is a directory`).
 */
export type ReadFileFn = (absolutePath: string) => string | undefined;

// ignoreBOM keeps a byte-order mark in the text, so rewriting the file keeps it too.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The default reader: UTF-8 text files only, so a binary file is never rewritten lossily. */
export function readTextFile(absolutePath: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'EISDIR') throw new Error('it is a directory');
    throw new Error((error as Error).message);
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new Error('it is not UTF-8 text; apply_patch only edits text files');
  }
}

export function resolvePatchPath(cwd: string, patchPath: string): string {
  return path.resolve(cwd, patchPath);
}

/**
 * Computes the full change set of `patch`, verifying every hunk. Throws PatchApplyError with
 * Codex's messages (`Failed to find expected lines in ...`) and changes nothing.
 */
export function computeChanges(patch: Patch, readFile: ReadFileFn, cwd: string): FileEdit[] {
  const edits: FileEdit[] = [];
  const targeted = new Set<string>();
  const claim = (abs: string): void => {
    if (targeted.has(abs)) {
      throw new PatchApplyError(`multiple operations target ${abs}; put all changes to one file in one hunk`, abs);
    }
    targeted.add(abs);
  };
  const read = (abs: string, failure: string): string | undefined => {
    try {
      return readFile(abs);
    } catch (error) {
      throw new PatchApplyError(`${failure}: ${(error as Error).message}`, abs);
    }
  };

  for (const hunk of patch.hunks) {
    const abs = resolvePatchPath(cwd, hunk.path);
    claim(abs);
    switch (hunk.type) {
      case 'add':
        edits.push({ path: abs, kind: 'add', content: hunk.contents });
        break;
      case 'delete': {
        const before = read(abs, `Failed to delete file ${abs}`);
        if (before === undefined) throw new PatchApplyError(`Failed to delete file ${abs}: it does not exist`, abs);
        edits.push({ path: abs, kind: 'delete', expectedContent: before });
        break;
      }
      case 'update': {
        const before = read(abs, `Failed to read file to update ${abs}`);
        if (before === undefined) {
          throw new PatchApplyError(
            `Failed to read file to update ${abs}: No such file or directory (os error 2)`,
            abs,
          );
        }
        const after = applyUpdateChunks(before, hunk.chunks, abs);
        const edit: FileEdit = { path: abs, kind: 'update', content: after, expectedContent: before };
        if (hunk.moveTo !== undefined) {
          const destination = resolvePatchPath(cwd, hunk.moveTo);
          if (destination !== abs) {
            claim(destination);
            edit.moveTo = destination;
          }
        }
        edits.push(edit);
        break;
      }
    }
  }
  return edits;
}
