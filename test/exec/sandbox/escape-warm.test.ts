// The whole escape suite (escape.test.ts) again, each attempt run in a copy of its sandbox started
// ahead of it (src/exec/warm-sandbox.ts): a copy must hold exactly what a sandbox of its own holds.
process.env['RIG_TEST_SANDBOX_RUNNER'] = 'warm';
await import('./escape.test.js');
