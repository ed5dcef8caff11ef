// The shapes of checkpoints: what a file was (absent, a file with its bytes, a symlink), one turn's
// record of every file it changed (first state before, last state after), and restore plans.

/** Where bytes live: a pack file of the store, at an offset. */
export interface BlobRef {
  pack: string;
  offset: number;
  length: number;
  sha256: string;
}

export type StoredState =
  | { kind: 'absent' }
  | { kind: 'file'; blob: BlobRef; mode: number }
  | { kind: 'symlink'; target: string }
  /** A file rig could not keep (too large, unreadable): its turn can be undone except for it. */
  | { kind: 'unknown'; reason: string };

/** A state with its bytes at hand (what the tracker and edit tools hand over). */
export type FileContent =
  | { kind: 'absent' }
  | { kind: 'file'; data: Buffer; mode: number }
  | { kind: 'symlink'; target: string }
  | { kind: 'unknown'; reason: string };

export interface FileChange {
  /** Absolute path. */
  path: string;
  before: FileContent;
  after: FileContent;
}

export interface CheckpointFile {
  path: string;
  before: StoredState;
  after: StoredState;
}

export interface TurnCheckpoint {
  /** Order of turns in this store (1, 2, ...). */
  seq: number;
  turnId: string;
  startedAt: string;
  finishedAt: string;
  files: CheckpointFile[];
  /** Folders the turn created (removed again on undo when left empty). */
  createdDirs: string[];
  /** Bytes of its pack. */
  bytes: number;
  /** Undone by a restore (its files were put back). */
  undone?: boolean;
  /** Its content was pruned to keep the store under its size limit: it can no longer be undone. */
  pruned?: boolean;
}

export type RestoreAction = 'restore' | 'delete' | 'recreate' | 'unchanged';

export interface PlannedFile {
  path: string;
  /** restore: put the old content back; delete: the turns created it; recreate: the turns deleted it. */
  action: RestoreAction;
  /** Set when the file is not as the last of these turns left it (someone changed it since). */
  conflict?: string;
  /** Set when the old content is not kept (too large when the turn ran): left as it is. */
  unrestorable?: string;
  /** A unified diff from the file as it is now to what the restore writes (text files only). */
  diff?: string;
}

export interface RestorePlan {
  /** The turns undone, newest first. */
  turns: { seq: number; turnId: string }[];
  files: PlannedFile[];
  conflicts: PlannedFile[];
}

export interface RestoreResult {
  restored: string[];
  /** Conflicting files left as they are (not in `force`). */
  skipped: string[];
  /** Files whose old content was not kept. */
  unrestorable: string[];
}
