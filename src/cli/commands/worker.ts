// rig worker --queue redis://HOST:PORT/N [--concurrency K]: runs `rig eval --queue` trials.
import type { Command } from 'commander';

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run rig eval trials from a BullMQ queue in Redis (needs the tasks\' repositories at the same paths)')
    .requiredOption('--queue <url>', 'the queue: redis://HOST:PORT/N')
    .option('--queue-name <name>', 'BullMQ queue name', 'rig-eval')
    .option('--concurrency <k>', 'trials running at once', '1')
    .option('--lock-duration <ms>', 'how long a job stays locked without a heartbeat before it counts as stalled', '30000')
    .option('--stalled-interval <ms>', 'how often to look for stalled jobs (of workers that died)', '30000')
    .option('--isolate', 'run each trial\'s agent as its own `rig exec --json` process (default: as the run says; in-process engine threads unless it ran with --isolate)')
    .action(async (flags: { queue: string; queueName: string; concurrency: string; lockDuration: string; stalledInterval: string; isolate?: boolean }) => {
      const { runWorkerCommand } = await import('../../eval/worker-command.js');
      process.exitCode = await runWorkerCommand(flags);
    });
}
