// Timing and memory of real child processes. Wall time is measured here (hrtime around spawn ..
// exit); peak RSS comes from GNU time's %M when /usr/bin/time exists (it adds the same small
// constant to every run, so differences between commands are unaffected).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const GNU_TIME = '/usr/bin/time';
export const HAVE_GNU_TIME = existsSync(GNU_TIME);

export interface ProcessRun {
  wallMs: number;
  /** Peak resident set size in MB, when /usr/bin/time is available. */
  peakRssMb?: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Called right after spawn with the start timestamp (performance.now()). */
  onStart?: (startedAt: number) => void;
}

let scratch: string | undefined;
function scratchDir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'rig-bench-time-'));
  return scratch;
}

export function cleanupMeasure(): void {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
}

let runCounter = 0;

/** Runs argv to completion, timing it; the first element is the program. */
export function timeProcess(argv: readonly string[], options: SpawnOptions = {}): Promise<ProcessRun> {
  const rssFile = HAVE_GNU_TIME ? join(scratchDir(), `rss-${++runCounter}`) : undefined;
  const [program, ...args] = rssFile ? [GNU_TIME, '-f', '%M', '-o', rssFile, '--', ...argv] : argv;
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(program!, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    options.onStart?.(startedAt);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - startedAt;
      let peakRssMb: number | undefined;
      if (rssFile && existsSync(rssFile)) {
        const kb = Number.parseInt(readFileSync(rssFile, 'utf8').trim().split('\n').pop() ?? '', 10);
        if (Number.isFinite(kb)) peakRssMb = kb / 1024;
      }
      resolve({ wallMs, code, stdout, stderr, ...(peakRssMb !== undefined ? { peakRssMb } : {}) });
    });
  });
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median of the defined values (NaN when none). */
export function medianOf(values: readonly (number | undefined)[]): number {
  return median(values.filter((value): value is number => value !== undefined));
}

/** Runs `once` n times, one after another (parallel runs would compete for the CPU). */
export async function repeat<T>(n: number, once: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < n; i++) results.push(await once(i));
  return results;
}

export function assertExit(run: ProcessRun, what: string): void {
  if (run.code !== 0) {
    throw new Error(`${what} exited ${run.code}\n--- stdout\n${run.stdout.slice(-2000)}\n--- stderr\n${run.stderr.slice(-2000)}`);
  }
}
