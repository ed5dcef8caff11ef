// Startup: the bundled `rig --version` against a bare `node -e ''`, and the time from spawning
// `rig exec` to the mock provider receiving the first model request.
import { performance } from 'node:perf_hooks';
import { startMockProvider } from '../test/support/mock-provider/index.js';
import { assertExit, medianOf, repeat, timeProcess } from './measure.js';
import type { Metric } from './report.js';
import type { BenchEnv } from './workspace.js';

export interface StartupFigures {
  bareNodeMs: number;
  metrics: Metric[];
}

export async function benchStartup(env: BenchEnv, runs: number): Promise<StartupFigures> {
  const node = process.execPath;
  // Every process here gets the same clean environment as `rig exec` below: a variable such as
  // NODE_EXTRA_CA_CERTS (read at every Node start, ~60 ms for a system bundle) would otherwise
  // slow the bare node down and not rig, and hide that much of rig's own start-up cost.
  const quiet = { env: env.childEnv(env.mockHome('http://127.0.0.1:9')) };
  // One warm-up each: the first spawn pays for cold file caches.
  await timeProcess([node, '-e', ''], quiet);
  await timeProcess([node, env.rigBin, '--version'], quiet);
  const bare = await repeat(runs, () => timeProcess([node, '-e', ''], quiet));
  const version = await repeat(runs, async () => {
    const run = await timeProcess([node, env.rigBin, '--version'], quiet);
    assertExit(run, 'rig --version');
    return run;
  });
  const bareNodeMs = medianOf(bare.map((run) => run.wallMs));
  const versionMs = medianOf(version.map((run) => run.wallMs));

  const mock = await startMockProvider();
  const home = env.mockHome(mock.url);
  const firstRequest: number[] = [];
  const firstRss: (number | undefined)[] = [];
  try {
    for (let i = 0; i <= runs; i++) {
      mock.enqueue({ text: 'ok' });
      const arrived = mock.waitForRequest(mock.requests.length + 1, 30_000).then(() => performance.now());
      let startedAt = 0;
      const run = await timeProcess([node, env.rigBin, 'exec', '--color', 'never', 'say ok'], {
        cwd: env.repo,
        env: env.childEnv(home),
        onStart: (at) => (startedAt = at),
      });
      assertExit(run, 'rig exec (first-request bench)');
      const at = await arrived;
      // Run 0 warms the caches and is not counted.
      if (i > 0) {
        firstRequest.push(at - startedAt);
        firstRss.push(run.peakRssMb);
      }
    }
  } finally {
    await mock.close();
  }
  const firstRequestMs = medianOf(firstRequest);

  return {
    bareNodeMs,
    metrics: [
      { key: 'node.bare_ms', label: "bare `node -e ''`", value: bareNodeMs, unit: 'ms' },
      { key: 'version.wall_ms', label: '`rig --version`', value: versionMs, unit: 'ms' },
      { key: 'version.overhead_ms', label: '`rig --version` - bare node', value: versionMs - bareNodeMs, unit: 'ms', target: 15 },
      { key: 'version.peak_rss_mb', label: '`rig --version` peak RSS', value: medianOf(version.map((run) => run.peakRssMb)), unit: 'MB', note: `bare node ${medianOf(bare.map((run) => run.peakRssMb)).toFixed(1)} MB` },
      { key: 'first_request.wall_ms', label: 'spawn -> first model request', value: firstRequestMs, unit: 'ms', reference: 'Codex ~170 ms; pi ~1.3 s' },
      { key: 'first_request.overhead_ms', label: 'first model request - bare node', value: firstRequestMs - bareNodeMs, unit: 'ms', target: 50 },
      { key: 'exec_1turn.peak_rss_mb', label: '`rig exec` (1 answer) peak RSS', value: medianOf(firstRss), unit: 'MB', target: 80 },
    ],
  };
}
