// Keeps all threads' checkpoints under one size: every `*.checkpoints` folder below the sessions
// folder is a store; the oldest turns, across stores, lose their contents first. The newest turn
// of each store is kept, so the last turn of every thread stays undoable.
import fs from 'node:fs';
import path from 'node:path';
import { CheckpointStore } from './store.js';

export const DEFAULT_MAX_TOTAL_CHECKPOINT_BYTES = 2 * 1024 * 1024 * 1024;

function findStores(dir: string, out: string[], depth = 0): void {
  if (depth > 6) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const full = path.join(dir, entry.name);
    if (entry.name.endsWith('.checkpoints')) out.push(full);
    else findStores(full, out, depth + 1);
  }
}

export interface PruneReport {
  stores: number;
  bytesBefore: number;
  bytesAfter: number;
  /** Turns whose contents were dropped: [store folder, seq]. */
  pruned: [string, number][];
}

/** Prunes the oldest turns of the stores under `sessionsDir` until they hold at most `maxBytes`. */
export function pruneCheckpointStores(sessionsDir: string, maxBytes = DEFAULT_MAX_TOTAL_CHECKPOINT_BYTES): PruneReport {
  const dirs: string[] = [];
  findStores(sessionsDir, dirs);
  const stores = dirs.map((dir) => CheckpointStore.open(dir));
  const bytesBefore = stores.reduce((n, s) => n + s.bytes, 0);
  let total = bytesBefore;
  const candidates = stores.flatMap((store) => {
    const turns = store.list().filter((t) => !t.pruned);
    return turns.slice(0, -1).map((turn) => ({ store, turn }));
  });
  candidates.sort((a, b) => (a.turn.finishedAt < b.turn.finishedAt ? -1 : a.turn.finishedAt > b.turn.finishedAt ? 1 : 0));
  const pruned: [string, number][] = [];
  for (const { store, turn } of candidates) {
    if (total <= maxBytes) break;
    if (store.pruneTurn(turn.seq)) {
      total -= turn.bytes;
      pruned.push([store.dir, turn.seq]);
    }
  }
  return { stores: stores.length, bytesBefore, bytesAfter: total, pruned };
}

/** The folder a live tracker keeps its baseline in, inside its thread's store. */
export const TRACKER_DIR = 'tracker';

/**
 * Removes the tracker baselines (up to checkpoints.max_baseline_mb each) that no live thread owns:
 * a tracker deletes its baseline when its thread closes, but a rig that crashed or was killed left
 * it behind, and it would stay until that thread is resumed. `isLive(storeDir)` says whether a
 * running process has the store's thread open. Returns the folders removed.
 */
export function removeStaleTrackers(sessionsDir: string, isLive: (storeDir: string) => boolean): string[] {
  const dirs: string[] = [];
  findStores(sessionsDir, dirs);
  const removed: string[] = [];
  for (const dir of dirs) {
    const tracker = path.join(dir, TRACKER_DIR);
    if (!fs.existsSync(tracker) || isLive(dir)) continue;
    fs.rmSync(tracker, { recursive: true, force: true });
    removed.push(tracker);
  }
  return removed;
}
