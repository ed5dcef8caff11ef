// Finding the thread to resume or fork, and rebuilding it from its rollout. Works from the rollout
// files alone (no SQLite), so `exec resume` pays nothing for the index.
import { realpathSync } from 'node:fs';
import {
  type RolloutRecord,
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
  records: RolloutRecord[];
  /** The number the next turn gets: one more than the highest turn_N recorded. */
  nextTurn: number;
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
  return { ...rebuilt, path, threadId, warnings: [...read.warnings, ...repairs], records: read.records, nextTurn: nextTurnNumber(read.records) };
}

/** Turn ids are turn_0, turn_1, ... per thread, continuing across resumes and forks. */
export function nextTurnNumber(records: readonly RolloutRecord[]): number {
  let next = 0;
  for (const record of records) {
    if (record.type !== 'turn_context') continue;
    const match = /^turn_(\d+)$/.exec(record.payload.turn_id ?? '');
    if (match) next = Math.max(next, Number(match[1]) + 1);
  }
  return next;
}
