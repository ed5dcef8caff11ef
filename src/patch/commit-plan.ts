// The first half of a commit (commit.ts): every edit is checked and turned into a step before
// anything on disk changes. Paths are resolved (symlinks followed to the file they name), a file an
// edit was computed against must still hold what it held, every target must be writable by the
// sandbox's rules, and the directories to create are listed. What fails here fails the whole set.
import fs from 'node:fs';
import * as path from 'node:path';
import type { FileEdit } from './types.js';

export class FileCommitError extends Error {
  override name = 'FileCommitError';
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

export interface WriteStep {
  kind: 'write';
  /** Path as the edit named it (for messages). */
  path: string;
  /** Where the bytes go: the path with symlinks resolved. */
  target: string;
  content: string;
  /** Permission bits and owner of the file being replaced, kept on the new file. */
  mode: number | undefined;
  owner: { uid: number; gid: number } | undefined;
  existed: boolean;
  dirsToCreate: string[];
  /** Name (inside the target's directory) of the staged content. */
  temp?: string;
  /** Name (inside the target's directory) the old file is kept under until the commit is done. */
  backup?: string;
  done?: boolean;
}

export interface RemoveStep {
  kind: 'remove';
  path: string;
  /** The directory entry to remove (the link itself when the path is a symlink). */
  target: string;
  backup?: string;
  done?: boolean;
}

export type Step = WriteStep | RemoveStep;

/** Every edit checked and resolved to the steps that carry it out; throws FileCommitError for the first that cannot be. */
export function planSteps(edits: readonly FileEdit[], canWrite: (abs: string) => boolean): Step[] {
  const steps: Step[] = [];
  const seen = new Set<string>();
  const claim = (name: string, resolved: string): void => {
    if (seen.has(resolved)) throw new FileCommitError(`More than one edit targets ${name}; combine them into one edit`, name);
    seen.add(resolved);
  };
  for (const edit of edits) {
    if (!path.isAbsolute(edit.path) || (edit.moveTo !== undefined && !path.isAbsolute(edit.moveTo))) {
      throw new FileCommitError(`Edit paths must be absolute, got ${edit.moveTo ?? edit.path}`, edit.path);
    }
    if (edit.kind !== 'add' && edit.kind !== 'update' && edit.kind !== 'delete') {
      throw new FileCommitError(`Unknown edit kind '${String(edit.kind)}' for ${edit.path}`, edit.path);
    }
    const source = path.resolve(edit.path);
    if (edit.kind === 'add') {
      const write = planWrite(source, requireContent(edit), canWrite);
      claim(source, write.target);
      steps.push(write);
      continue;
    }
    checkExistingFile(source, edit);
    if (edit.kind === 'delete') {
      const remove = planRemove(source, canWrite);
      claim(source, remove.target);
      steps.push(remove);
      continue;
    }
    const destination = edit.moveTo === undefined ? source : path.resolve(edit.moveTo);
    const write = planWrite(destination, requireContent(edit), canWrite);
    if (destination === source) {
      claim(source, write.target);
      steps.push(write);
      continue;
    }
    const remove = planRemove(source, canWrite);
    claim(source, remove.target);
    // A destination that is the source under another name (a symlink to it) is just a rewrite.
    if (write.target !== remove.target && write.target !== realpathOrSelf(remove.target)) {
      claim(destination, write.target);
      steps.push(write, remove);
    } else {
      steps.push(write);
    }
  }
  return steps;
}

function requireContent(edit: FileEdit): string {
  if (typeof edit.content !== 'string') {
    throw new FileCommitError(`The ${edit.kind} edit of ${edit.path} has no new content`, edit.path);
  }
  return edit.content;
}

function checkExistingFile(file: string, edit: FileEdit): void {
  const verb = edit.kind === 'delete' ? 'delete' : 'update';
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new FileCommitError(`Cannot ${verb} ${file}: ${message}`, file);
  }
  if (!stat) throw new FileCommitError(`Cannot ${verb} ${file}: it does not exist`, file);
  if (stat.isDirectory()) throw new FileCommitError(`Cannot ${verb} ${file}: it is a directory`, file);
  if (!stat.isFile()) throw new FileCommitError(`Cannot ${verb} ${file}: it is not a regular file`, file);
  if (edit.expectedContent === undefined) return;
  let current: string;
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new FileCommitError(`Cannot ${verb} ${file}: ${(error as Error).message}`, file);
  }
  if (current !== edit.expectedContent) {
    throw new FileCommitError(`${file} changed on disk after the edit was prepared; read it again and redo the edit`, file);
  }
}

function planWrite(file: string, content: string, canWrite: (abs: string) => boolean): WriteStep {
  let link: fs.Stats | undefined;
  try {
    link = fs.lstatSync(file);
  } catch {
    // Missing, or a path through a non-directory: planned as a new file, which says why it fails.
    link = undefined;
  }
  if (link) {
    let target = file;
    if (link.isSymbolicLink()) {
      try {
        target = fs.realpathSync(file);
      } catch {
        throw new FileCommitError(`Cannot write ${file}: it is a symbolic link whose target does not exist`, file);
      }
    }
    // Not a symlink: lstat said all there is to say.
    const stat = link.isSymbolicLink() ? fs.statSync(target) : link;
    if (stat.isDirectory()) throw new FileCommitError(`Cannot write ${file}: it is a directory`, file);
    if (!stat.isFile()) throw new FileCommitError(`Cannot write ${file}: it is not a regular file`, file);
    checkWritable(file, target, canWrite);
    const owner = { uid: stat.uid, gid: stat.gid };
    return { kind: 'write', path: file, target, content, mode: stat.mode & 0o7777, owner, existed: true, dirsToCreate: [] };
  }
  // A new file: resolve the nearest existing ancestor, so a symlinked directory cannot carry
  // the write somewhere the sandbox would refuse.
  const missing: string[] = [path.basename(file)];
  let ancestor = path.dirname(file);
  for (;;) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(ancestor);
    } catch {
      stat = undefined;
    }
    if (stat) {
      if (!stat.isDirectory()) {
        throw new FileCommitError(`Cannot write ${file}: ${ancestor} is not a directory`, file);
      }
      break;
    }
    const parent = path.dirname(ancestor);
    if (parent === ancestor) break;
    missing.unshift(path.basename(ancestor));
    ancestor = parent;
  }
  const realAncestor = realpathOrSelf(ancestor);
  const target = path.join(realAncestor, ...missing);
  checkWritable(file, target, canWrite);
  const dirsToCreate: string[] = [];
  let dir = realAncestor;
  for (const name of missing.slice(0, -1)) {
    dir = path.join(dir, name);
    dirsToCreate.push(dir);
  }
  return { kind: 'write', path: file, target, content, mode: undefined, owner: undefined, existed: false, dirsToCreate };
}

function planRemove(file: string, canWrite: (abs: string) => boolean): RemoveStep {
  const target = path.join(realpathOrSelf(path.dirname(file)), path.basename(file));
  checkWritable(file, target, canWrite);
  return { kind: 'remove', path: file, target };
}

function checkWritable(file: string, target: string, canWrite: (abs: string) => boolean): void {
  if (!canWrite(file)) {
    throw new FileCommitError(`Cannot write ${file}: the sandbox policy does not allow writing there`, file);
  }
  if (target !== file && !canWrite(target)) {
    throw new FileCommitError(
      `Cannot write ${file}: it resolves through a symbolic link to ${target}, where the sandbox policy does not allow writing`,
      file,
    );
  }
}

function realpathOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * `.NAME.rig-tmp-PID-HEX` / `.NAME.rig-bak-PID-HEX`: the pid lets a later session tell a dead
 * writer's leftovers (removed at start, exec/sandbox/protected-scan.ts) from a live edit's.
 */
