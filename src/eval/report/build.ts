// Builds summary.json and report.html of a run folder from its results.jsonl.
import type { RunManifest, RunDir } from '../run-dir.js';
import { summarize, type RunSummary } from '../summary.js';
import { renderCharts } from './charts.js';
import { renderReportHtml } from './html.js';

export async function buildReport(run: RunDir, manifest: RunManifest, wallMs?: number): Promise<RunSummary> {
  const results = run.results.read();
  const first = results.reduce((min, r) => Math.min(min, Date.parse(r.started_at)), Number.POSITIVE_INFINITY);
  const last = results.reduce((max, r) => Math.max(max, Date.parse(r.finished_at)), 0);
  const summary = summarize(
    { runId: manifest.id, planned: manifest.specs.length, harnesses: manifest.harnesses, models: manifest.models, wallMs: wallMs ?? (results.length ? last - first : 0) },
    results,
  );
  run.writeJson('summary.json', summary);
  const charts = await renderCharts(summary, results);
  run.writeText('report.html', renderReportHtml(summary, results, charts, manifest.replay_of ? 'rig eval — replay' : 'rig eval'));
  return summary;
}
