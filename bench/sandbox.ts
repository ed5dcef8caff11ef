// Sandbox set-up cost: the same trivial command (`/bin/true`) run through the process layer bare,
// wrapped by bubblewrap for workspace-write (network off, so the seccomp filter is included) in a
// sandbox of its own, and as the orchestrator runs model commands: the filter as a descriptor, so
// the command runs in a copy of its sandbox started after the previous one began
// (src/exec/warm-sandbox.ts). Runs alternate so machine noise hits all alike; the medians'
// differences are what wrapping adds per command (target: under 15 ms).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../src/exec/spawn.js';
import { resolveSandboxPolicy, wrapCommand } from '../src/exec/sandbox/index.js';
import { discardWarmSandboxes, warmSandboxEnabled, warmSandboxStats } from '../src/exec/warm-sandbox.js';

const RUNS = 30;
const WARMUP = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

type Way = 'bare' | 'fresh' | 'ahead';

export async function benchSandboxOverhead(runs = RUNS): Promise<{ bareMs: number; bwrapMs: number; overheadMs: number; aheadMs: number; aheadOverheadMs: number }> {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'rig-bench-sandbox-')));
  try {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: workspace });
    // SHLVL as a shell that started rig leaves it: a copy passes it through exactly.
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SHLVL: '1' };
    const once = async (way: Way): Promise<number> => {
      const result = await runProcess({
        argv: ['/bin/true'],
        cwd: workspace,
        env,
        ...(way === 'bare' ? {} : { wrap: (argv: string[], context: { cwd: string }) => wrapCommand(policy, argv, context.cwd, process.platform, undefined, { descriptors: way === 'ahead' }) }),
      });
      if (result.exitCode !== 0) throw new Error(`\`true\` exited ${result.exitCode}${way === 'bare' ? '' : ' under bubblewrap'}: ${result.output.trim()}`);
      return result.wallTimeMs;
    };
    const ways: Way[] = ['bare', 'fresh', 'ahead'];
    for (let i = 0; i < WARMUP; i++) for (const way of ways) await once(way);
    const times: Record<Way, number[]> = { bare: [], fresh: [], ahead: [] };
    const usedBefore = warmSandboxStats().used;
    for (let i = 0; i < runs; i++) for (const way of ways) times[way].push(await once(way));
    const used = warmSandboxStats().used - usedBefore;
    if (warmSandboxEnabled() && used !== runs) throw new Error(`only ${used} of ${runs} commands ran in a sandbox started ahead (${warmSandboxStats().lastMiss ?? 'no reason given'})`);
    const bareMs = median(times.bare);
    const bwrapMs = median(times.fresh);
    const aheadMs = median(times.ahead);
    return { bareMs, bwrapMs, overheadMs: bwrapMs - bareMs, aheadMs, aheadOverheadMs: aheadMs - bareMs };
  } finally {
    discardWarmSandboxes();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * Resolving a workspace-write policy on a 10,000-file tree (1,000 directories of 10 files, with a
 * nested .rig): the start-up walk that finds agent config below the top level. Once per session.
 */
export async function benchPolicyScan(runs = 15): Promise<{ scan10kMs: number; noScanMs: number }> {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'rig-bench-scan-')));
  try {
    for (let d = 0; d < 1000; d++) {
      const dir = join(workspace, `pkg${d % 10}`, `mod${d}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 10; f++) writeFileSync(join(dir, `file${f}.ts`), '');
    }
    mkdirSync(join(workspace, 'pkg3', 'mod3', '.rig'));
    const settings = { mode: 'workspace-write' as const, cwd: workspace, excludeSlashTmp: true, excludeTmpdirEnvVar: true };
    const time = (scan: boolean): number => {
      const start = performance.now();
      const policy = resolveSandboxPolicy({ ...settings, scan });
      const elapsed = performance.now() - start;
      if (scan && !policy.writableRoots[0]!.readOnlySubpaths.includes(join(workspace, 'pkg3', 'mod3', '.rig'))) {
        throw new Error('policy scan bench: the nested .rig was not found');
      }
      return elapsed;
    };
    time(true);
    const scanned: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < runs; i++) {
      scanned.push(time(true));
      plain.push(time(false));
    }
    return { scan10kMs: median(scanned), noScanMs: median(plain) };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
