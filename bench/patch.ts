// apply_patch of 100 hunks on a 20,000-line file, through the same engine the tool uses: parse,
// verify every hunk against the file, commit. The file is rewritten fresh before every run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyPatch } from '../src/patch/apply.js';
import { median } from './measure.js';
import type { Metric } from './report.js';

const LINES = 20_000;
const HUNKS = 100;

function sourceLine(i: number): string {
  return `export function f${i}(x) { return x * ${i % 97} + ${i}; } // line ${i}`;
}

/** One hunk every LINES/HUNKS lines, each replacing one line between three lines of context. */
function buildPatch(file: string): string {
  const out = ['*** Begin Patch', `*** Update File: ${file}`];
  const every = Math.floor(LINES / HUNKS);
  for (let h = 0; h < HUNKS; h++) {
    const target = h * every + Math.floor(every / 2);
    out.push('@@');
    for (let i = target - 3; i < target; i++) out.push(` ${sourceLine(i)}`);
    out.push(`-${sourceLine(target)}`);
    out.push(`+${sourceLine(target).replace('return x *', 'return x +')}`);
    for (let i = target + 1; i <= target + 3; i++) out.push(` ${sourceLine(i)}`);
  }
  out.push('*** End Patch');
  return out.join('\n');
}

export async function benchPatch(runs: number): Promise<Metric[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rig-bench-patch-'));
  try {
    const original = Array.from({ length: LINES }, (_, i) => sourceLine(i)).join('\n') + '\n';
    const patch = buildPatch('big.js');
    const times: number[] = [];
    // Run 0 is the cold one (first parse, JIT warm-up); it is reported apart.
    let cold = 0;
    for (let i = 0; i <= runs; i++) {
      writeFileSync(join(dir, 'big.js'), original);
      const startedAt = performance.now();
      await applyPatch(patch, dir);
      const elapsed = performance.now() - startedAt;
      if (i === 0) cold = elapsed;
      else times.push(elapsed);
    }
    const patched = readFileSync(join(dir, 'big.js'), 'utf8');
    const changed = patched.split('\n').filter((line) => line.includes('return x +')).length;
    if (changed !== HUNKS) throw new Error(`apply_patch bench: expected ${HUNKS} changed lines, found ${changed}`);
    return [
      {
        key: 'patch.100_hunks_20k_lines_ms',
        label: `apply_patch, ${HUNKS} hunks on a ${LINES.toLocaleString('en')}-line file`,
        value: median(times),
        unit: 'ms',
        target: 20,
        note: `first (cold) run ${cold.toFixed(1)} ms`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
