// dist/rig.js, the module bin/rig.js imports: answers `--version` before anything else loads (the
// loader's own modules, node:vm and node:module among them, cost ~10 ms), else runs dist/boot.js.
declare const RIG_VERSION: string;

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`rig ${RIG_VERSION}\n`);
} else {
  await import('./boot.js');
}
