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
import { FileCommitError, planSteps, type Step, type WriteStep } from './commit-plan.js';

export { FileCommitError } from './commit-plan.js';

export interface CommitOptions {
  /** Sandbox check; asked for the path as given and for its symlink-resolved target. */
  canWrite?: (absolutePath: string) => boolean;
  /** How paths appear in the summary (e.g. relative to the working directory). */
  displayPath?: (absolutePath: string) => string;
}

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
        // planSteps has just read the file and found it to be expectedContent: no second read.
        source: edit.kind !== 'add' && edit.expectedContent !== undefined ? edit.expectedContent : readIfFile(edit.path),
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
