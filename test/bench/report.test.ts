// The bench's bookkeeping: verdicts against ceilings, ratios to the previous run, partial runs
// carrying the unmeasured figures over, and the other helpers' result shapes as rows.
import { afterAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../../bench/measure.js';
import { toMetrics } from '../../bench/normalize.js';
import { readPrevious, renderTable, saveResults, verdict, type Metric } from '../../bench/report.js';
import { removeDir, tempDir } from '../support/workspace.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const metric = (key: string, value: number, target?: number): Metric => ({ key, label: key, value, unit: 'ms', ...(target !== undefined ? { target } : {}) });

describe('bench report', () => {
  test('a target is a ceiling: equal passes, above fails, none gives no verdict', () => {
    expect(verdict(metric('a', 5, 5))).toBe('pass');
    expect(verdict(metric('a', 5.01, 5))).toBe('FAIL');
    expect(verdict(metric('a', 500))).toBe('');
  });

  test('the table shows the ratio to the previous run of the same metric', () => {
    const previous = { date: 'd', node: 'v', platform: 'p', cpus: 1, metrics: [metric('a', 10), metric('gone', 1)] };
    const table = renderTable([metric('a', 15, 20), metric('new', 3)], previous);
    const rowA = table.split('\n').find((line) => line.startsWith('a '))!;
    expect(rowA).toMatch(/15\.0 ms\s+<= 20\.0 ms\s+pass\s+x1\.50/);
    expect(table.split('\n').find((line) => line.startsWith('new '))).not.toMatch(/x\d/);
  });

  test('a partial run keeps the figures it did not measure, and the run before as previous.json', () => {
    const dir = tempDir('bench-results');
    dirs.push(dir);
    saveResults(dir, [metric('a', 1), metric('b', 2)]);
    saveResults(dir, [metric('b', 3), metric('c', 4)], readPrevious(dir));
    const latest = readPrevious(dir)!;
    expect(latest.metrics.map((m) => [m.key, m.value])).toEqual([['a', 1], ['b', 3], ['c', 4]]);
    const previous = JSON.parse(readFileSync(join(dir, 'previous.json'), 'utf8')) as { metrics: Metric[] };
    expect(previous.metrics.map((m) => m.value)).toEqual([1, 2]);
  });

  test('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('results of the optional bench modules', () => {
  test('{ ms, runs } (sessions.ts) is one row in ms', () => {
    expect(toMetrics('sessions.benchList5000', { ms: 42.5, runs: [40, 42.5, 50] })).toEqual([
      { key: 'sessions.benchList5000', label: 'sessions.benchList5000', value: 42.5, unit: 'ms' },
    ]);
  });

  test('an object of named figures (sandbox.ts) is one row each, unit from the name', () => {
    const rows = toMetrics('sandbox.x', { bareMs: 3, bwrapMs: 10, overheadMs: 7, label: 'ignored text' });
    expect(rows.map((row) => [row.key, row.value, row.unit])).toEqual([
      ['sandbox.x.bareMs', 3, 'ms'],
      ['sandbox.x.bwrapMs', 10, 'ms'],
      ['sandbox.x.overheadMs', 7, 'ms'],
    ]);
  });

  test('Metric-shaped rows and plain numbers pass through', () => {
    expect(toMetrics('k', { key: 'own', label: 'Own', value: 9, unit: 'MB', target: 80 })).toEqual([{ key: 'own', label: 'Own', value: 9, unit: 'MB', target: 80 }]);
    expect(toMetrics('k', 12)).toEqual([{ key: 'k', label: 'k', value: 12, unit: 'ms' }]);
  });
});
