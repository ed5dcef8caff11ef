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

/** A command for a client's terminal: the program and its arguments, not a shell string. */
export interface ClientTerminalCommand {
  command: string;
  args: string[];
  cwd: string;
  /** Upper bound of the output the client keeps (it drops the start beyond it). */
  outputByteLimit?: number;
}

export interface ClientTerminalRun {
  /** null when the command was killed by a signal (or the client could not say). */
  exitCode: number | null;
  signal: string | null;
  output: string;
  /** The client dropped the start of the output to keep within the limit. */
  truncated: boolean;
}

/**
 * Terminals a front end's client runs commands in (an editor over ACP). The client runs them
 * outside rig's sandbox, so rig hands it only commands of a thread that runs unsandboxed anyway
 * (danger-full-access), after the same exec-policy and approval decisions.
 */
export interface ClientTerminals {
  /** Runs the command to its end; `signal` kills it (the run then resolves with what it printed). */
  run(command: ClientTerminalCommand, options: { signal: AbortSignal; timeoutMs?: number }): Promise<ClientTerminalRun & { timedOut: boolean }>;
}
