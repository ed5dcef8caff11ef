// zod is the slow, exact path: a run with a valid config and a built-in harness must not load it.
// Runs the BUILT CLI (npm run build first) with hooks that log every module it loads.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../support/workspace.js';

// ESM loads go through a load hook (packages), the bundle's chunks through vm.Script (dist/boot.cjs
// compiles them with the code cache), CommonJS ones through Module._load (dist/rig.cjs, dist/zod.cjs
// or the zod package).
const PRELOAD = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
const log = process.env.RIG_TEST_LOAD_LOG;
register('data:text/javascript,' + encodeURIComponent(
  'import { appendFileSync } from "node:fs";' +
  'export async function load(url, context, next) { appendFileSync(' + JSON.stringify(log) + ', url + "\\\\n"); return next(url, context); }'
));
const Module = createRequire(import.meta.url)('node:module');
const original = Module._load;
Module._load = function (request, ...rest) {
  appendFileSync(log, 'require:' + request + '\\n');
  return original.call(this, request, ...rest);
};
const vm = createRequire(import.meta.url)('node:vm');
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    if (options?.filename) appendFileSync(log, pathToFileURL(options.filename).href + '\\n');
    super(code, options);
  }
};
`;

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

async function loadedModules(extraConfig: string): Promise<{ loaded: string[]; output: string }> {
  const dir = tempDir('rig-zod-trace-');
  const preload = join(dir, 'preload.mjs');
  const log = join(dir, 'loaded.log');
  writeFileSync(preload, PRELOAD);
  writeFileSync(log, '');
  const home = tempRigHome({ url: mock.url, wire: 'responses', extra: extraConfig });
  const repo = tempGitRepo({ 'a.txt': 'a\n' });
  try {
    mock.enqueue({ text: 'done' });
    const run = await runRig(['exec', '--json', 'say done'], {
      cwd: repo,
      home,
      env: { NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`, RIG_TEST_LOAD_LOG: log },
    });
    expect(run.code, run.stderr).toBe(0);
    return { loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean), output: run.stdout + run.stderr };
  } finally {
    for (const made of [dir, home, repo]) removeDir(made);
  }
}

function zodLoads(loaded: string[]): string[] {
  return loaded.filter((entry) => {
    if (entry.startsWith('require:')) return /zod/.test(entry);
    if (!entry.startsWith('file:') || !entry.endsWith('.js')) return false;
    // A chunk with zod bundled into it.
    return readFileSync(new URL(entry), 'utf8').includes('$ZodObject');
  });
}

describe('startup without zod', () => {
  it('a valid config and a built-in harness load no zod on the way to the answer', async () => {
    const { loaded } = await loadedModules('');
    expect(loaded.some((entry) => entry.startsWith('require:') && entry.endsWith('/dist/rig.cjs'))).toBe(true);
    expect(loaded.some((entry) => entry.endsWith('/dist/main.js'))).toBe(true);
    expect(zodLoads(loaded)).toEqual([]);
  });

  it('a config with an unknown key does load it, for the exact warning', async () => {
    const { loaded, output } = await loadedModules('[tui2]\nx = 1\n');
    // The exec --json stream carries the warning as an error item, its quotes JSON-escaped.
    expect(output).toContain('config.toml:10: unknown config key \\"tui2\\" (ignored)');
    expect(zodLoads(loaded).length).toBeGreaterThan(0);
  });
});
