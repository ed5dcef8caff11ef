// The parsed form of an apply_patch text. Paths are kept exactly as the patch spells them;
// resolving them against a working directory happens when changes are computed.

export interface AddFileHunk {
  type: 'add';
  path: string;
  /** The file's full text: every `+` line without its `+`, each ended by `\n`. */
  contents: string;
}

export interface DeleteFileHunk {
  type: 'delete';
  path: string;
}

export interface UpdateFileHunk {
  type: 'update';
  path: string;
  /** Destination of a rename (`*** Move to:`), as spelled in the patch. */
  moveTo?: string;
  chunks: UpdateChunk[];
}

export type PatchHunk = AddFileHunk | DeleteFileHunk | UpdateFileHunk;

/** One `@@` section of an Update File hunk. */
export interface UpdateChunk {
  /**
   * Lines named after `@@ ` (usually a class or function signature), sought one after the other
   * before the old lines; stacked `@@` headers narrow the position step by step.
   */
  anchors: string[];
  /** The lines the chunk replaces: context (` `) and removed (`-`) lines, in order. */
  oldLines: string[];
  /** The lines that replace them: context (` `) and added (`+`) lines, in order. */
  newLines: string[];
  /** `*** End of File` closed the chunk: the old lines must be the file's last lines. */
  isEndOfFile: boolean;
  /**
   * The prefix of every body line in order (` `, `-` or `+`), so an applier can tell context
   * lines (which keep the file's own text and line ending) from replaced ones.
   */
  ops: string;
}

export interface Patch {
  hunks: PatchHunk[];
  /** `*** Environment ID:` (only meaningful when a turn has several execution environments). */
  environmentId?: string;
}

export const PATCH_MARKERS = {
  begin: '*** Begin Patch',
  end: '*** End Patch',
  addFile: '*** Add File: ',
  deleteFile: '*** Delete File: ',
  updateFile: '*** Update File: ',
  moveTo: '*** Move to: ',
  endOfFile: '*** End of File',
  environment: '*** Environment ID: ',
  emptyAnchor: '@@',
  anchor: '@@ ',
} as const;

/** The change-set type every edit tool compiles to lives in protocol/; re-exported for patch users. */
export type { FileEdit } from '../protocol/index.js';
