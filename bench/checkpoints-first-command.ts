// The first command of a thread in a large repository, with the model streaming the call as a
// model does: the checkpoint tracker's first opening (a read of every file, ~120-130 ms for 10,000)
// starts when the call starts streaming, so it overlaps the arguments' arrival instead of delaying
// the command. Measured as whole `rig exec` runs (the mock in this process, rig a child, as the
// model is remote), the same scripted call in a 10,000-file repository and in a one-file one,
// interleaved: the difference is what the repository's size still costs the first command.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startMockProvider, type MockTurn } from '../test/support/mock-provider/index.js';
import { buildRepo, FILES } from './checkpoints.js';
import { median } from './measure.js';
import type { Metric } from './report.js';
import type { BenchEnv } from './workspace.js';

/** Two characters an argument delta, 15 ms apart: `{"cmd":"echo first"}` arrives over ~0.3 s. */
const STREAMED_CALL: MockTurn = { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo first' } }], deltaSize: 2, eventDelayMs: 15 };

export async function benchFirstCommandInLargeRepo(env: BenchEnv, runs: number): Promise<Metric[]> {
  const root = mkdtempSync(join(tmpdir(), 'rig-bench-first-command-'));
  const mock = await startMockProvider();
  try {
    const large = join(root, 'large');
    buildRepo(large);
    const small = join(root, 'small');
    mkdirSync(small);
    writeFileSync(join(small, 'README.md'), '# one file\n');
    for (const repo of [large, small]) execFileSync('git', ['init', '-q', repo]);
    const run = async (cwd: string): Promise<number> => {
      const home = env.mockHome(mock.url);
      mock.enqueue(STREAMED_CALL, { text: 'done' });
      const startedAt = performance.now();
      const child = spawn(process.execPath, [env.rigBin, 'exec', '--sandbox', 'workspace-write', '--color', 'never', 'run it'], {
        cwd,
        env: env.childEnv(home),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
      const code = await new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', resolve);
      });
      if (code !== 0) throw new Error(`rig exec in the ${cwd === large ? 'large' : 'small'} repository exited ${code}\n${stderr}`);
      return performance.now() - startedAt;
    };
    await run(large); // warm-up: the code cache, the file cache of the repository
    const largeMs: number[] = [];
    const smallMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      largeMs.push(await run(large));
      smallMs.push(await run(small));
    }
    return [
      {
        key: 'checkpoints.first_command_10k_repo_extra_ms',
        label: `first command of a thread in a ${FILES.toLocaleString('en')}-file repository, call streamed over ~0.3 s, over a one-file one`,
        value: median(largeMs) - median(smallMs),
        unit: 'ms',
        target: 50,
        note: `rig exec ${median(largeMs).toFixed(0)} vs ${median(smallMs).toFixed(0)} ms; the tracker opens as the call starts streaming`,
      },
    ];
  } finally {
    await mock.close();
    rmSync(root, { recursive: true, force: true });
  }
}
