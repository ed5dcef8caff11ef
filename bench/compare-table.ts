// The side-by-side table of `--vs codex` and the soak: each measure for rig and Codex, their ratio,
// the goal (a ceiling on the ratio, or on rig's own value) and whether it was met; and the same
// rows as Metrics for bench/results/latest.json.
import type { Metric } from './report.js';

export interface CompareRow {
  key: string;
  label: string;
  unit: string;
  rig: number;
  /** Undefined when Codex was not run; `codexReference` then names where a figure came from. */
  codex?: number;
  /** Goal on rig / Codex. */
  maxRatio?: number;
  /** Goal on rig's own value, in `unit`. */
  maxRig?: number;
  note?: string;
}

function fmt(value: number | undefined, unit: string): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  if (unit === '' && Number.isInteger(value)) return String(value);
  if (unit === 'B') return value >= 1e6 ? `${(value / 1e6).toFixed(2)} MB` : `${(value / 1e3).toFixed(1)} kB`;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}

export function ratioOf(row: CompareRow): number | undefined {
  if (row.codex === undefined || !Number.isFinite(row.codex) || row.codex === 0) return undefined;
  return row.rig / row.codex;
}

export function rowMet(row: CompareRow): boolean | undefined {
  const checks: boolean[] = [];
  const ratio = ratioOf(row);
  if (row.maxRatio !== undefined && ratio !== undefined) checks.push(ratio <= row.maxRatio);
  if (row.maxRig !== undefined && Number.isFinite(row.rig)) checks.push(row.rig <= row.maxRig);
  return checks.length === 0 ? undefined : checks.every(Boolean);
}

function goalText(row: CompareRow): string {
  const parts: string[] = [];
  if (row.maxRatio !== undefined) parts.push(`ratio <= ${row.maxRatio}`);
  if (row.maxRig !== undefined) parts.push(`rig <= ${fmt(row.maxRig, row.unit)}`);
  return parts.join(', ');
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export function renderCompare(title: string, rows: readonly CompareRow[], codexLabel: string): string {
  const header = ['measure', 'rig', codexLabel, 'ratio', 'goal', 'result', 'note'];
  const cells = rows.map((row) => {
    const ratio = ratioOf(row);
    const met = rowMet(row);
    return [row.label, fmt(row.rig, row.unit), fmt(row.codex, row.unit), ratio === undefined ? '' : ratio.toFixed(2), goalText(row), met === undefined ? '' : met ? 'met' : 'MISSED', row.note ?? ''];
  });
  const widths = header.map((name, column) => Math.max(name.length, ...cells.map((line) => line[column]!.length)));
  const line = (parts: string[]) => parts.map((part, column) => pad(part, widths[column]!)).join('  ').trimEnd();
  return [title, line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.map(line)].join('\n');
}

/** The rows as bench metrics: a ratio row with its goal, and rig's own value (with its goal, if any). */
export function compareMetrics(rows: readonly CompareRow[]): Metric[] {
  const metrics: Metric[] = [];
  for (const row of rows) {
    const codexNote = row.codex === undefined ? '' : `Codex ${fmt(row.codex, row.unit)}`;
    metrics.push({
      key: `${row.key}.rig`,
      label: `${row.label}, rig`,
      value: row.unit === 'B' ? row.rig / 1e6 : row.rig,
      unit: row.unit === 'B' ? 'MB' : row.unit,
      ...(row.maxRig !== undefined ? { target: row.unit === 'B' ? row.maxRig / 1e6 : row.maxRig } : {}),
      note: [codexNote, row.note].filter(Boolean).join('; '),
    });
    const ratio = ratioOf(row);
    if (ratio !== undefined) {
      metrics.push({ key: `${row.key}.ratio`, label: `${row.label}, rig / Codex`, value: ratio, unit: 'x', ...(row.maxRatio !== undefined ? { target: row.maxRatio } : {}) });
    }
  }
  return metrics;
}
