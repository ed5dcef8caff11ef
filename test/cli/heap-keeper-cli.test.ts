// The heap keeper through the built CLI: a `rig exec` whose heap grows by more than the margin
// between model requests gets forced (gc()) collections while the later requests are out; a
// one-request run gets none, and RIG_HEAP_KEEPER=0 turns it off. A preload counts V8's forced
// collections (the flag gc() sets) without touching rig.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';

const PRELOAD = `
import { appendFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) appendFileSync(process.env.RIG_TEST_GC_LOG, 'forced\\n');
  }
}).observe({ entryTypes: ['gc'] });
`;

let mock: MockProvider;
let scratch: string;
let home: string;
let preload: string;

beforeAll(async () => {
  mock = await startMockProvider();
  scratch = tempDir('heap-keeper-cli');
  preload = join(scratch, 'preload.mjs');
  writeFileSync(preload, PRELOAD);
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  removeDir(scratch);
  removeDir(home);
});

let runs = 0;

/** One `rig exec`; how many forced collections it had. */
async function forcedCollections(env: Record<string, string> = {}): Promise<number> {
  const log = join(scratch, `gc-${++runs}.log`);
  writeFileSync(log, '');
  const run = await runRig(['exec', '--skip-git-repo-check', '--color', 'never', 'plan it'], {
    cwd: scratch,
    home,
    env: { NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`, RIG_TEST_GC_LOG: log, ...env },
  });
  expect(run.code, run.stderr).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
}

/**
 * Three answers of ~0.9 MB of text, each with a plan update, then the last: streaming each grows the
 * heap by far more than the 2 MB margin (mostly garbage of the stream, ~15 MB), and keeps it under
 * the 64 MB the keeper leaves to V8.
 */
const growingTurns = () => [
  ...Array.from({ length: 3 }, () => ({ text: 'notes '.repeat(150_000), toolCalls: [{ name: 'update_plan', arguments: { plan: [{ step: 'look', status: 'completed' }] } }] })),
  { text: 'done' },
];

test('the heap grew between requests: forced collections while later requests are out', { timeout: 60_000 }, async () => {
  mock.enqueue(...growingTurns());
  // V8 may have collected on its own before a request; at least one of the three finds the heap grown.
  expect(await forcedCollections()).toBeGreaterThanOrEqual(1);
});

test('RIG_HEAP_KEEPER=0: the same run has no forced collection', { timeout: 60_000 }, async () => {
  mock.enqueue(...growingTurns());
  expect(await forcedCollections({ RIG_HEAP_KEEPER: '0' })).toBe(0);
});

test('a run of one request (the first only sets the mark): none', { timeout: 60_000 }, async () => {
  mock.enqueue({ text: 'notes '.repeat(150_000) });
  expect(await forcedCollections()).toBe(0);
});
