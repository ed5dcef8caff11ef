#!/usr/bin/env node
// The CLI entry: the bundled build in dist/ (made by `npm run build`, `npm ci` or `npm start`).
try {
  await import('../dist/rig.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/rig.js')) {
    process.stderr.write('rig: the build in dist/ is missing; run `npm run build` in the rig checkout first\n');
    process.exit(1);
  }
  throw error;
}
