// Lists rollout files on disk with their size and mtime: the cheap half of the staleness check
// (names and stats only; files are parsed only when they changed).
import fs from 'node:fs';
import path from 'node:path';
import { archivedSessionsDir, parseRolloutFileName, sessionsDir } from './home.js';

export interface RolloutFileStat {
  threadId: string;
  path: string;
  size: number;
  mtimeMs: number;
  archived: boolean;
}

function entries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function names(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function addFile(out: Map<string, RolloutFileStat>, dir: string, name: string, archived: boolean): void {
  const parsed = parseRolloutFileName(name);
  if (!parsed || out.has(parsed.threadId)) return;
  // dir is already normalised and name is a plain entry name: no need for path.join per file.
  const file = `${dir}${path.sep}${name}`;
  // Removed between readdir and stat: no entry, no exception to build.
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return;
  out.set(parsed.threadId, {
    threadId: parsed.threadId,
    path: file,
    size: stat.size,
    mtimeMs: Math.floor(stat.mtimeMs),
    archived,
  });
}

/** Every rollout under sessions/YYYY/MM/DD and archived_sessions/, keyed by thread id. */
export function scanRolloutFiles(home: string): Map<string, RolloutFileStat> {
  const out = new Map<string, RolloutFileStat>();
  const root = sessionsDir(home);
  for (const year of entries(root)) {
    if (!year.isDirectory()) continue;
    const yearDir = path.join(root, year.name);
    for (const month of entries(yearDir)) {
      if (!month.isDirectory()) continue;
      const monthDir = path.join(yearDir, month.name);
      for (const day of entries(monthDir)) {
        if (!day.isDirectory()) continue;
        const dayDir = path.join(monthDir, day.name);
        // Names only: the stat that follows tells files apart, without a Dirent per rollout.
        for (const name of names(dayDir)) addFile(out, dayDir, name, false);
      }
    }
  }
  // Codex keeps archived_sessions/ flat; accept nested copies too.
  const archivedRoot = archivedSessionsDir(home);
  const walkArchived = (dir: string, depth: number): void => {
    for (const entry of entries(dir)) {
      if (entry.isFile()) addFile(out, dir, entry.name, true);
      else if (entry.isDirectory() && depth < 3) walkArchived(path.join(dir, entry.name), depth + 1);
    }
  };
  walkArchived(archivedRoot, 0);
  return out;
}

/** Finds a rollout by full id or unique prefix without the index (for when SQLite is unwanted). */
export function findRolloutFile(home: string, idOrPrefix: string): RolloutFileStat | undefined {
  const needle = idOrPrefix.toLowerCase();
  const matches = [...scanRolloutFiles(home).values()].filter((f) => f.threadId.startsWith(needle));
  const exact = matches.find((f) => f.threadId === needle);
  if (exact) return exact;
  if (matches.length > 1) {
    throw new Error(
      `thread id prefix "${idOrPrefix}" is ambiguous (${matches.length} threads match); give more characters`,
    );
  }
  return matches[0];
}
