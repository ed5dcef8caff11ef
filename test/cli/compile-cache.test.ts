// The code cache dist/boot.cjs compiles the bundle's chunks with (src/cli/boot/): through the BUILT
// CLI (npm run build first), with the cache cold, warm, corrupt, unwritable and turned off. A
// preload logs what V8 did with each chunk's cached data.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { progress, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../support/workspace.js';

const PRELOAD = `
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const vm = createRequire(import.meta.url)('node:vm');
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    const outcome = options?.cachedData ? (this.cachedDataRejected ? 'rejected' : 'hit') : 'none';
    appendFileSync(process.env.RIG_TEST_SCRIPT_LOG, options.filename.split('/').pop() + ' ' + outcome + '\\n');
  }
};
`;

let mock: MockProvider;
let scratch: string;
let repo: string;
let home: string;
let preload: string;

beforeAll(async () => {
  mock = await startMockProvider();
  scratch = tempDir('compile-cache');
  preload = join(scratch, 'preload.mjs');
  writeFileSync(preload, PRELOAD);
  repo = tempGitRepo({ 'a.txt': 'a\n' });
  home = tempRigHome({ url: mock.url, wire: 'responses' });
});

afterAll(async () => {
  await mock.close();
  for (const dir of [scratch, repo, home]) removeDir(dir);
});

let runs = 0;

/** An empty directory inside the test's scratch directory (removed with it). */
function fresh(): string {
  return mkdtempSync(join(scratch, 'dir-'));
}

/** One `rig exec` answered "done"; what V8 did with each chunk's cached data, by chunk name. */
async function execOnce(env: Record<string, string>): Promise<Map<string, string>> {
  const log = join(scratch, `scripts-${++runs}.log`);
  writeFileSync(log, '');
  mock.enqueue({ text: 'done' });
  const run = await runRig(['exec', '--color', 'never', 'say done'], {
    cwd: repo,
    home,
    env: { NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`, RIG_TEST_SCRIPT_LOG: log, ...env },
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe('done\n');
  expect(progress(run.stderr)).not.toMatch(/error|warning/i);
  const outcomes = new Map<string, string>();
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const [name, outcome] = line.split(' ');
    outcomes.set(name!, outcome!);
  }
  expect(outcomes.get('main.js')).toBeDefined();
  return outcomes;
}

function cacheFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.cache')) : [];
}

/** The chunk names a cache file holds (its header). */
function cachedChunks(file: string): string[] {
  const data = readFileSync(file);
  expect(data.toString('latin1', 0, 7)).toBe('RIGCC1\n');
  const length = data.readUInt32LE(7);
  return Object.keys(JSON.parse(data.toString('utf8', 11, 11 + length)) as object).sort();
}

describe('the code cache', () => {
  it('cold, the run compiles every chunk and writes them all; warm, every chunk comes from it and nothing is rewritten', async () => {
    const dir = join(fresh(), 'cache');
    const cold = await execOnce({ RIG_COMPILE_CACHE: dir });
    expect([...cold.values()].every((outcome) => outcome === 'none')).toBe(true);
    const [name] = cacheFiles(dir);
    expect(name).toMatch(new RegExp(`^[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.cache$`));
    expect(cachedChunks(join(dir, name!))).toEqual([...cold.keys()].sort());
    const written = readFileSync(join(dir, name!));

    const warm = await execOnce({ RIG_COMPILE_CACHE: dir });
    expect([...warm.keys()].sort()).toEqual([...cold.keys()].sort());
    expect([...warm.values()].every((outcome) => outcome === 'hit')).toBe(true);
    expect(readFileSync(join(dir, name!)).equals(written)).toBe(true);
    // No temp file left behind (Node 22+ keeps its own compile cache in node/), nothing written to RIG_HOME.
    expect(readdirSync(dir).filter((entry) => entry !== 'node')).toEqual([name]);
    expect(cacheFiles(home)).toEqual([]);
  });

  it('a cache file of garbage is ignored and rewritten', async () => {
    const dir = join(fresh(), 'cache');
    await execOnce({ RIG_COMPILE_CACHE: dir });
    const [name] = cacheFiles(dir);
    writeFileSync(join(dir, name!), Buffer.from('garbage, not a cache \u0000\u0001\u00ff'.repeat(100), 'latin1'));
    const after = await execOnce({ RIG_COMPILE_CACHE: dir });
    expect([...after.values()].every((outcome) => outcome === 'none')).toBe(true);
    expect(cachedChunks(join(dir, name!))).toEqual([...after.keys()].sort());
    expect([...(await execOnce({ RIG_COMPILE_CACHE: dir })).values()].every((outcome) => outcome === 'hit')).toBe(true);
  });

  it('cached data V8 rejects (a valid file of wrong bytes) is recompiled and rewritten', async () => {
    const dir = join(fresh(), 'cache');
    await execOnce({ RIG_COMPILE_CACHE: dir });
    const [name] = cacheFiles(dir);
    const file = join(dir, name!);
    const data = readFileSync(file);
    const headerEnd = 11 + data.readUInt32LE(7);
    // Keep the header, scramble every entry.
    for (let i = headerEnd; i < data.length; i++) data[i] = (data[i]! * 31 + 7) & 0xff;
    writeFileSync(file, data);
    const after = await execOnce({ RIG_COMPILE_CACHE: dir });
    expect([...after.values()].every((outcome) => outcome === 'rejected')).toBe(true);
    expect([...(await execOnce({ RIG_COMPILE_CACHE: dir })).values()].every((outcome) => outcome === 'hit')).toBe(true);
  });

  it('an unusable cache directory is ignored: under a file, or writable by others', async () => {
    const parent = fresh();
    writeFileSync(join(parent, 'file'), 'not a directory\n');
    const underFile = join(parent, 'file', 'cache');
    for (let i = 0; i < 2; i++) expect([...(await execOnce({ RIG_COMPILE_CACHE: underFile })).values()].every((o) => o === 'none')).toBe(true);

    // Cached data is code V8 runs: a directory others could write to is never read from.
    const open = join(parent, 'open');
    await execOnce({ RIG_COMPILE_CACHE: open });
    expect(cacheFiles(open)).toHaveLength(1);
    chmodSync(open, 0o777);
    expect([...(await execOnce({ RIG_COMPILE_CACHE: open })).values()].every((o) => o === 'none')).toBe(true);
  });

  it('RIG_COMPILE_CACHE=0 writes no cache; unset, the cache goes to .rig/ in the temp directory', async () => {
    const tmp = fresh();
    const off = await execOnce({ RIG_COMPILE_CACHE: '0', TMPDIR: tmp });
    expect([...off.values()].every((outcome) => outcome === 'none')).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);

    await execOnce({ TMPDIR: tmp });
    // Shared and sticky like the temp directory; each user's folder their own.
    expect(statSync(join(tmp, '.rig')).mode & 0o7777).toBe(0o1777);
    const dir = join(tmp, '.rig', `compile-cache-${process.getuid?.() ?? 'user'}`);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(cacheFiles(dir)).toHaveLength(1);
    expect([...(await execOnce({ TMPDIR: tmp })).values()].every((outcome) => outcome === 'hit')).toBe(true);
  });

  it('a sandboxed command cannot plant code in it, though the temp directory is writable', { timeout: 60_000 }, async () => {
    const tmp = fresh();
    await execOnce({ TMPDIR: tmp });
    const dir = join(tmp, '.rig', `compile-cache-${process.getuid?.() ?? 'user'}`);
    const [name] = cacheFiles(dir);
    const before = readFileSync(join(dir, name!));
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo planted > ${join(tmp, 'elsewhere')}; echo planted > ${join(dir, name!)}; echo planted > ${join(dir, 'new.cache')}; mkdir ${join(tmp, '.rig', 'compile-cache-other')}; true` } }] },
      { text: 'done' },
    );
    const run = await runRig(['exec', '--json', '--sandbox', 'workspace-write', 'plant'], { cwd: repo, home, env: { TMPDIR: tmp } });
    expect(run.code, run.stderr).toBe(0);
    const outputs = (mock.requests.at(-1)!.body.input as { type: string; output?: unknown }[]).filter((item) => item.type.endsWith('call_output'));
    const output = String(outputs.at(-1)?.output ?? '');
    expect(existsSync(join(tmp, 'elsewhere')), output).toBe(true);
    expect(readFileSync(join(dir, name!)).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((entry) => entry !== 'node')).toEqual([name]);
    expect(readdirSync(join(tmp, '.rig'))).toEqual([`compile-cache-${process.getuid?.() ?? 'user'}`]);
  });
});
