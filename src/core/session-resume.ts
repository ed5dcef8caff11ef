// Finding the thread to resume or fork, and rebuilding it from its rollout. Works from the rollout
// files alone (no SQLite), so `exec resume` pays nothing for the index.
import { realpathSync } from 'node:fs';
import {
  findRolloutFile,
  readRollout,
  readRolloutMeta,
  reconstructThread,
  scanRolloutFiles,
  type ReconstructedThread,
} from '../store/index.js';

export interface ResumeTarget {
  /** Thread id or unique prefix. */
  id?: string;
  /** The most recent thread (in this directory unless `all`). */
  last?: boolean;
  all?: boolean;
}

export interface ResumedThread extends ReconstructedThread {
  path: string;
  threadId: string;
  warnings: string[];
}

function sameDir(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

export function locateRollout(home: string, target: ResumeTarget, cwd: string): { path: string; threadId: string } {
  if (target.id) {
    const found = findRolloutFile(home, target.id);
    if (!found) throw new Error(`no thread with id ${target.id} under ${home}/sessions (see \`rig sessions list --all\`)`);
    return { path: found.path, threadId: found.threadId };
  }
  const files = [...scanRolloutFiles(home).values()].filter((file) => !file.archived).sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const file of files) {
    if (target.all) return { path: file.path, threadId: file.threadId };
    const meta = readRolloutMeta(file.path);
    if (meta && sameDir(meta.cwd, cwd)) return { path: file.path, threadId: file.threadId };
  }
  throw new Error(
    target.all
      ? `no thread to resume under ${home}/sessions`
      : `no thread to resume in ${cwd}; use --all to pick the latest from any directory, or give a thread id`,
  );
}

export function loadRollout(path: string, threadId: string): ResumedThread {
  const read = readRollout(path);
  const rebuilt = reconstructThread(read.records);
  const repairs = rebuilt.repairs.length > 0 ? [`${path}: repaired the history to resume it: ${rebuilt.repairs.join('; ')}`] : [];
  return { ...rebuilt, path, threadId, warnings: [...read.warnings, ...repairs] };
}
