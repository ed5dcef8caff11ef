// `rig eval examples/eval --harness native,claude-code --model mock-model --provider mock` through
// the real CLI, against the loopback mock provider running a scripted model, with both runners:
// every trial's agent (an engine thread in the eval process, or a `rig exec --json` child with
// --isolate) works under the sandbox, is checked afterwards, and lands in results.jsonl,
// summary.json and report.html with the figures the issue asks for.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/eval/results.js';
import type { RunSummary } from '../../src/eval/summary.js';
import { loadTasks } from '../../src/eval/tasks/load.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { REPO_ROOT, jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { dumpDom, screenshot } from './support/chromium.js';
import { RUNNERS, runnerFlags } from './support/runners.js';
import { defaultSolves, scriptedModel } from './support/scripted-model.js';

const EXAMPLES = join(REPO_ROOT, 'examples', 'eval');
const tasks = loadTasks(EXAMPLES);
const solves = defaultSolves(tasks);

describe.each(RUNNERS)('rig eval against the mock provider (%s runner)', (runner) => {
  let mock: MockProvider;
  let home: string;
  let out: string;
  let cwd: string;
  let run: Awaited<ReturnType<typeof runRig>>;

  beforeAll(async () => {
    mock = await startMockProvider();
    const model = scriptedModel({ tasks, solves });
    mock.enqueue(...Array.from({ length: 400 }, () => model));
    home = tempRigHome({ url: mock.url, extra: '\n[eval.prices."mock-model"]\ninput = 2.0\ncached_input = 0.5\noutput = 8.0\n' });
    cwd = tempDir('eval-cwd');
    out = join(cwd, 'run');
    run = await runRig(['eval', EXAMPLES, '--harness', 'native,claude-code', '--model', 'mock-model', '--provider', 'mock', '--parallel', '2', '--out', out, ...runnerFlags(runner)], { cwd, home });
  }, 600_000);

  afterAll(async () => {
    await mock.close();
    removeDir(home);
    removeDir(cwd);
  });

  it('runs every (task, harness) once and writes results.jsonl, summary.json and report.html', () => {
    expect(run.code, run.stderr).toBe(0);
    const results = jsonLines(readFileSync(join(out, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
    expect(results).toHaveLength(tasks.length * 2);
    expect(new Set(results.map((r) => r.key)).size).toBe(results.length);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).runner).toBe(runner);
  });

  it('scores each trial by its check: passes where the scripted model solved the task, fails elsewhere', () => {
    const results = jsonLines(readFileSync(join(out, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
    for (const r of results) {
      const expected = solves(r.task, r.harness);
      expect({ task: r.task, harness: r.harness, status: r.status, error: r.error, agent: r.agent }).toEqual({ task: r.task, harness: r.harness, status: expected ? 'passed' : 'failed', error: undefined, agent: { end: 'completed' } });
      expect(r.reward).toBe(expected ? 1 : 0);
    }
    const passed = results.filter((r) => r.pass).length;
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(results.length);
  });

  it('records steps, tool errors, tokens, cost, timing and the rollout of each trial', () => {
    const results = jsonLines(readFileSync(join(out, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
    for (const r of results) {
      expect(r.steps).toBe(3);
      expect(r.tool_errors).toBe(solves(r.task, r.harness) ? 0 : 1);
      const perStep = r.harness === 'native' ? 1000 : 1500;
      expect(r.tokens).toEqual({ input: 3 * perStep, cached_input: 3 * Math.round(perStep * 0.4), output: 180, reasoning: 60 });
      const cost = ((r.tokens.input - r.tokens.cached_input) * 2 + r.tokens.cached_input * 0.5 + r.tokens.output * 8) / 1e6;
      expect(r.cost_usd).toBeCloseTo(cost, 8);
      expect(r.timing.total_ms).toBeGreaterThanOrEqual(r.timing.agent_ms + r.timing.check_ms);
      expect(r.timing.harness_overhead_ms).toBeGreaterThan(0);
      expect(r.rollout).toBe(join('trials', r.key, 'rollout.jsonl'));
      const rollout = readFileSync(join(out, r.rollout!), 'utf8');
      expect(rollout).toContain(r.thread_id!);
      expect(r.runner).toBe(runner);
      expect(existsSync(r.workspace)).toBe(false);
    }
  });

  it('summarises pass rates with Wilson intervals and the paired comparison with its flips', () => {
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.cells.map((c) => c.harness)).toEqual(['native', 'claude-code']);
    for (const cell of summary.cells) {
      const expected = tasks.filter((t) => solves(t.id, cell.harness)).length;
      expect(cell.passed).toBe(expected);
      expect(cell.scored).toBe(tasks.length);
      expect(cell.ci95[0]).toBeLessThan(cell.pass_rate);
      expect(cell.ci95[1]).toBeGreaterThan(cell.pass_rate);
      expect(cell.cost_per_solved_usd).toBeCloseTo(cell.cost_usd! / expected, 6);
    }
    const [comparison] = summary.comparisons;
    expect(comparison!.pairs).toBe(tasks.length);
    expect(comparison!.flips.a_only).toEqual(tasks.filter((t) => solves(t.id, 'native') && !solves(t.id, 'claude-code')).map((t) => t.id).sort());
    expect(comparison!.flips.b_only).toEqual(tasks.filter((t) => !solves(t.id, 'native') && solves(t.id, 'claude-code')).map((t) => t.id).sort());
    expect(comparison!.p_value).toBeGreaterThan(0);
    expect(comparison!.p_value).toBeLessThanOrEqual(1);
  });

  it('renders report.html in headless Chromium: every chart as SVG, the tables filled, nothing loaded from outside', async () => {
    const page = join(out, 'report.html');
    const html = readFileSync(page, 'utf8');
    expect(html).not.toMatch(/<script|<link|src="(?!data:)|url\(http/i);
    const dom = await dumpDom(page);
    for (const id of ['pass-rate', 'paired', 'per-solved', 'wall-time']) {
      const figure = new RegExp(`<figure id="chart-${id}">[\\s\\S]*?</figure>`).exec(dom)?.[0] ?? '';
      expect(figure, id).toMatch(/<svg[^>]*class="marks"/);
      // Marks were drawn, not just an empty frame.
      expect(figure.match(/<path|<rect/g)?.length ?? 0, id).toBeGreaterThan(3);
    }
    const rows = (table: string) => (new RegExp(`<table id="${table}">[\\s\\S]*?</table>`).exec(dom)?.[0].match(/<tr>/g)?.length ?? 0) - 1;
    expect(rows('cells')).toBe(2);
    expect(rows('comparisons')).toBe(1);
    expect(rows('tasks')).toBe(tasks.length);
    expect(rows('trials')).toBe(tasks.length * 2);
    expect(dom).toContain('McNemar exact');
    // The harness overhead column reads in the unit it is measured in (in-process it is well under a second).
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    const cellsTable = /<table id="cells">[\s\S]*?<\/table>/.exec(dom)![0];
    const overheads = [...cellsTable.matchAll(/<tr>(?:<td[^>]*>[^<]*<\/td>){12}<td class="n">([^<]*)<\/td><\/tr>/g)].map((m) => m[1]);
    const shown = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
    expect(overheads).toEqual(summary.cells.map((c) => shown(c.harness_overhead_ms_median)));

    const png = await screenshot(page);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(30_000);
    // `RIG_SAVE_REPORT_SCREENSHOT=1 npx vitest run test/eval/eval-cli.test.ts` refreshes the README's picture.
    if (process.env['RIG_SAVE_REPORT_SCREENSHOT'] && runner === 'in-process') writeFileSync(join(REPO_ROOT, 'docs', 'eval-report.png'), png);
  }, 120_000);

  it('`rig eval report DIR --json` rebuilds summary.json and report.html from results.jsonl and prints the summary', async () => {
    const before = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    rmSync(join(out, 'report.html'));
    const report = await runRig(['eval', 'report', out, '--json'], { cwd, home });
    expect(report.code, report.stderr).toBe(0);
    const printed = JSON.parse(report.stdout) as RunSummary;
    expect(printed.cells).toEqual(before.cells);
    expect(printed.comparisons).toEqual(before.comparisons);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    const missing = await runRig(['eval', 'report', join(cwd, 'nothing-here')], { cwd, home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/is not a rig eval run folder \(no run\.json\)/);
  }, 120_000);
});
