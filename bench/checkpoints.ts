// Checkpoint cost per turn on a 10,000-file repository, for a turn that touches 5 files: two by an
// edit tool (recorded from their change sets) and three by one shell command (found by the
// tracker around it). The command's own run is not timed: its writes happen between
// beginCommand and endCommand, as a real command's would. The tracker's one-off opening (the
// baseline read of every file) is reported apart.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { CheckpointStore, WorkspaceTracker } from '../src/checkpoints/index.js';
import { median } from './measure.js';
import type { Metric } from './report.js';

export const FILES = 10_000;
const PER_DIR = 25;

/** The bench's repository: FILES files of 1-40 lines, 25 a folder, 500 a package. */
export function buildRepo(root: string): string[] {
  const files: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${Math.floor(i / 500)}`, `mod${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    const file = join(dir, `file${i}.ts`);
    writeFileSync(file, `export const value${i} = ${i};\n`.repeat(1 + (i % 40)));
    files.push(file);
  }
  return files;
}

interface Measured {
  mode: 'watch' | 'scan';
  openMs: number;
  /** The longest the event loop went without a turn while the tracker opened. */
  openStallMs: number;
  perTurnMs: number;
}

/** `work`'s result and the longest the event loop waited for a turn while it ran. */
async function withLongestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  try {
    const value = await work();
    return { value, stallMs: delay.max / 1e6 };
  } finally {
    delay.disable();
  }
}

async function measure(repo: string, files: string[], storeDir: string, runs: number, mode: 'auto' | 'scan'): Promise<Measured> {
  const openedAt = performance.now();
  const { value: tracker, stallMs: openStallMs } = await withLongestStall(() => WorkspaceTracker.open({ roots: [repo], dir: join(storeDir, 'tracker'), mode }));
  const openMs = performance.now() - openedAt;
  const used = tracker.mode;
  const store = CheckpointStore.open(storeDir);
  const times: number[] = [];
  try {
    for (let run = 0; run <= runs; run++) {
      const touched = [0, 1, 2, 3, 4].map((k) => files[(run * 997 + k * 1999) % FILES]!);
      const started = performance.now();
      const turn = store.beginTurn(`turn-${run}`);
      for (const file of touched.slice(0, 2)) {
        const before = readFileSync(file, 'utf8');
        const after = `${before}// edited in ${mode} run ${run}\n`;
        writeFileSync(file, after);
        turn.recordEdit({ path: file, before, after, mode: 0o644 });
      }
      const window = await tracker.beginCommand();
      const pause = performance.now();
      for (const file of touched.slice(2)) writeFileSync(file, `// rewritten by a command in ${mode} run ${run}\n`);
      const resumed = performance.now();
      const shell = await tracker.endCommand(window);
      turn.record(shell.changes, shell.createdDirs);
      const checkpoint = turn.finish();
      const elapsed = performance.now() - started - (resumed - pause);
      if (checkpoint?.files.length !== 5) throw new Error(`checkpoint bench: expected 5 files in the checkpoint, got ${checkpoint?.files.length}`);
      // Run 0 is the cold one (JIT warm-up).
      if (run > 0) times.push(elapsed);
    }
  } finally {
    tracker.close();
  }
  return { mode: used, openMs, openStallMs, perTurnMs: median(times) };
}

export async function benchCheckpoints(runs: number): Promise<Metric[]> {
  const root = mkdtempSync(join(tmpdir(), 'rig-bench-ckpt-'));
  try {
    const repo = join(root, 'repo');
    const files = buildRepo(repo);
    const watched = await measure(repo, files, join(root, 'home', 'rollout-a.checkpoints'), runs, 'auto');
    const scanned = await measure(repo, files, join(root, 'home', 'rollout-b.checkpoints'), 5, 'scan');
    return [
      {
        key: 'checkpoints.turn_5_files_10k_repo_ms',
        label: `checkpoint per turn (5 files touched, ${FILES.toLocaleString('en')}-file repo, ${watched.mode} mode)`,
        value: watched.perTurnMs,
        unit: 'ms',
        target: 20,
        note: `opening the tracker (baseline of every file, once per thread) ${watched.openMs.toFixed(0)} ms`,
      },
      {
        key: 'checkpoints.tracker_open_longest_stall_ms',
        label: 'longest event-loop stall while the tracker opens there',
        value: watched.openStallMs,
        unit: 'ms',
        target: 50,
        note: 'the opening scan gives the loop a turn every 8 ms; before, it held it for the whole opening',
      },
      {
        key: 'checkpoints.turn_5_files_10k_repo_scan_ms',
        label: 'the same turn where folders cannot be watched (stat scans around the command)',
        value: scanned.perTurnMs,
        unit: 'ms',
        note: 'fallback (other OS, inotify watch limit reached)',
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
