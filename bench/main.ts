// `npm run bench`: startup, per-step overhead, memory, disk and patch figures of the built CLI,
// each the median of several real runs, printed against the targets and saved for the next run.
//
//   npm run bench -- --runs 9 --only startup,steps
//   flags: --runs N (default 7), --only LIST (startup, steps, patch, search, classify, sessions, sandbox, mcp, tui, tui-session, eval, checkpoints, app-server, agents, soak, vs-codex), --strict
//   (exit 1 when a target is missed), --vs codex (the 64-step session and the soak through rig and Codex side by side;
//   alone it runs just those, 5 runs unless --runs), --soak-steps N (default 320), --soak-wire responses|chat|messages (the wire
//   rig speaks in the soak; default responses), --sandbox on|off (for soak and vs-codex).
//
// bench/sessions.ts, bench/sandbox.ts and bench/mcp.ts (thread index, sandbox and MCP figures) are optional: run.mjs
// bundles them next to this file when they exist, and they are loaded here by path.
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanupMeasure, HAVE_GNU_TIME } from './measure.js';
import { benchAppServer } from './app-server.js';
import { benchCheckpoints } from './checkpoints.js';
import { benchTurnCheckpoints } from './checkpoints-turn.js';
import { benchFirstCommandInLargeRepo } from './checkpoints-first-command.js';
import { benchClassify } from './classify.js';
import { benchPatch } from './patch.js';
import { benchSearch } from './search.js';
import { readPrevious, renderTable, saveResults, verdict, type Metric } from './report.js';
import { benchStartup } from './startup.js';
import { benchSteps } from './steps.js';
import { benchTui } from './tui.js';
import { benchTuiSession } from './tui-session.js';
import { benchEval } from './eval.js';
import { benchSoak } from './soak.js';
import { SESSION_WIRES, type SessionWire } from './agent-session.js';
import { benchVsCodex, vsCodexSetup } from './vs-codex.js';
import { createBenchEnv } from './workspace.js';
import { toMetrics } from './normalize.js';

const SECTIONS = ['startup', 'steps', 'patch', 'search', 'classify', 'sessions', 'sandbox', 'mcp', 'tui', 'tui-session', 'eval', 'checkpoints', 'app-server', 'agents', 'soak', 'vs-codex'] as const;
type Section = (typeof SECTIONS)[number];

interface Options {
  runs: number;
  only: Set<Section>;
  strict: boolean;
  vsCodex: boolean;
  soakSteps: number;
  soakWire: SessionWire;
  sandbox: 'on' | 'off';
}

/** Sections a plain `npm run bench` runs: all but the Codex comparison, which needs a Codex binary. */
const DEFAULT_SECTIONS = SECTIONS.filter((section) => section !== 'vs-codex');

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 7, only: new Set(DEFAULT_SECTIONS), strict: false, vsCodex: false, soakSteps: 320, soakWire: 'responses', sandbox: 'on' };
  let runsGiven = false;
  let onlyGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--runs') {
      options.runs = Number.parseInt(argv[++i] ?? '', 10);
      if (!(options.runs >= 1)) throw new Error('--runs needs a positive number, e.g. --runs 9');
      runsGiven = true;
    } else if (arg === '--only') {
      const names = (argv[++i] ?? '').split(',').filter(Boolean);
      const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
      if (names.length === 0 || unknown.length > 0) throw new Error(`--only takes a comma-separated list of: ${SECTIONS.join(', ')}`);
      options.only = new Set(names as Section[]);
      onlyGiven = true;
    } else if (arg === '--strict') {
      options.strict = true;
    } else if (arg === '--vs') {
      const other = argv[++i];
      if (other !== 'codex') throw new Error(`--vs takes \`codex\` (the only agent compared), not ${other === undefined ? 'nothing' : JSON.stringify(other)}`);
      options.vsCodex = true;
    } else if (arg === '--soak-steps') {
      options.soakSteps = Number.parseInt(argv[++i] ?? '', 10);
      if (!(options.soakSteps >= 66)) throw new Error('--soak-steps needs a number of at least 66, e.g. --soak-steps 320');
    } else if (arg === '--soak-wire') {
      const wire = argv[++i];
      if (!(SESSION_WIRES as readonly (string | undefined)[]).includes(wire)) throw new Error(`--soak-wire takes one of: ${SESSION_WIRES.join(', ')}`);
      options.soakWire = wire as SessionWire;
    } else if (arg === '--sandbox') {
      const choice = argv[++i];
      if (choice !== 'on' && choice !== 'off') throw new Error('--sandbox takes on (workspace-write, each agent its own sandbox) or off');
      options.sandbox = choice;
    } else {
      throw new Error(`unknown bench argument ${arg} (flags: --runs N, --only ${SECTIONS.join(',')}, --strict, --vs codex, --soak-steps N, --soak-wire ${SESSION_WIRES.join('|')}, --sandbox on|off)`);
    }
  }
  if (options.vsCodex) {
    if (!onlyGiven) options.only = new Set(['vs-codex', 'soak']);
    if (!runsGiven) options.runs = 5; // the table: median of 5 warm runs each
  }
  return options;
}

/** Loads a bundled optional module (sessions.js, sandbox.js) next to this bundle, if it was built. */
async function loadOptional(name: string): Promise<Record<string, unknown> | undefined> {
  const outdir = process.env['RIG_BENCH_OUT'];
  const file = outdir ? join(outdir, `${name}.js`) : undefined;
  if (!file || !existsSync(file)) return undefined;
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Labels and targets (from the issue) for the other helpers' figures, when they bring none. */
const KNOWN: Record<string, { label: string; target?: number }> = {
  'sessions.benchResume10k': { label: 'resume a 10k-item thread (start -> prompt)', target: 300 },
  'sessions.benchList5000': { label: '`rig sessions list` over 5000 threads', target: 100 },
  'sandbox.benchSandboxOverhead.bareMs': { label: '`true` through the process layer, bare' },
  'sandbox.benchSandboxOverhead.bwrapMs': { label: '`true` through the process layer, under bwrap' },
  'sandbox.benchSandboxOverhead.overheadMs': { label: 'sandbox (bwrap, workspace-write) overhead per command, a sandbox of its own', target: 15 },
  'sandbox.benchSandboxOverhead.aheadMs': { label: '`true` through the process layer, in a sandbox started ahead' },
  'sandbox.benchSandboxOverhead.aheadOverheadMs': { label: 'sandbox overhead per command, in a sandbox started ahead (as model commands run)', target: 15 },
  'mcp.benchMcpStart.slowestAloneMs': { label: 'MCP: slowest of 5 stdio servers started alone' },
  'mcp.benchMcpStart.aloneOverheadMs': { label: "MCP: that server alone - its own initialize time" },
  'mcp.benchMcpStart.fiveTogetherMs': { label: 'MCP: 5 stdio servers started together' },
  'mcp.benchMcpStart.slowestOwnMs': { label: "MCP: the slowest server's own initialize time (in that run)" },
  'mcp.benchMcpStart.overheadMs': { label: "MCP: 5 servers together - the slowest server's own time", target: 30 },
  'mcp.benchMcpStart.threadNoServersMs': { label: 'MCP: thread start without servers' },
  'mcp.benchMcpStart.threadFiveServersMs': { label: 'MCP: thread start with 5 stdio servers (all required)' },
  'mcp.benchMcpStart.threadSlowestOwnMs': { label: "MCP: the slowest server's own time in those thread starts" },
  'mcp.benchMcpStart.threadOverheadMs': { label: "MCP: thread start with 5 servers - without - the slowest server's own time", target: 30 },
  'mcp.benchMcpStart.execFiveServersMs': { label: 'MCP: rig exec, spawn to first request with 5 stdio servers (all required)' },
  'mcp.benchMcpStart.execOverheadMs': { label: 'MCP: rig exec with 5 servers - without - the slowest server\'s own time', target: 30 },
  'mcp.benchMcpStart.plainClientOverheadMs': { label: 'MCP: for scale, a plain Node script launching the 5 in config order - slowest own time' },
  'mcp.benchMcpCallOverhead.callWallMs': { label: 'MCP: tools/call round trip' },
  'mcp.benchMcpCallOverhead.serverMs': { label: "MCP: the server's own time per call" },
  'mcp.benchMcpCallOverhead.overheadMs': { label: 'MCP: call overhead beyond the server', target: 2 },
  'mcp.benchMcpCallOverhead.pipelineWallMs': { label: "MCP: a thread's tool call through the orchestrator" },
  'mcp.benchMcpCallOverhead.pipelineOverheadMs': { label: 'MCP: thread call overhead beyond the server (orchestrator included)', target: 2 },
  'sandbox.benchPolicyScan.scan10kMs': { label: 'sandbox policy with the start-up walk, 10,000-file tree', target: 50 },
  'sandbox.benchPolicyScan.noScanMs': { label: 'sandbox policy without the walk' },
  'agents.benchAgentSpawn.spawnToFirstRequestMs': { label: "sub-agents: spawn_agent -> the child's first model request", target: 30 },
  'agents.benchAgentsParallel.eightChildrenMs': { label: 'sub-agents: 8 children in parallel, each a sandboxed command (wall)' },
  'agents.benchAgentsParallel.errorCount': { label: 'sub-agents: errors among those 8 children', target: 0 },
};

function withKnownTargets(metrics: Metric[]): Metric[] {
  return metrics.map((metric) => {
    const known = KNOWN[metric.key];
    if (!known) return metric;
    return { ...metric, label: metric.label === metric.key ? known.label : metric.label, ...(metric.target === undefined && known.target !== undefined ? { target: known.target } : {}) };
  });
}

async function runOptional(module: string, exportsWanted: string[], log: (text: string) => void): Promise<Metric[]> {
  const loaded = await loadOptional(module);
  if (!loaded) {
    log(`(bench/${module}.ts is not there yet: skipped)`);
    return [];
  }
  const metrics: Metric[] = [];
  for (const name of exportsWanted) {
    const fn = loaded[name];
    if (typeof fn !== 'function') {
      log(`(bench/${module}.ts does not export ${name}(): skipped)`);
      continue;
    }
    try {
      metrics.push(...withKnownTargets(toMetrics(`${module}.${name}`, await (fn as () => unknown)())));
    } catch (error) {
      log(`bench/${module}.ts ${name}() failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return metrics;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const repoRoot = process.env['RIG_BENCH_REPO'];
  if (!repoRoot) throw new Error('run the bench with `npm run bench` (bench/run.mjs sets RIG_BENCH_REPO)');
  if (!existsSync(join(repoRoot, 'dist', 'rig.cjs'))) throw new Error('dist/rig.cjs is missing: run `npm run build` first');
  const log = (text: string) => process.stderr.write(`${text}\n`);
  if (!HAVE_GNU_TIME) log('(no /usr/bin/time: peak RSS figures are not available)');

  const env = createBenchEnv(repoRoot);
  const metrics: Metric[] = [];
  try {
    if (options.only.has('startup')) {
      log(`startup: rig --version, bare node, spawn -> first request (${options.runs} runs each)...`);
      metrics.push(...(await benchStartup(env, options.runs)).metrics);
    }
    if (options.only.has('steps')) {
      log(`steps: 1- and 20-step sessions against the mock (${options.runs} runs each, two tools)...`);
      metrics.push(...(await benchSteps(env, options.runs)));
    }
    if (options.only.has('patch')) {
      log('patch: 100 hunks on a 20,000-line file...');
      metrics.push(...(await benchPatch(Math.max(options.runs, 15))));
    }
    if (options.only.has('search')) {
      log('search: grep and glob on a generated 6,500-file / 90 MB tree, rig vs rg, event-loop stalls...');
      metrics.push(...(await benchSearch(options.runs, repoRoot)));
    }
    if (options.only.has('classify')) {
      log('classify: dangerous/known-safe verdict per command, with and without tree-sitter...');
      metrics.push(...(await benchClassify()));
    }
    if (options.only.has('sessions')) {
      log('sessions: resume of a 10k-item thread, list of 5000 sessions...');
      metrics.push(...(await runOptional('sessions', ['benchResume10k', 'benchList5000'], log)));
    }
    if (options.only.has('mcp')) {
      log('mcp: 5 stdio servers started together, tools/call overhead...');
      metrics.push(...(await runOptional('mcp', ['benchMcpStart', 'benchMcpCallOverhead'], log)));
    }
    if (options.only.has('tui')) {
      log('tui: first frame, keystroke -> screen with a 10k-item transcript, bytes per key, idle CPU, typing during a fast stream...');
      metrics.push(...(await benchTui(env, options.runs)));
    }
    if (options.only.has('tui-session')) {
      log('tui-session: `rig` first frame on the engine, keystrokes, bytes and idle CPU on a 10,000-item thread (pty)...');
      metrics.push(...(await benchTuiSession(env, options.runs)));
    }
    if (options.only.has('checkpoints')) {
      log('checkpoints: cost per turn touching 5 files of a 10,000-file repository...');
      metrics.push(...(await benchCheckpoints(Math.max(options.runs, 15))));
      metrics.push(...(await benchTurnCheckpoints(Math.max(options.runs, 15))));
      metrics.push(...(await benchFirstCommandInLargeRepo(env, options.runs)));
    }
    if (options.only.has('sandbox')) {
      log('sandbox: overhead of a sandboxed command, policy walk of a 10k-file tree...');
      metrics.push(...(await runOptional('sandbox', ['benchSandboxOverhead', 'benchPolicyScan'], log)));
    }
    if (options.only.has('app-server')) {
      log('app-server: turn/start -> first model request (warm) vs rig exec, memory per idle thread with 50 threads...');
      metrics.push(...(await benchAppServer(env, options.runs)));
    }
    if (options.only.has('agents')) {
      log('agents: spawn -> child first request, 8 children in parallel...');
      metrics.push(...(await runOptional('agents', ['benchAgentSpawn', 'benchAgentsParallel'], log)));
    }
    if (options.only.has('eval')) {
      log('eval: per-trial overhead beyond the agent, trials per minute for --parallel 1, 2, 4...');
      metrics.push(...(await benchEval(env, options.runs)));
    }
    if (options.only.has('vs-codex') || options.only.has('soak')) {
      const codex = options.vsCodex || options.only.has('vs-codex') ? vsCodexSetup(env) : undefined;
      try {
        if (codex && options.only.has('vs-codex')) {
          log(`vs-codex: the scripted 64-step session through rig and Codex (${options.runs} warm runs each, interleaved)...`);
          metrics.push(...(await benchVsCodex(env, codex, { runs: options.runs, sandbox: options.sandbox }, log)));
        }
        if (options.only.has('soak')) {
          log(`soak: a ${options.soakSteps}-step session, each command printing ~1 KB${codex ? ', rig and Codex' : ''}...`);
          metrics.push(...(await benchSoak(env, { steps: options.soakSteps, sandbox: options.sandbox, wire: options.soakWire, ...(codex ? { codex } : {}) }, log)));
        }
      } finally {
        codex?.cleanup();
      }
    }
  } finally {
    env.cleanup();
    cleanupMeasure();
  }

  const resultsDir = join(repoRoot, 'bench', 'results');
  const previous = readPrevious(resultsDir);
  process.stdout.write(`\n${renderTable(metrics, previous)}\n\n`);
  if (previous) process.stdout.write(`vs prev = this run / the run of ${previous.date}\n`);
  const partial = DEFAULT_SECTIONS.some((section) => !options.only.has(section));
  saveResults(resultsDir, metrics, partial ? previous : undefined);
  process.stdout.write(`saved to ${join(resultsDir, 'latest.json')} (node ${process.version}, ${options.runs} runs per median)\n`);
  const [load] = loadavg();
  if (load !== undefined && load > cpus().length * 0.75) {
    process.stdout.write(`warning: the machine was busy (load ${load.toFixed(1)} on ${cpus().length} cores at the end): the figures are noisy, compare runs made on a quiet machine\n`);
  }
  const missed = metrics.filter((metric) => verdict(metric) === 'FAIL');
  if (missed.length > 0) process.stdout.write(`missed targets: ${missed.map((metric) => metric.label).join('; ')}\n`);
  return options.strict && missed.length > 0 ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
