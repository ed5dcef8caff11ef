// Sandbox set-up cost: the same trivial command (`true`) run through the process layer bare and
// wrapped by bubblewrap for workspace-write (network off, so the seccomp filter is included), the
// way the orchestrator runs model commands. Runs alternate so machine noise hits both alike; the
// medians' difference is what wrapping adds per command (target: under 15 ms).
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../src/exec/spawn.js';
import { resolveSandboxPolicy, wrapCommand } from '../src/exec/sandbox/index.js';

const RUNS = 30;
const WARMUP = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function benchSandboxOverhead(runs = RUNS): Promise<{ bareMs: number; bwrapMs: number; overheadMs: number }> {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'rig-bench-sandbox-')));
  try {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: workspace });
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    const once = async (sandboxed: boolean): Promise<number> => {
      const result = await runProcess({
        argv: ['true'],
        cwd: workspace,
        env,
        ...(sandboxed ? { wrap: (argv: string[], context: { cwd: string }) => wrapCommand(policy, argv, context.cwd) } : {}),
      });
      if (result.exitCode !== 0) throw new Error(`\`true\` exited ${result.exitCode}${sandboxed ? ' under bubblewrap' : ''}: ${result.output.trim()}`);
      return result.wallTimeMs;
    };
    for (let i = 0; i < WARMUP; i++) {
      await once(false);
      await once(true);
    }
    const bare: number[] = [];
    const wrapped: number[] = [];
    for (let i = 0; i < runs; i++) {
      bare.push(await once(false));
      wrapped.push(await once(true));
    }
    const bareMs = median(bare);
    const bwrapMs = median(wrapped);
    return { bareMs, bwrapMs, overheadMs: bwrapMs - bareMs };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
