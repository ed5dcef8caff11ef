// The built CLI's way to its first model request loads none of node:crypto (OpenSSL's start-up),
// node:worker_threads, node:perf_hooks and Node's file-stream modules (fs.promises, with the stream
// and readline modules it needs), and runs no ES module: the bundle loads crypto on first use (scripts/build.mjs),
// timings use the global `performance`, which loads perf_hooks when first read,
// the search worker's module only when a search needs it, stdin is looked at with isatty() and rules
// files are read synchronously, and the entry chain is CommonJS (on Node 20 an ES module starts the
// ESM loader; Node 24 has it loaded in every process). Runs the BUILT CLI (npm run build first) with
// a CommonJS preload that notes which of them were loaded after it ran, at the first request and at
// exit: what Node itself loads before any user code (a newer Node may load more) does not count.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../support/workspace.js';

const PRELOAD = `
const { subscribe } = require('node:diagnostics_channel');
const { appendFileSync } = require('node:fs');
const log = process.env.RIG_TEST_BUILTINS_LOG;
const atStart = new Set(process.moduleLoadList);
const loadedSince = (name) => !atStart.has(name) && process.moduleLoadList.includes(name);
const note = (when) => appendFileSync(log, JSON.stringify({
  when,
  crypto: loadedSince('NativeModule crypto'),
  workerThreads: loadedSince('NativeModule worker_threads'),
  perfHooks: loadedSince('NativeModule perf_hooks'),
  fileStreams: loadedSince('NativeModule internal/fs/promises'),
  esModuleRun: loadedSince('NativeModule internal/modules/esm/module_job'),
}) + '\\n');
let first = true;
subscribe('rig:model-request-sent', () => {
  if (first) note('first-request');
  first = false;
});
process.on('exit', () => note('exit'));
`;

interface Note {
  when: 'first-request' | 'exit';
  crypto: boolean;
  workerThreads: boolean;
  perfHooks: boolean;
  fileStreams: boolean;
  esModuleRun: boolean;
}

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

describe('built-ins on the way to the first request', () => {
  it('none of crypto, worker_threads, perf_hooks and the file streams is loaded before it, no ES module has run, and crypto works after', async () => {
    const dir = tempDir('rig-builtins-');
    const preload = join(dir, 'preload.cjs');
    const log = join(dir, 'notes.jsonl');
    writeFileSync(preload, PRELOAD);
    writeFileSync(log, '');
    const home = tempRigHome({ url: mock.url, wire: 'responses' });
    const repo = tempGitRepo({ 'a.txt': 'a\n' });
    try {
      const before = mock.requests.length;
      // A file write names its temp file with random bytes: crypto, loaded through the bundle's wrapper.
      const patch = ['*** Begin Patch', '*** Add File: made.txt', '+made by the patch', '*** End Patch'].join('\n');
      mock.enqueue({ toolCalls: [{ id: 'call_1', name: 'apply_patch', kind: 'custom', input: patch }] });
      mock.enqueue({ text: 'done' });
      const run = await runRig(['exec', '--json', '-c', 'harness="native"', '--sandbox', 'workspace-write', '-c', 'approval_policy="never"', 'make the file'], {
        cwd: repo,
        home,
        env: { NODE_OPTIONS: `--require ${preload}`, RIG_TEST_BUILTINS_LOG: log },
      });
      expect(run.code, run.stderr).toBe(0);
      const notes = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Note);
      expect(notes.find((entry) => entry.when === 'first-request')).toEqual({ when: 'first-request', crypto: false, workerThreads: false, perfHooks: false, fileStreams: false, esModuleRun: false });
      expect(JSON.stringify(mock.requests[before + 1]?.body)).toContain('Success. Updated the following files:');
      expect(readFileSync(join(repo, 'made.txt'), 'utf8')).toBe('made by the patch\n');
      expect(notes.find((entry) => entry.when === 'exit')?.crypto).toBe(true);
    } finally {
      for (const made of [dir, home, repo]) removeDir(made);
    }
  });
});
