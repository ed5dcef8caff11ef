// Issue 11 item 1, with the real originals from npm (dev dependencies, MIT): `rig harness capture
// pi` and `rig harness capture opencode` run the original without network against the loopback
// recorder and write a profile; `rig exec --harness <id>` then sends a first request equal to the
// captured one field by field on every wire (ids, dates and paths aside), key order included.
// The captures are written to temp dirs only: no other product's text enters the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../support/mock-provider/index.js';
import { REPO_ROOT, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { normalizeBody } from './normalize.js';

const ORIGINALS: { id: string; bin: string }[] = [
  { id: 'pi', bin: join(REPO_ROOT, 'node_modules', '.bin', 'pi') },
  // The platform package's binary: opencode-ai's postinstall only links it into bin/opencode.exe.
  { id: 'opencode', bin: ['opencode-linux-x64', 'opencode-linux-x64-baseline', 'opencode-linux-arm64'].map((name) => join(REPO_ROOT, 'node_modules', name, 'bin', 'opencode')).find((file) => existsSync(file)) ?? '' },
];
const WIRES: MockWire[] = ['chat', 'responses', 'messages'];

interface Stored {
  wire: MockWire;
  body: Record<string, unknown>;
  workspace: string;
  home: string;
  prompt: string;
  captured: string;
}

/** An empty git repository, as the capture's throwaway workspace is. */
function emptyRepo(): string {
  const dir = realpathSync(tempDir('capture-ws'));
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  return dir;
}

describe.each(ORIGINALS)('rig harness capture $id (the real original)', ({ id, bin }) => {
  let mock: MockProvider;
  let home = '';

  beforeAll(async () => {
    mock = await startMockProvider();
    home = realpathSync(tempRigHome({ url: mock.url, wire: 'chat', model: 'rig-capture-model' }));
    const run = await runRig(['harness', 'capture', id, '--bin', bin, '--json'], { cwd: home, home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 240_000);

  afterAll(async () => {
    await mock?.close();
    if (home) removeDir(home);
  });

  it('writes the profile, its prompt file and the captured requests under $RIG_HOME/harnesses', async () => {
    const profile = JSON.parse(readFileSync(join(home, 'harnesses', `${id}.json`), 'utf8')) as Record<string, unknown>;
    expect(profile['wires']).toEqual(WIRES);
    expect(readFileSync(join(home, 'harnesses', `${id}.prompt.md`), 'utf8')).toContain('{{cwd}}');
    // Every tool is bound to the capability the built-in profile of the same id gives it.
    const builtin = JSON.parse(readFileSync(join(REPO_ROOT, 'src', 'harness', 'profiles', `${id}.json`), 'utf8')) as { tools: { name: string; capability: string }[] };
    for (const tool of profile['tools'] as { name: string; capability: string }[]) {
      expect(tool.capability, tool.name).toBe(builtin.tools.find((entry) => entry.name === tool.name)?.capability);
    }
    const listed = await runRig(['harness', 'list', '--json'], { cwd: home, home });
    expect((JSON.parse(listed.stdout) as { id: string; origin: string; error?: string }[]).find((entry) => entry.id === id)).toMatchObject({ origin: 'user' });
  });

  it.each(WIRES)('rig exec sends the captured first request on %s', async (wire) => {
    const stored = JSON.parse(readFileSync(join(home, 'harnesses', `${id}.capture`, `${wire}.request.json`), 'utf8')) as Stored;
    const workspace = emptyRepo();
    try {
      const before = mock.requests.length;
      mock.enqueue({ text: 'ready' });
      const args = ['--harness', id, '-m', String(stored.body['model']), '-c', `model_providers.mock.wire_api="${wire}"`, 'exec', '--json', '-s', 'read-only', stored.prompt];
      const run = await runRig(args, { cwd: workspace, home, env: { SHELL: '/bin/bash', TZ: 'UTC' } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const sent = mock.requests[before]!.body;
      const now = new Date();
      const ours = normalizeBody(sent, { workspace, home, tmp: tmpdir(), now });
      // Less the tools rig cannot run: a profile never sends a tool without a handler (issue 15).
      const builtin = JSON.parse(readFileSync(join(REPO_ROOT, 'src', 'harness', 'profiles', `${id}.json`), 'utf8')) as { tools: { name: string; capability: string }[] };
      const omitted = new Set(builtin.tools.filter((tool) => tool.capability === 'unavailable').map((tool) => tool.name));
      const expected = { ...stored.body, tools: (stored.body['tools'] as { name?: string; function?: { name: string } }[]).filter((tool) => !omitted.has(tool.function?.name ?? tool.name ?? '')) };
      expect(ours).toEqual(normalizeBody(expected, { workspace: stored.workspace, home: stored.home, tmp: join(stored.home, 'tmp'), now }));
      // Key order too, at the top level (the original's field order).
      expect(Object.keys(sent as object)).toEqual(Object.keys(stored.body));
    } finally {
      removeDir(workspace);
    }
  }, 60_000);
});
