// Entry point. `--version` answers before anything else loads; every other command loads only the
// rooms it needs (see program.ts), so startup stays close to bare Node.
import { settleYoungGenerationAfterStartup } from './heap-settle.js';

declare const RIG_VERSION: string;

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`rig ${RIG_VERSION}\n`);
} else {
  settleYoungGenerationAfterStartup();
  const { runCli } = await import('./program.js');
  await runCli(args);
}
