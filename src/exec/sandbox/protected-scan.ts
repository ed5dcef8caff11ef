// A bounded walk of a writable root at session start: it finds the agent-configuration
// directories (.rig, .codex, .agents) below the top level, which become read-only for the session
// so nothing a model writes can change the config, rules or skills a later session in that
// subdirectory loads; and it removes temp files that killed edits left behind.
//
// Bounds: symlinks are not followed, `.git` and `node_modules` are not entered (neither holds a
// project's own agent config), and the walk stops after MAX_ENTRIES directory entries in total,
// saying so (rig doctor shows it). Measured on a 10,000-file tree (1,100 directories): about
// 15 ms on this 2-core machine (bench/sandbox.ts reports it).
import fs from 'node:fs';

export const SCANNED_NAMES: readonly string[] = ['.rig', '.codex', '.agents'];
const NOT_ENTERED = new Set(['.git', 'node_modules']);
export const MAX_ENTRIES = 50_000;
const MAX_DEPTH = 24;

/**
 * Temp file names of the file-change engine (src/patch/commit.ts): `.<name>.rig-tmp-<pid>-<hex>`.
 * A test keeps the two in step.
 */
export const EDIT_TEMP_NAME = /^\..+\.rig-tmp-(\d+)-[0-9a-f]{8}$/;

export interface ScanResult {
  /** Real paths of protected directories found below the top level. */
  protectedDirs: string[];
  /** Temp files of edits whose process is gone, removed during the walk. */
  removedTemps: string[];
  /** Set when the walk stopped early (entries or depth). */
  truncated?: string;
}

export interface ScanOptions {
  maxEntries?: number;
  /** Remove stale edit temp files (default true). */
  removeStaleTemps?: boolean;
}

export function scanWritableRoot(root: string, options: ScanOptions = {}): ScanResult {
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const result: ScanResult = { protectedDirs: [], removedTemps: [] };
  let entries = 0;
  // Breadth first, so a huge deep subtree cannot hide a shallow .rig from the budget.
  let level: string[] = [root];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > MAX_DEPTH) {
      result.truncated = `stopped at depth ${MAX_DEPTH} under ${root}`;
      break;
    }
    const next: string[] = [];
    for (const dir of level) {
      let list: fs.Dirent[];
      try {
        list = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      entries += list.length;
      for (const entry of list) {
        const full = dir === '/' ? `/${entry.name}` : `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (SCANNED_NAMES.includes(entry.name)) {
            // Directly under the root these are handled by name already.
            if (depth > 0) result.protectedDirs.push(full);
            continue;
          }
          if (!NOT_ENTERED.has(entry.name)) next.push(full);
        } else if (entry.isFile() && options.removeStaleTemps !== false) {
          const match = EDIT_TEMP_NAME.exec(entry.name);
          if (match && !processAlive(Number(match[1])) && removeFile(full)) result.removedTemps.push(full);
        }
      }
      if (entries > maxEntries) {
        result.truncated = `stopped after ${maxEntries.toLocaleString('en')} entries under ${root}`;
        return result;
      }
    }
    level = next;
  }
  return result;
}

function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeFile(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}
