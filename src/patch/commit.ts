// THE file-change engine: every edit tool of every harness ends here. A change set is applied
// all-or-nothing: every path is checked first, all new contents are staged in temp files next
// to their targets, then everything is renamed into place; any failure undoes what was done,
// so the tree is left as it was.
//
// The check decides on real paths; the writes then go through directory handles pinned for the
// whole commit (pinned-dirs.ts), so a directory swapped for a symlink after the check makes the
// commit fail instead of carrying a write (or a temp file) outside the writable roots.
//
// The file-system calls are synchronous: an edit makes ~20 of them one after the other (stat,
// read, lstat, realpath, open, write, chmod, link, rename...), and each promise-based call is a
// round trip through libuv's thread pool. On the bench's 2-core machine that was most of the
// ~7 ms an apply_patch step cost beyond the model's stream; the calls themselves take microseconds.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import * as path from 'node:path';
import type { FileEdit } from './types.js';
import { summarizeEdits, type ChangeSummary } from './summary.js';
import { undoEdits, type PriorState } from './undo.js';
import { PinError, noFollowCreateFlags, openDirectoryPins, type DirectoryPins } from './pinned-dirs.js';

export interface CommitOptions {
  /** Sandbox check; asked for the path as given and for its symlink-resolved target. */
  canWrite?: (absolutePath: string) => boolean;
  /** How paths appear in the summary (e.g. relative to the working directory). */
  displayPath?: (absolutePath: string) => string;
}

export class FileCommitError extends Error {
  override name = 'FileCommitError';
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

interface WriteStep {
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

interface RemoveStep {
  kind: 'remove';
  path: string;
  /** The directory entry to remove (the link itself when the path is a symlink). */
  target: string;
  backup?: string;
  done?: boolean;
}

type Step = WriteStep | RemoveStep;

/** A directory this commit created (removed again if the commit fails). */
interface CreatedDir {
  parent: string;
  name: string;
}

export interface CommitResult {
  summary: ChangeSummary;
  /** Edits that restore the previous state when committed (they refuse if the files changed since). */
  undo: FileEdit[];
}

/**
 * Applies `edits` atomically. Resolves with the summary; rejects with FileCommitError (and no
 * change on disk) when any edit cannot be applied.
 */
export async function commitFileEdits(edits: readonly FileEdit[], options: CommitOptions = {}): Promise<CommitResult> {
  let steps: Step[] = [];
  const createdDirs: CreatedDir[] = [];
  let prior: PriorState[] = [];
  const pins = openDirectoryPins();
  try {
    try {
      steps = planSteps(edits, options.canWrite ?? (() => true));
      prior = edits.map((edit) => ({
        source: readIfFile(edit.path),
        destination: edit.moveTo === undefined ? undefined : readIfFile(edit.moveTo),
      }));
      for (const step of steps) pinStep(step, pins, createdDirs);
      for (const step of steps) if (step.kind === 'write') stage(step, pins);
      steps.forEach((step, index) => perform(step, pins, index === steps.length - 1));
    } catch (error) {
      const problems = rollBack(steps, createdDirs, pins);
      const message = error instanceof FileCommitError ? error.message : String((error as Error).message ?? error);
      const outcome = problems.length === 0
        ? 'No files were changed.'
        : `Restoring the previous state also failed, check these paths by hand:\n${problems.join('\n')}`;
      throw new FileCommitError(`${message}\n${outcome}`, error instanceof FileCommitError ? error.path : undefined);
    }
    for (const step of steps) {
      if (!step.backup) continue;
      const { dir } = split(step.target);
      ignoreFailure(() => fs.rmSync(pins.entry(dir, step.backup as string), { force: true }));
    }
  } finally {
    pins.close();
  }
  return { summary: summarizeEdits(edits, options.displayPath), undo: undoEdits(edits, prior) };
}

function ignoreFailure(action: () => void): void {
  try {
    action();
  } catch {
    // Best effort: what is left behind is named so a later session removes it.
  }
}

function readIfFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function planSteps(edits: readonly FileEdit[], canWrite: (abs: string) => boolean): Step[] {
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
    const stat = fs.statSync(target);
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
export function siblingName(name: string, purpose: 'tmp' | 'bak'): string {
  return `.${name}.rig-${purpose}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Directory and name of a real path (the directory is what gets pinned). */
function split(target: string): { dir: string; name: string } {
  return { dir: path.dirname(target), name: path.basename(target) };
}

function changedError(step: Step, error: unknown): FileCommitError {
  const detail = error instanceof PinError ? error.message : (error as Error).message;
  return new FileCommitError(`Cannot write ${step.path}: ${detail}; nothing was written there`, step.path);
}

/** Pins the directories of a step and checks the entry is still what the plan saw. */
function pinStep(step: Step, pins: DirectoryPins, createdDirs: CreatedDir[]): void {
  try {
    if (step.kind === 'write') {
      for (const dir of step.dirsToCreate) {
        const { dir: parent, name } = split(dir);
        if (pins.mkdir(parent, name)) createdDirs.push({ parent, name });
      }
    }
    const { dir, name } = split(step.target);
    pins.pin(dir);
    const now = lstatOrUndefined(pins.entry(dir, name));
    if (step.kind === 'remove') {
      if (now === undefined) throw new Error(`${step.target} disappeared`);
      if (now.isDirectory()) throw new Error(`${step.target} became a directory`);
      return;
    }
    if (step.existed) {
      if (now === undefined || !now.isFile()) throw new Error(`${step.target} is no longer a regular file`);
      // The file as it is now (not as planned) decides the bits the new content keeps.
      step.mode = now.mode & 0o7777;
      step.owner = { uid: now.uid, gid: now.gid };
    } else if (now !== undefined) {
      throw new Error(`${step.target} appeared while the edit was being applied`);
    }
  } catch (error) {
    if (error instanceof FileCommitError) throw error;
    throw changedError(step, error);
  }
}

function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw error;
  }
}

function stage(step: WriteStep, pins: DirectoryPins): void {
  const { dir, name } = split(step.target);
  const tempName = siblingName(name, 'tmp');
  const temp = pins.entry(dir, tempName);
  let fd: number | undefined;
  try {
    // O_EXCL|O_NOFOLLOW: a name planted by someone else (a symlink included) is never written through.
    fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | noFollowCreateFlags(), step.mode ?? 0o666);
    step.temp = tempName;
    fs.writeFileSync(fd, step.content, 'utf8');
    // The process umask applies at creation; the replaced file's exact bits are restored.
    if (step.mode !== undefined) fs.fchmodSync(fd, step.mode);
    // Running as root on someone else's file must not hand the file to root.
    const { owner } = step;
    if (owner && process.getuid?.() === 0) fs.fchownSync(fd, owner.uid, owner.gid);
    fs.closeSync(fd);
    fd = undefined;
  } catch (error) {
    const open = fd;
    if (open !== undefined) ignoreFailure(() => fs.closeSync(open));
    if (step.temp !== undefined) ignoreFailure(() => fs.rmSync(temp, { force: true }));
    step.temp = undefined;
    throw new FileCommitError(`Failed to write file ${step.path}: ${(error as Error).message}`, step.path);
  }
}

/**
 * The last step keeps no backup: nothing after it can fail, so the old file is never needed again,
 * and a rename over it (or an unlink) is atomic on its own. That is one edit's whole commit, and
 * it saves the link and the unlink of a backup on every single-file edit.
 */
function perform(step: Step, pins: DirectoryPins, last: boolean): void {
  const { dir, name } = split(step.target);
  const at = (entry: string): string => pins.entry(dir, entry);
  if (step.kind === 'remove' && last) {
    try {
      fs.unlinkSync(at(name));
    } catch (error) {
      throw new FileCommitError(`Failed to delete file ${step.path}: ${(error as Error).message}`, step.path);
    }
    step.done = true;
    return;
  }
  if (step.kind === 'remove') {
    const backup = siblingName(name, 'bak');
    try {
      fs.renameSync(at(name), at(backup));
    } catch (error) {
      throw new FileCommitError(`Failed to delete file ${step.path}: ${(error as Error).message}`, step.path);
    }
    step.backup = backup;
    step.done = true;
    return;
  }
  try {
    if (step.existed && !last) {
      // Keep the old file under a second name until everything has succeeded. A hard link
      // keeps the target present the whole time; where links are unsupported, move it aside.
      const backup = siblingName(name, 'bak');
      try {
        fs.linkSync(at(name), at(backup));
      } catch {
        fs.renameSync(at(name), at(backup));
      }
      step.backup = backup;
    }
    fs.renameSync(at(step.temp as string), at(name));
    step.temp = undefined;
    step.done = true;
  } catch (error) {
    throw new FileCommitError(`Failed to write file ${step.path}: ${(error as Error).message}`, step.path);
  }
}

/**
 * Undoes performed steps newest first, through the same pinned directories; returns descriptions
 * of anything it could not restore.
 */
function rollBack(steps: readonly Step[], createdDirs: readonly CreatedDir[], pins: DirectoryPins): string[] {
  const problems: string[] = [];
  const attempt = (what: string, action: () => void): void => {
    try {
      action();
    } catch (error) {
      problems.push(`${what}: ${(error as Error).message}`);
    }
  };
  for (const step of [...steps].reverse()) {
    const { dir, name } = split(step.target);
    const at = (entry: string): string => pins.entry(dir, entry);
    if (step.kind === 'write' && step.temp) {
      const temp = step.temp;
      attempt(`remove temporary file ${path.join(dir, temp)}`, () => fs.rmSync(at(temp), { force: true }));
    }
    if (step.backup) {
      const backup = step.backup;
      attempt(`restore ${step.path} from ${path.join(dir, backup)}`, () => fs.renameSync(at(backup), at(name)));
    } else if (step.kind === 'write' && step.done && !step.existed) {
      attempt(`remove ${step.path}`, () => fs.rmSync(at(name), { force: true }));
    }
  }
  for (const { parent, name } of [...createdDirs].reverse()) {
    ignoreFailure(() => fs.rmdirSync(pins.entry(parent, name)));
  }
  return problems;
}
