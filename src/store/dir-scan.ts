// The cheap half of keeping the thread index fresh: walk the rollout directories stat'ing only the
// DIRECTORIES, and list (and stat the files of) only those whose mtime moved since the last scan.
//
// Why a directory's mtime is enough: creating, renaming or deleting a rollout changes its directory's
// mtime, and RolloutWriter touches the directory after every append (see rollout-writer.ts). So a
// directory whose mtime is unchanged holds the same files with the same contents as when it was
// last listed. The one thing this misses: a rollout edited in place by something other than rig
// (an editor, a script) leaves its directory's mtime alone, so the index keeps its old row until
// `rig sessions reindex` or until something else changes in that directory. That is the trade-off
// that makes listing 5,000 threads cost a few dozen directory stats instead of 5,000 file stats.
//
// Racy window: a write in the same clock tick as our stat leaves the directory's mtime as we saw it.
// A directory whose mtime is within RACY_WINDOW_MS of the scan is therefore listed now and stored
// as UNSETTLED, so the next scan lists it again; only a directory that was quiet for that long is
// trusted by its mtime.
import fs from 'node:fs';
import path from 'node:path';
import { archivedSessionsDir, parseRolloutFileName, sessionsDir } from './home.js';
import type { RolloutFileStat } from './scan.js';

export const RACY_WINDOW_MS = 2000;
/** Stored for a directory that must be listed again on the next scan. */
export const UNSETTLED_MTIME = -1;

export interface DirScan {
  /** Directories that were listed (new, changed or racy), in walk order, with their rollouts. */
  listed: Map<string, RolloutFileStat[]>;
  /** Every directory found, with the mtime to remember for it (UNSETTLED_MTIME when racy). */
  seen: Map<string, number>;
  /** Directories remembered from the last scan that are gone. */
  vanished: string[];
}

interface Tree {
  root: string;
  archived: boolean;
  /** Deepest directory level walked (the root is level 0). */
  maxDepth: number;
  filesAt: (depth: number) => boolean;
}

function rolloutTrees(home: string): Tree[] {
  return [
    // sessions/YYYY/MM/DD/rollout-*.jsonl
    { root: sessionsDir(home), archived: false, maxDepth: 3, filesAt: (d) => d === 3 },
    // Codex keeps archived_sessions/ flat; nested copies are accepted too.
    { root: archivedSessionsDir(home), archived: true, maxDepth: 3, filesAt: () => true },
  ];
}

function childrenByParent(known: ReadonlyMap<string, number>): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const dir of known.keys()) {
    const parent = path.dirname(dir);
    const list = children.get(parent);
    if (list) list.push(dir);
    else children.set(parent, [dir]);
  }
  return children;
}

function statRolloutsIn(dir: string, names: readonly string[], archived: boolean, out: RolloutFileStat[]): void {
  for (const name of names) {
    const parsed = parseRolloutFileName(name);
    if (!parsed) continue;
    const file = `${dir}${path.sep}${name}`;
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    out.push({ threadId: parsed.threadId, path: file, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs), archived });
  }
}

/**
 * Walks sessions/ and archived_sessions/. `known` maps each directory to the mtime stored at the
 * last scan; an empty map lists everything.
 */
export function scanChangedDirs(home: string, known: ReadonlyMap<string, number>, now = Date.now()): DirScan {
  const scan: DirScan = { listed: new Map(), seen: new Map(), vanished: [] };
  const children = childrenByParent(known);

  const visit = (dir: string, depth: number, tree: Tree): void => {
    if (scan.seen.has(dir)) return;
    // The directory's mtime is read BEFORE its entries: a change after this stat moves the mtime
    // past the value stored, so the next scan lists the directory again.
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) return;
    const mtime = stat.mtimeMs;
    const racy = now - mtime < RACY_WINDOW_MS;
    scan.seen.set(dir, racy ? UNSETTLED_MTIME : mtime);
    if (!racy && known.get(dir) === mtime) {
      // Unchanged: same entries as last time, so its subdirectories are the ones remembered.
      if (depth < tree.maxDepth) for (const child of children.get(dir) ?? []) visit(child, depth + 1, tree);
      return;
    }
    const files: RolloutFileStat[] = [];
    if (depth >= tree.maxDepth) {
      // Names only: the stat that follows tells files apart, without a Dirent per rollout.
      if (tree.filesAt(depth)) statRolloutsIn(dir, readNames(dir), tree.archived, files);
    } else {
      const rolloutNames: string[] = [];
      const subdirs: string[] = [];
      for (const entry of readEntries(dir)) {
        if (entry.isDirectory()) subdirs.push(`${dir}${path.sep}${entry.name}`);
        else if (entry.isFile() && tree.filesAt(depth)) rolloutNames.push(entry.name);
      }
      statRolloutsIn(dir, rolloutNames, tree.archived, files);
      scan.listed.set(dir, files);
      for (const subdir of subdirs) visit(subdir, depth + 1, tree);
      return;
    }
    scan.listed.set(dir, files);
  };

  for (const tree of rolloutTrees(home)) visit(tree.root, 0, tree);
  for (const dir of known.keys()) if (!scan.seen.has(dir)) scan.vanished.push(dir);
  return scan;
}

function readEntries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function readNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
