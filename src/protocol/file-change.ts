// The one change-set type every edit tool compiles to (apply_patch, Edit/Write/MultiEdit, ...).

export interface FileEdit {
  /** Absolute path. */
  path: string;
  kind: 'add' | 'delete' | 'update';
  /** New full content for add/update. */
  content?: string;
  /** The content the edit was computed against (checked before writing; update and delete). */
  expectedContent?: string;
  /** For update with a rename. Absolute. */
  moveTo?: string;
}

/**
 * The files as a front end's client holds them (an editor over ACP, with unsaved buffers): when a
 * thread has one, edits that only write text are written through it, after the same approval and
 * sandbox checks as rig's own writes.
 */
export interface ClientFileSystem {
  /** Absent when the client offers reads only: edits are then rig's own writes. */
  writeTextFile?(path: string, content: string): Promise<void>;
  /** The file's text as the client holds it (an unsaved buffer included); absent when it offers none. */
  readTextFile?(path: string): Promise<string>;
}
