// Entry point of the bundle (dist/main.js, which dist/boot.cjs runs from V8's code cache; `--version`
// is answered there before this loads). Every command loads only the rooms it needs (see
// program.ts), so startup stays close to bare Node. No top-level await: the build turns each chunk
// into a classic script, and a classic script cannot await at its top level.
import('./program.js').then(({ runCli }) => runCli(process.argv.slice(2)));
