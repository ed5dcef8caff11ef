#!/usr/bin/env node
// The CLI entry: the bundled build in dist/ (made by `npm run build`, `npm ci` or `npm start`).
// CommonJS (bin/package.json), as dist/rig.cjs and dist/boot.cjs are: see src/cli/boot/index.ts.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'rig.cjs');
try {
  require(entry);
} catch (error) {
  if (error?.code === 'MODULE_NOT_FOUND' && !existsSync(entry)) {
    process.stderr.write('rig: the build in dist/ is missing; run `npm run build` in the rig checkout first\n');
    process.exit(1);
  }
  throw error;
}
