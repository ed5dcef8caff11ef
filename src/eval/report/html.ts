// report.html: one self-contained page (inline CSS and SVG, no script, no external reference), so
// it opens offline and can be mailed or archived as one file. Links to rollouts are relative to
// the run folder.
import type { TrialResult } from '../results.js';
import { cellKey, type RunSummary } from '../summary.js';
import type { Chart } from './charts.js';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (x: number) => (Number.isInteger(x) ? x.toLocaleString('en-US') : x.toLocaleString('en-US', { maximumFractionDigits: 1 }));
const usd = (x: number | null) => (x === null ? '—' : `$${x < 0.01 ? x.toFixed(5) : x.toFixed(3)}`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
// Harness overhead in-process is tens of milliseconds: in seconds it would read as a flat 0.0 s.
const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : secs(ms));

function pValue(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p.toFixed(3)}`;
}

const CSS = `
:root { color-scheme: light; --fg: #111827; --muted: #6b7280; --line: #e5e7eb; --pass: #15803d; --fail: #b91c1c; --err: #a16207; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0; background: #f9fafb; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 32px 0 10px; }
.meta { color: var(--muted); margin: 0 0 18px; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 12px 0 8px; }
.card { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 130px; }
.card b { display: block; font-size: 20px; }
.card span { color: var(--muted); font-size: 12px; }
table { border-collapse: collapse; width: 100%; background: white; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #f3f4f6; font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: #374151; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:last-child td { border-bottom: none; }
.passed { color: var(--pass); font-weight: 600; }
.failed { color: var(--fail); font-weight: 600; }
.error { color: var(--err); font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px; }
figure { margin: 0; background: white; border: 1px solid var(--line); border-radius: 8px; padding: 12px; overflow-x: auto; }
figcaption { font-weight: 600; margin-bottom: 6px; }
.cell { display: inline-block; min-width: 44px; text-align: center; border-radius: 4px; padding: 1px 6px; font-variant-numeric: tabular-nums; }
.flip { font-size: 12px; color: var(--muted); }
details { margin-top: 8px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
`;

function heat(passed: number, scored: number): string {
  if (scored === 0) return '<span class="cell" style="background:#f3f4f6">—</span>';
  const share = passed / scored;
  const hue = Math.round(share * 120);
  return `<span class="cell" style="background:hsl(${hue} 70% 88%)">${passed}/${scored}</span>`;
}

function cellsTable(summary: RunSummary): string {
  const rows = summary.cells
    .map(
      (c) => `<tr><td>${escapeHtml(c.harness)}</td><td>${escapeHtml(c.model)}</td><td class="n">${pct(c.pass_rate)}</td><td class="n">${pct(c.ci95[0])} – ${pct(c.ci95[1])}</td><td class="n">${c.passed}/${c.scored}</td><td class="n">${c.errors}</td><td class="n">${num(c.steps_mean)}</td><td class="n">${c.tool_errors}</td><td class="n">${c.tokens_per_solved === null ? '—' : num(Math.round(c.tokens_per_solved))}</td><td class="n">${usd(c.cost_usd)}</td><td class="n">${usd(c.cost_per_solved_usd)}</td><td class="n">${secs(c.wall_ms.median)}</td><td class="n">${duration(c.harness_overhead_ms_median)}</td></tr>`,
    )
    .join('\n');
  return `<table id="cells"><thead><tr><th>harness</th><th>model</th><th class="n">pass rate</th><th class="n">95% CI (Wilson)</th><th class="n">passed</th><th class="n">errors</th><th class="n">steps (mean)</th><th class="n">tool errors</th><th class="n">tokens / solved</th><th class="n">cost</th><th class="n">cost / solved</th><th class="n">wall (median)</th><th class="n">harness overhead (median)</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

function comparisonsTable(summary: RunSummary): string {
  if (summary.comparisons.length === 0) return '<p class="meta">Only one harness ran: nothing to compare.</p>';
  const list = (tasks: string[]) => (tasks.length ? tasks.map(escapeHtml).join(', ') : '—');
  const rows = summary.comparisons
    .map(
      (c) => `<tr><td>${escapeHtml(c.model)}</td><td>${escapeHtml(c.a)} vs ${escapeHtml(c.b)}</td><td class="n">${c.pairs}</td><td class="n">${c.both_pass}</td><td class="n">${c.a_only}</td><td class="n">${c.b_only}</td><td class="n">${c.neither}</td><td class="n">${pValue(c.p_value)}</td><td><div class="flip">only ${escapeHtml(c.a)}: ${list(c.flips.a_only)}</div><div class="flip">only ${escapeHtml(c.b)}: ${list(c.flips.b_only)}</div></td></tr>`,
    )
    .join('\n');
  return `<table id="comparisons"><thead><tr><th>model</th><th>harnesses (A vs B)</th><th class="n">pairs</th><th class="n">both pass</th><th class="n">only A</th><th class="n">only B</th><th class="n">neither</th><th class="n">McNemar exact</th><th>tasks that flip</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

function tasksTable(summary: RunSummary): string {
  const columns = summary.cells.map((c) => cellKey(c.harness, c.model));
  const head = columns.map((c) => `<th class="n">${escapeHtml(c)}</th>`).join('');
  const rows = summary.tasks
    .map((t) => `<tr><td>${escapeHtml(t.task)}</td>${columns.map((c) => `<td class="n">${heat(t.cells[c]?.passed ?? 0, t.cells[c]?.scored ?? 0)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table id="tasks"><thead><tr><th>task</th>${head}</tr></thead><tbody>
${rows}
</tbody></table>`;
}

function trialsTable(results: TrialResult[]): string {
  const rows = [...results]
    .sort((a, b) => a.task.localeCompare(b.task) || a.harness.localeCompare(b.harness) || a.model.localeCompare(b.model) || a.trial - b.trial)
    .map((r) => {
      const rollout = r.rollout ? `<a href="${escapeHtml(r.rollout)}">rollout</a>` : '—';
      const note = r.error ?? (r.agent.end !== 'completed' ? `agent ${r.agent.end}${r.agent.error ? `: ${r.agent.error}` : ''}` : '');
      const divergence = r.divergences?.length ? r.divergences.map((d) => `${d.kind}: ${d.message}`).join('; ') : '';
      return `<tr><td>${escapeHtml(r.task)}</td><td>${escapeHtml(r.harness)}</td><td>${escapeHtml(r.model)}</td><td class="n">${r.trial}</td><td class="${r.status}">${r.status}</td><td class="n">${num(r.reward)}</td><td class="n">${r.steps}</td><td class="n">${r.tool_errors}</td><td class="n">${num(r.tokens.input)} / ${num(r.tokens.cached_input)} / ${num(r.tokens.output)} / ${num(r.tokens.reasoning)}</td><td class="n">${usd(r.cost_usd)}</td><td class="n">${secs(r.timing.total_ms)}</td><td class="n">${duration(r.timing.harness_overhead_ms)}</td><td>${rollout}</td><td><code>${escapeHtml((divergence || note).split('\n')[0]!.slice(0, 200))}</code></td></tr>`;
    })
    .join('\n');
  return `<table id="trials"><thead><tr><th>task</th><th>harness</th><th>model</th><th class="n">#</th><th>status</th><th class="n">reward</th><th class="n">steps</th><th class="n">tool errors</th><th class="n">tokens in / cached / out / reasoning</th><th class="n">cost</th><th class="n">wall</th><th class="n">harness overhead</th><th>rollout</th><th>note</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

export function renderReportHtml(summary: RunSummary, results: TrialResult[], charts: Chart[], title = 'rig eval'): string {
  const solved = summary.trials.passed;
  const figures = charts.map((c) => `<figure id="chart-${c.id}"><figcaption>${escapeHtml(c.title)}</figcaption>${c.svg}</figure>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — ${escapeHtml(summary.run_id)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p class="meta">run ${escapeHtml(summary.run_id)} · ${escapeHtml(summary.harnesses.join(', '))} × ${escapeHtml(summary.models.join(', '))} · generated ${escapeHtml(summary.generated_at)}</p>
<div class="cards">
<div class="card"><b>${summary.trials.finished}/${summary.trials.planned}</b><span>trials finished</span></div>
<div class="card"><b>${solved}</b><span>passed</span></div>
<div class="card"><b>${summary.trials.errors}</b><span>errors (not scored)</span></div>
<div class="card"><b>${secs(summary.wall_ms)}</b><span>run wall time</span></div>
</div>
<h2>Harness × model</h2>
${cellsTable(summary)}
<h2>Charts</h2>
<div class="charts">
${figures}
</div>
<h2>Paired comparison</h2>
${comparisonsTable(summary)}
<h2>Tasks</h2>
${tasksTable(summary)}
<h2>Trials</h2>
<details open><summary>${results.length} trials</summary>
${trialsTable(results)}
</details>
</main>
</body>
</html>
`;
}
