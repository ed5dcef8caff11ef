// dist/rig.cjs, which bin/rig.js requires: answers `--version` before anything else loads (the
// loader's own modules, node:vm and node:module among them, cost ~10 ms), else runs dist/boot.cjs.
// Built as CommonJS, like bin/rig.js and dist/boot.cjs (scripts/build.mjs): on Node 20 an ES module
// anywhere on this path starts the ESM loader, ~6 ms of every run, and nothing before the first
// model request needs it.
declare const RIG_VERSION: string;

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`rig ${RIG_VERSION}\n`);
} else {
  require('./boot.cjs');
}
