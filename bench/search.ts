// Search at repository scale: a generated tree the size of a Codex checkout (~6,500 files, ~90 MB,
// nested .gitignore files, ignored build and dependency folders), searched through rig's Grep and
// Glob tools in every harness style and with ripgrep directly, plus the longest event-loop stall
// seen while rig searches (the TUI and the turn loop share that thread).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { ResolvedTool } from '../src/harness/profile.js';
import { createGlobTool } from '../src/tools/harness/glob.js';
import { createGrepTool } from '../src/tools/harness/grep.js';
import { grepArgs, listArgs } from '../src/tools/search/ripgrep.js';
import { searchBackend } from '../src/tools/search/locate.js';
import { useWorkerScript } from '../src/tools/search/offthread.js';
import type { GrepQuery } from '../src/tools/search/types.js';
import type { ToolContext, ToolSpec } from '../src/tools/spec.js';
import { median } from './measure.js';
import type { Metric } from './report.js';

const FILES = 6_500;
const PATTERN = 'needle_[0-9]+';
const STYLES = ['claude', 'zcode', 'kimi', 'kimi-cli', 'qwen', 'opencode', 'deepseek'] as const;

/** A deterministic PRNG, so every run searches the same bytes. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = ['let', 'fn', 'const', 'struct', 'impl', 'return', 'match', 'self', 'value', 'config', 'thread', 'turn', 'event', 'item', 'await', 'async', 'pub', 'mod', 'use', 'type'];

export function generateTree(): { root: string; bytes: number; files: number } {
  const root = mkdtempSync(join(tmpdir(), 'rig-bench-search-'));
  const random = prng(18);
  let bytes = 0;
  let files = 0;
  const write = (rel: string, content: string): void => {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    bytes += content.length;
    files++;
  };
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  write('.gitignore', 'target/\nnode_modules/\n*.snap.new\n');
  const exts = ['rs', 'rs', 'rs', 'ts', 'ts', 'md', 'json', 'toml'];
  for (let i = 0; i < FILES; i++) {
    const crate = `crates/c${i % 60}`;
    const dir = `${crate}/src/m${Math.floor(i / 60) % 12}`;
    const ext = exts[i % exts.length]!;
    const lines: string[] = [];
    const count = 150 + Math.floor(random() * 200);
    for (let l = 0; l < count; l++) {
      const words = Array.from({ length: 6 + Math.floor(random() * 8) }, () => WORDS[Math.floor(random() * WORDS.length)]!);
      if (random() < 0.0008) words.push(`needle_${i}_${l}`);
      lines.push(`    ${words.join(' ')};`);
    }
    write(`${dir}/f${i}.${ext}`, `${lines.join('\n')}\n`);
    if (i % 60 === 0) write(`${crate}/.gitignore`, 'generated/\n*.tmp\n');
    if (i % 100 === 0) write(`${crate}/generated/g${i}.rs`, 'needle_ignored\n'.repeat(200));
  }
  for (let i = 0; i < 300; i++) write(`target/debug/build/b${i}.rs`, 'needle_ignored\n'.repeat(100));
  for (let i = 0; i < 300; i++) write(`node_modules/p${i}/index.js`, 'needle_ignored\n'.repeat(100));
  return { root, bytes, files };
}

function context(root: string): ToolContext {
  const unsupported = async (): Promise<never> => {
    throw new Error('not used by the search bench');
  };
  return {
    cwd: root,
    threadId: 'bench',
    signal: new AbortController().signal,
    threadState: new Map(),
    emitItem: () => {},
    newItemId: () => 'item',
    caps: { exec: unsupported, writeStdin: unsupported, applyChanges: unsupported, updatePlan: () => {}, attachImage: () => {}, canWrite: () => false },
  };
}

function tool(create: (tool: ResolvedTool) => ToolSpec, name: string, capability: string, style: string): ToolSpec {
  return create({ name, capability, options: { style }, at: 'bench' } as unknown as ResolvedTool);
}

function runRg(rg: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(rg, [...args, '--', '.'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', () => {});
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

async function timed(run: () => Promise<unknown>, runs: number): Promise<number> {
  await run(); // warm the page cache and the JIT
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

export async function benchSearch(runs: number, repoRoot: string): Promise<Metric[]> {
  const backend = searchBackend();
  if (backend.kind !== 'ripgrep') throw new Error(`search bench needs an rg binary (${backend.reason})`);
  const rg = backend.path;
  const tree = generateTree();
  const metrics: Metric[] = [];
  try {
    const ctx = context(tree.root);
    const query: GrepQuery = { pattern: PATTERN, root: tree.root, globs: [], excludes: [], ignoreCase: false, multiline: false, before: 0, after: 0, includeIgnored: false };
    const rgFiles = await timed(() => runRg(rg, grepArgs(query, 'files', false)!, tree.root), runs);
    const rgLines = await timed(() => runRg(rg, grepArgs(query, 'lines', false)!, tree.root), runs);
    const rgGlob = await timed(() => runRg(rg, [...listArgs({ root: tree.root, includeIgnored: false }), '--glob=*.rs'], tree.root), runs);
    const size = `${tree.files} files, ${(tree.bytes / 1e6).toFixed(0)} MB`;
    metrics.push(
      { key: 'search.rg_files_ms', label: `rg -l directly (${size})`, value: rgFiles, unit: 'ms', note: rg },
      { key: 'search.rg_lines_ms', label: 'rg -n directly', value: rgLines, unit: 'ms' },
      { key: 'search.rg_glob_ms', label: "rg --files -g '*.rs' directly", value: rgGlob, unit: 'ms' },
    );

    // The same monitor over an idle second: on a shared machine the OS alone stalls the loop.
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    idle.disable();
    metrics.push({ key: 'search.idle_event_loop_delay_ms', label: 'longest event-loop stall over an idle second (noise floor)', value: idle.max / 1e6, unit: 'ms' });

    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let worst = 0;
    for (const style of STYLES) {
      const grep = tool(createGrepTool, 'grep', 'fs.grep', style);
      const filesMode = style !== 'qwen' && style !== 'opencode' && style !== 'deepseek';
      const ms = await timed(async () => {
        const result = await grep.handle({ pattern: PATTERN }, ctx);
        if (!result.success) throw new Error(`grep (${style}) failed: ${String(result.output)}`);
      }, runs);
      const ratio = ms / (filesMode ? rgFiles : rgLines);
      worst = Math.max(worst, ratio);
      metrics.push({ key: `search.grep_${style}_ms`, label: `rig grep, ${style} style`, value: ms, unit: 'ms', note: `${ratio.toFixed(2)}x rg ${filesMode ? '-l' : '-n'}` });
    }
    const glob = tool(createGlobTool, 'glob', 'fs.glob', 'opencode');
    const globMs = await timed(() => glob.handle({ pattern: '**/*.rs' }, ctx), runs);
    delay.disable();
    const globRatio = globMs / rgGlob;
    metrics.push(
      { key: 'search.glob_opencode_ms', label: "rig glob '**/*.rs', opencode style", value: globMs, unit: 'ms', note: `${globRatio.toFixed(2)}x rg --files` },
      { key: 'search.worst_ratio', label: 'rig search / rg, worst of grep styles and glob', value: Math.max(worst, globRatio), unit: 'x', target: 2 },
      { key: 'search.max_event_loop_delay_ms', label: 'longest event-loop stall while rig searches (rg)', value: delay.max / 1e6, unit: 'ms', target: 50 },
    );

    // The fallback (no rg) in the built worker thread, as the CLI runs it.
    const previous = process.env['RIG_RIPGREP'];
    process.env['RIG_RIPGREP'] = 'off';
    useWorkerScript(join(repoRoot, 'dist', 'search-worker.js'));
    try {
      const fallbackDelay = monitorEventLoopDelay({ resolution: 5 });
      fallbackDelay.enable();
      const grep = tool(createGrepTool, 'grep', 'fs.grep', 'opencode');
      const fallbackMs = await timed(() => grep.handle({ pattern: PATTERN }, ctx), Math.min(runs, 3));
      fallbackDelay.disable();
      metrics.push(
        { key: 'search.fallback_grep_opencode_ms', label: 'rig grep without rg (fallback, worker thread), opencode style', value: fallbackMs, unit: 'ms' },
        { key: 'search.fallback_max_event_loop_delay_ms', label: 'longest event-loop stall during the fallback search', value: fallbackDelay.max / 1e6, unit: 'ms', target: 50 },
      );
    } finally {
      useWorkerScript(undefined);
      if (previous === undefined) delete process.env['RIG_RIPGREP'];
      else process.env['RIG_RIPGREP'] = previous;
    }
  } finally {
    rmSync(tree.root, { recursive: true, force: true });
  }
  return metrics;
}
