// shell.git: DeepSeek TUI's read-only git tools, run through the orchestrator as argv (no shell
// quoting), so the exec policy and sandbox see exactly the git command.
import { CapabilityOptionError, type ResolvedTool } from '../../harness/profile.js';
import type { ToolSpec } from '../spec.js';
import { type Args, boolArg, fail, functionSpec, numberArg, ok, stringArg, truncateMiddle } from './common.js';

const SUBCOMMANDS = ['status', 'diff', 'log', 'show', 'blame'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function clampInt(value: number | undefined, fallback: number, min: number, max: number): number {
  return Math.min(Math.max(Math.trunc(value ?? fallback), min), max);
}

/** The git argv for a call, or an error text. */
export function gitArgv(subcommand: Subcommand, args: Args): string[] | string {
  const path = stringArg(args, 'path');
  const tail = path ? ['--', path] : [];
  switch (subcommand) {
    case 'status':
      return ['git', 'status', '--short', '--branch', ...tail];
    case 'diff':
      return ['git', 'diff', ...(boolArg(args, 'cached') ? ['--cached'] : []), `-U${clampInt(numberArg(args, 'unified'), 3, 0, 50)}`, ...tail];
    case 'log': {
      const argv = ['git', 'log', `--max-count=${clampInt(numberArg(args, 'max_count'), 20, 1, 200)}`];
      for (const [name, flag] of [['author', '--author'], ['since', '--since'], ['until', '--until']] as const) {
        const value = stringArg(args, name);
        if (value) argv.push(`${flag}=${value}`);
      }
      return [...argv, ...tail];
    }
    case 'show': {
      const rev = stringArg(args, 'rev');
      if (!rev) return 'git_show failed: rev is required';
      const patch = boolArg(args, 'patch') ?? true;
      const stat = boolArg(args, 'stat') ?? true;
      return ['git', 'show', ...(stat ? ['--stat'] : []), ...(patch ? [`-U${clampInt(numberArg(args, 'unified'), 3, 0, 50)}`] : ['--no-patch']), rev, ...tail];
    }
    case 'blame': {
      if (!path) return 'git_blame failed: path is required';
      const start = clampInt(numberArg(args, 'start_line'), 1, 1, Number.MAX_SAFE_INTEGER);
      const lines = clampInt(numberArg(args, 'max_lines'), 200, 1, 2000);
      const rev = stringArg(args, 'rev');
      return ['git', 'blame', `-L${start},+${lines}`, ...(boolArg(args, 'porcelain') ? ['--porcelain'] : []), ...(rev ? [rev] : []), '--', path];
    }
  }
}

export function createGitTool(tool: ResolvedTool): ToolSpec {
  const subcommand = tool.options['subcommand'];
  if (!SUBCOMMANDS.includes(subcommand as Subcommand)) {
    throw new CapabilityOptionError('options.subcommand', `must be one of ${SUBCOMMANDS.join(', ')}`);
  }
  return functionSpec(
    tool,
    { description: `git ${String(subcommand)}`, parameters: { type: 'object', properties: {} }, parallelSafe: true, runsCommands: true },
    async (args, ctx) => {
      const argv = gitArgv(subcommand as Subcommand, args);
      if (typeof argv === 'string') return fail(argv);
      const outcome = await ctx.caps.exec({ command: argv.join(' '), argv, cwd: ctx.cwd, timeoutMs: 30_000 });
      if (outcome.declined) return fail(outcome.declined);
      const output = truncateMiddle(outcome.output, 30_000);
      if (outcome.exitCode !== 0) return fail(`git exited with code ${outcome.exitCode ?? 'none'}\n${output}`);
      return ok(output === '' ? '(no output)' : output);
    },
  );
}

