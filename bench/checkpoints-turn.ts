// Checkpoint cost per turn as the engine pays it (core/checkpointing.ts: what a turn's tools call
// through TurnServices.checkpoint), on a 10,000-file repository, for a turn touching 5 files: two
// by an edit tool's change set and three by one shell command. The figure is the turn's own
// accounting (TurnCheckpointStats.costMs: windows around the command, change sets, the final
// write), which leaves out the command's run and the tracker's one-off opening (reported apart).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThreadCheckpoints } from '../src/core/checkpointing.js';
import { buildRepo, FILES } from './checkpoints.js';
import { median } from './measure.js';
import type { Metric } from './report.js';

export async function benchTurnCheckpoints(runs: number): Promise<Metric[]> {
  const root = mkdtempSync(join(tmpdir(), 'rig-bench-turn-ckpt-'));
  const notices: string[] = [];
  try {
    const repo = join(root, 'repo');
    const files = buildRepo(repo);
    const thread = new ThreadCheckpoints({ dir: join(root, 'rollout.checkpoints'), removeOnClose: false, roots: [repo], notice: (t) => notices.push(t) });
    const costs: number[] = [];
    let openMs = 0;
    try {
      for (let run = 0; run <= runs; run++) {
        const touched = [0, 1, 2, 3, 4].map((k) => files[(run * 997 + k * 1999) % FILES]!);
        const turn = thread.beginTurn(`turn_${run}`);
        const changes = touched.slice(0, 2).map((path) => {
          const before = readFileSync(path);
          const after = Buffer.concat([before, Buffer.from(`// edited in run ${run}\n`)]);
          writeFileSync(path, after);
          return { path, before: { kind: 'file' as const, data: before, mode: 0o644 }, after: { kind: 'file' as const, data: after, mode: 0o644 } };
        });
        turn.recordFiles(changes);
        const window = await turn.beginCommand();
        for (const file of touched.slice(2)) writeFileSync(file, `// rewritten by a command in run ${run}\n`);
        await window.end();
        const stats = await turn.finish();
        if (stats.checkpoint?.files.length !== 5) throw new Error(`turn checkpoint bench: expected 5 files, got ${stats.checkpoint?.files.length}`);
        if (stats.trackerOpenMs !== undefined) openMs = stats.trackerOpenMs;
        // Run 0 is the cold one (it also opens the tracker).
        if (run > 0) costs.push(stats.costMs);
      }
    } finally {
      await thread.close();
    }
    return [
      {
        key: 'checkpoints.engine_turn_5_files_10k_repo_ms',
        label: `checkpoint cost of an engine turn (5 files touched, ${FILES.toLocaleString('en')}-file repo)`,
        value: median(costs),
        unit: 'ms',
        target: 20,
        note: `tracker opened once per thread before its first command: ${openMs.toFixed(0)} ms${notices.length ? `; ${notices.join('; ')}` : ''}`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
