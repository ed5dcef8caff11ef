// rig eval TASKS --harness a,b --model m1,m2 [--provider P] [--trials N] [--parallel K] [--out DIR]
// rig eval --resume DIR | rig eval --replay RUN_DIR | rig eval report DIR [--json]
import type { Command } from 'commander';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function io() {
  return { stdout: (text: string) => void process.stdout.write(text), stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

export function registerEval(program: Command): void {
  const evalCommand = program
    .command('eval')
    .description('run tasks (rig JSONL, SWE-bench JSONL, Harbor folders) for every harness x model; write results.jsonl, summary.json and report.html')
    .argument('[tasks]', 'a tasks .jsonl file, a Harbor task folder, or a folder of tasks (e.g. examples/eval)')
    .option('--harness <ids>', 'comma-separated harness ids (default: the configured harness, else native)')
    .option('-m, --model <models>', 'comma-separated models (default: the configured model)')
    .option('--provider <id>', 'model provider for every trial (default: the configured one)')
    .option('--trials <n>', 'trials per task, harness and model', '1')
    .option('--parallel <k>', 'trials running at once')
    .option('--out <dir>', 'run folder (default eval-runs/<run id>)')
    .option('--resume <dir>', 'continue an interrupted run; finished trials are not run again')
    .option('--replay <run-dir>', 're-run a run\'s trials against their recorded model responses and report divergences (exit 1 if any)')
    .option('--queue <url>', 'enqueue the trials on BullMQ in Redis (redis://HOST:PORT/N) for `rig worker`s to run')
    .option('--queue-name <name>', 'BullMQ queue name', 'rig-eval')
    .option('--timeout <seconds>', 'wall-clock budget of each trial\'s agent (a task\'s own timeout wins)', '600')
    .option('--max-tokens <n>', 'token budget (input + output) of each trial\'s agent')
    .option('--max-steps <n>', 'most model requests in a trial (max_turn_steps)')
    .option('--check-timeout <seconds>', 'time limit of each check (a task\'s own wins)', '300')
    .option('-c, --config <key=value>', 'config override for every agent (repeatable)', collect)
    .option('-p, --profile <name>', 'config profile for every agent')
    .option('--repos <dir>', 'where SWE-bench rows\' repos ("owner/name") are cloned')
    .option('--keep-workspaces', 'leave each trial\'s workspace in the temp folder')
    .option('--isolate', 'run each trial\'s agent as its own `rig exec --json` process (default: an engine thread in this process)')
    .option('--json', 'print summary.json on stdout at the end')
    .action(async (tasks: string | undefined, flags: Record<string, unknown>) => {
      const { runEvalCommand } = await import('../../eval/run.js');
      process.exitCode = await runEvalCommand(tasks, flags, io());
    });

  evalCommand
    .command('report')
    .description('rebuild summary.json and report.html of a run folder from its results.jsonl')
    .argument('<dir>', 'the run folder')
    .option('--json', 'print the summary on stdout')
    .action(async (dir: string, flags: { json?: boolean }) => {
      const { runEvalReport } = await import('../../eval/run.js');
      process.exitCode = await runEvalReport(dir, flags, io());
    });
}
