// Memory of a running process tree, sampled from /proc while it works: the main process's peak RSS
// (the kernel's own high-water mark, VmHWM, so short peaks between samples are not missed) and the
// private memory of the whole tree (the sum of RssAnon over the process and every descendant: heap,
// stacks, anonymous mappings; shared code pages do not count).
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { median } from './measure.js';

export interface TreeSample {
  /** performance.now() of the sample. */
  at: number;
  /** Sum of RssAnon over the tree, kB. */
  privateKb: number;
  /** How many processes the tree had. */
  processes: number;
}

export interface TreeMemory {
  /** Peak RSS of the main process (VmHWM), MB; NaN when it was never read. */
  mainPeakRssMb: number;
  samples: TreeSample[];
}

export const HAVE_PROC = (() => {
  try {
    readFileSync('/proc/self/status', 'utf8');
    return true;
  } catch {
    return false;
  }
})();

function statusKb(status: string, field: string): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return match ? Number(match[1]) : undefined;
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // the process ended between listing and reading
  }
}

/** pid and its descendants; children are listed per thread (a tokio worker may spawn them). */
function treeOf(pid: number): number[] {
  const pids: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    pids.push(next);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${next}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      for (const child of readOrEmpty(`/proc/${next}/task/${task}/children`).split(' ')) {
        if (child.trim() !== '') pending.push(Number(child));
      }
    }
  }
  return pids;
}

export interface TreeSampler {
  /** Takes one sample now (also done every intervalMs). */
  sample(): void;
  stop(): TreeMemory;
}

export function sampleTree(pid: number, intervalMs = 20): TreeSampler {
  const samples: TreeSample[] = [];
  let mainPeakKb = Number.NaN;
  const sample = (): void => {
    let privateKb = 0;
    let processes = 0;
    for (const member of treeOf(pid)) {
      const status = readOrEmpty(`/proc/${member}/status`);
      const anon = statusKb(status, 'RssAnon');
      if (anon === undefined) continue; // gone, or a zombie
      privateKb += anon;
      processes++;
      if (member === pid) {
        const hwm = statusKb(status, 'VmHWM');
        if (hwm !== undefined && !(hwm <= mainPeakKb)) mainPeakKb = hwm;
      }
    }
    if (processes > 0) samples.push({ at: performance.now(), privateKb, processes });
  };
  const timer = setInterval(sample, intervalMs);
  return {
    sample,
    stop() {
      clearInterval(timer);
      return { mainPeakRssMb: mainPeakKb / 1024, samples };
    },
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** p95 of the tree's private memory over the samples, MB. */
export function privateP95Mb(memory: TreeMemory): number {
  return percentile(memory.samples.map((sample) => sample.privateKb), 95) / 1024;
}

/** Median private memory (MB) of the samples taken between from and to (performance.now()). */
export function privateBetweenMb(memory: TreeMemory, from: number, to: number): number {
  return median(memory.samples.filter((sample) => sample.at >= from && sample.at <= to).map((sample) => sample.privateKb)) / 1024;
}
