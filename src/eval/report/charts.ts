// The report's charts: Vega-Lite specs compiled and rendered to SVG strings at build time, so the
// page needs no script and opens offline. vega and vega-lite (about 300 ms to load) are imported
// only here, when a report is built.
import type { TrialResult } from '../results.js';
import type { RunSummary } from '../summary.js';

export interface Chart {
  id: string;
  title: string;
  svg: string;
}

type Spec = Record<string, unknown>;

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const CONFIG = {
  font: FONT,
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#e5e7eb', labelLimit: 220 },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  view: { stroke: null },
  range: { category: ['#2563eb', '#ea580c', '#16a34a', '#9333ea', '#dc2626', '#0891b2', '#ca8a04', '#db2777'] },
};

function base(description: string): Spec {
  return { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', description, config: CONFIG, background: 'white', padding: 8 };
}

function passRateSpec(summary: RunSummary): Spec {
  const values = summary.cells.map((cell) => ({
    harness: cell.harness,
    model: cell.model,
    rate: cell.pass_rate,
    lo: cell.ci95[0],
    hi: cell.ci95[1],
    label: `${cell.passed}/${cell.scored}`,
  }));
  const x = { field: 'harness', type: 'nominal', title: 'harness', sort: summary.harnesses, axis: { labelAngle: 0 } };
  const xOffset = { field: 'model', type: 'nominal' };
  const y = { type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%' } };
  return {
    ...base('Pass rate per harness and model, with 95% Wilson intervals'),
    width: Math.min(360, Math.max(200, summary.cells.length * 70)),
    height: 240,
    data: { values },
    layer: [
      { mark: { type: 'bar', opacity: 0.85 }, encoding: { x, xOffset, y: { ...y, field: 'rate', title: 'pass rate' }, color: { field: 'model', type: 'nominal', title: 'model' } } },
      { mark: { type: 'rule', strokeWidth: 1.5, color: '#111827' }, encoding: { x, xOffset, y: { ...y, field: 'lo' }, y2: { field: 'hi' } } },
      { mark: { type: 'text', dy: -8, fontSize: 10, color: '#374151' }, encoding: { x, xOffset, y: { ...y, field: 'hi' }, text: { field: 'label' } } },
    ],
  };
}

function perSolvedSpec(summary: RunSummary): Spec {
  const values = summary.cells.flatMap((cell) => [
    ...(cell.tokens_per_solved !== null ? [{ cell: `${cell.harness} · ${cell.model}`, measure: 'tokens per solved task', value: cell.tokens_per_solved }] : []),
    ...(cell.cost_per_solved_usd !== null ? [{ cell: `${cell.harness} · ${cell.model}`, measure: 'USD per solved task', value: cell.cost_per_solved_usd }] : []),
  ]);
  return {
    ...base('Tokens and cost per solved task'),
    data: { values },
    facet: { column: { field: 'measure', type: 'nominal', title: null, header: { labelFontSize: 12 } } },
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: 120,
      height: { step: 22 },
      mark: { type: 'bar', color: '#2563eb' },
      encoding: {
        y: { field: 'cell', type: 'nominal', title: null },
        x: { field: 'value', type: 'quantitative', title: null },
        tooltip: [{ field: 'value', type: 'quantitative' }],
      },
    },
  };
}

function wallTimeSpec(results: TrialResult[]): Spec {
  const values = results.map((r) => ({ cell: `${r.harness} · ${r.model}`, seconds: r.timing.total_ms / 1000, overhead: r.timing.harness_overhead_ms / 1000 }));
  return {
    ...base('Wall time per trial'),
    width: 300,
    height: { step: 26 },
    data: { values },
    mark: { type: 'boxplot', extent: 'min-max', size: 14 },
    encoding: {
      y: { field: 'cell', type: 'nominal', title: null },
      x: { field: 'seconds', type: 'quantitative', title: 'wall time per trial (s)', scale: { zero: true } },
      color: { field: 'cell', type: 'nominal', legend: null },
    },
  };
}

function pairedSpec(summary: RunSummary): Spec {
  const manyModels = summary.models.length > 1;
  const values = summary.comparisons.flatMap((c) => {
    const pair = manyModels ? `${c.a} vs ${c.b} · ${c.model}` : `${c.a} vs ${c.b}`;
    return [
      { pair, outcome: 'both pass', order: 0, count: c.both_pass },
      { pair, outcome: `only ${c.a}`, order: 1, count: c.a_only },
      { pair, outcome: `only ${c.b}`, order: 2, count: c.b_only },
      { pair, outcome: 'neither', order: 3, count: c.neither },
    ];
  });
  return {
    ...base('Paired outcomes of two harnesses on the same tasks'),
    width: 300,
    height: { step: 28 },
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'pair', type: 'nominal', title: null },
      x: { field: 'count', type: 'quantitative', stack: 'normalize', title: 'share of paired trials', axis: { format: '%' } },
      color: { field: 'outcome', type: 'nominal', title: null, scale: { range: ['#16a34a', '#2563eb', '#ea580c', '#9ca3af'] }, sort: { field: 'order' }, legend: { orient: 'bottom', direction: 'horizontal' } },
      order: { field: 'order' },
    },
  };
}

export async function renderCharts(summary: RunSummary, results: TrialResult[]): Promise<Chart[]> {
  const [vl, vega] = await Promise.all([import('vega-lite'), import('vega')]);
  const specs: { id: string; title: string; spec: Spec }[] = [];
  if (summary.cells.length > 0) specs.push({ id: 'pass-rate', title: 'Pass rate (95% Wilson interval)', spec: passRateSpec(summary) });
  if (summary.comparisons.length > 0) specs.push({ id: 'paired', title: 'Paired comparison', spec: pairedSpec(summary) });
  if (summary.cells.some((c) => c.tokens_per_solved !== null)) specs.push({ id: 'per-solved', title: 'Tokens and cost per solved task', spec: perSolvedSpec(summary) });
  if (results.length > 0) specs.push({ id: 'wall-time', title: 'Wall time per trial', spec: wallTimeSpec(results) });
  const charts: Chart[] = [];
  for (const { id, title, spec } of specs) {
    const compiled = vl.compile(spec as unknown as Parameters<typeof vl.compile>[0]).spec;
    const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
    try {
      charts.push({ id, title, svg: await view.toSVG() });
    } finally {
      view.finalize();
    }
  }
  return charts;
}
