// The TUI is loaded only by the commands that open it: `rig exec` and `rig --version` run the
// BUILT CLI (npm run build first) with a hook logging every module loaded, and none of them may be
// a chunk holding the TUI (its renderer, get-east-asian-width, highlight.js).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { REPO_ROOT, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';

// Modules go through the load hook, the bundle's chunks through vm.Script (dist/boot.cjs compiles
// them with the code cache).
const PRELOAD = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
register('data:text/javascript,' + encodeURIComponent(
  'import { appendFileSync } from "node:fs";' +
  'export async function load(url, context, next) { appendFileSync(' + JSON.stringify(process.env.RIG_TEST_LOAD_LOG) + ', url + "\\\\n"); return next(url, context); }'
));
const vm = createRequire(import.meta.url)('node:vm');
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    if (options?.filename) appendFileSync(process.env.RIG_TEST_LOAD_LOG, pathToFileURL(options.filename).href + '\\n');
    super(code, options);
  }
};
`;

/** Markers that only the TUI's code contains. */
const TUI_MARKERS = ['TuiApp', 'InlineRenderer', 'eastAsianWidth', 'registerLanguage'];

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

async function loaded(args: string[]): Promise<string[]> {
  const dir = tempDir('rig-tui-lazy-');
  const preload = join(dir, 'preload.mjs');
  const log = join(dir, 'loaded.log');
  writeFileSync(preload, PRELOAD);
  writeFileSync(log, '');
  const home = tempRigHome({ url: mock.url, wire: 'responses' });
  const repo = tempGitRepo({ 'a.txt': 'a\n' });
  try {
    mock.enqueue({ text: 'done' });
    const run = await runRig(args, { cwd: repo, home, env: { NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`, RIG_TEST_LOAD_LOG: log } });
    expect(run.code, run.stderr).toBe(0);
    return readFileSync(log, 'utf8').split('\n').filter((url) => url.startsWith('file:') && url.includes('/dist/'));
  } finally {
    for (const made of [dir, home, repo]) removeDir(made);
  }
}

function tuiChunks(urls: string[]): string[] {
  return urls.filter((url) => {
    const text = readFileSync(new URL(url), 'utf8');
    return TUI_MARKERS.some((marker) => text.includes(marker));
  });
}

describe('the TUI is lazy-loaded', () => {
  it('rig exec loads none of it', async () => {
    const urls = await loaded(['exec', '--json', 'say done']);
    // The entry chain (bin/rig.js, dist/rig.cjs, dist/boot.cjs) is CommonJS, out of the load hook's sight.
    expect(urls.some((url) => url.endsWith('/dist/main.js'))).toBe(true);
    expect(tuiChunks(urls)).toEqual([]);
  });

  it('rig --version loads none of it', async () => {
    expect(tuiChunks(await loaded(['--version']))).toEqual([]);
  });

  it('the markers do find the TUI chunk in the build (the check can fail)', () => {
    const dist = join(REPO_ROOT, 'dist');
    const all = readdirSync(dist).filter((name) => name.endsWith('.js')).map((name) => pathToFileURL(join(dist, name)).href);
    expect(tuiChunks(all).length).toBeGreaterThan(0);
  });
});
