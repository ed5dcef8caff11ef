// The bench's table and its memory: every metric with its target and verdict, saved to
// bench/results/latest.json, and compared with the run before when one exists.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

export interface Metric {
  /** Stable key for comparing runs, e.g. "version.overhead_ms". */
  key: string;
  label: string;
  value: number;
  unit: string;
  /** Pass when value <= target (every target is a ceiling). */
  target?: number;
  /** Published figures of other agents, for orientation. */
  reference?: string;
  note?: string;
}

export interface BenchResults {
  date: string;
  node: string;
  platform: string;
  cpus: number;
  metrics: Metric[];
}

export function verdict(metric: Metric): 'pass' | 'FAIL' | '' {
  if (metric.target === undefined) return '';
  return metric.value <= metric.target ? 'pass' : 'FAIL';
}

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export function readPrevious(resultsDir: string): BenchResults | undefined {
  const file = join(resultsDir, 'latest.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  } catch {
    return undefined;
  }
}

/** The table as text: metric, value, target, verdict, change against the previous run, reference. */
export function renderTable(metrics: readonly Metric[], previous?: BenchResults): string {
  const before = new Map((previous?.metrics ?? []).map((metric) => [metric.key, metric.value]));
  const rows = metrics.map((metric) => {
    const old = before.get(metric.key);
    const ratio = old !== undefined && old !== 0 && Number.isFinite(metric.value) ? `x${(metric.value / old).toFixed(2)}` : '';
    return [
      metric.label,
      formatValue(metric.value, metric.unit),
      metric.target === undefined ? '' : `<= ${formatValue(metric.target, metric.unit)}`,
      verdict(metric),
      ratio,
      [metric.reference, metric.note].filter(Boolean).join('; '),
    ];
  });
  const header = ['metric', 'value', 'target', 'result', previous ? 'vs prev' : '', 'reference / note'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => pad(cell, widths[column]!)).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * Saves the run as latest.json, keeping the one before as previous.json. A partial run (--only)
 * carries over the figures it did not measure, so latest.json always holds every metric.
 */
export function saveResults(resultsDir: string, measured: Metric[], carryOver?: BenchResults): BenchResults {
  mkdirSync(resultsDir, { recursive: true });
  const fresh = new Map(measured.map((metric) => [metric.key, metric]));
  const old = carryOver?.metrics ?? [];
  const oldKeys = new Set(old.map((metric) => metric.key));
  const metrics = [...old.map((metric) => fresh.get(metric.key) ?? metric), ...measured.filter((metric) => !oldKeys.has(metric.key))];
  const results: BenchResults = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    metrics,
  };
  const latest = join(resultsDir, 'latest.json');
  if (existsSync(latest)) renameSync(latest, join(resultsDir, 'previous.json'));
  writeFileSync(latest, `${JSON.stringify(results, null, 2)}\n`);
  return results;
}
